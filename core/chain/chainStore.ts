import type { Block, Checkpoint, Hex, L2Tips } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { NodeError } from '../errors.js';
import type { AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import type { StoragePort } from '../ports.js';
import type { Genesis } from '../worldState/genesis.js';
import type { BlockIndexer } from './blockIndexer.js';
import { fromStoredJson, toStoredJson } from './serde.js';
import { RecentlyUsedCache } from '../recentlyUsedCache.js';

/** What a data directory belongs to; a node refuses a directory written for another chain. */
export interface ChainIdentity {
  readonly l1ChainId: number;
  readonly rollupAddress: Hex;
  readonly rollupVersion: number;
  readonly genesisArchiveRoot: Hex;
}

/** The L1 block the archiver has processed up to (inclusive). */
export interface L1SyncPosition {
  readonly blockNumber: bigint;
  readonly blockHash: Hex;
  readonly timestamp: bigint;
}

/**
 * The L1 position a stored chain has synced to, read without opening the chain (a snapshot install compares it with a
 * snapshot's before replacing the database); undefined when the store has none.
 */
export async function readStoredL1SyncPosition(storage: StoragePort): Promise<L1SyncPosition | undefined> {
  const text = await storage.get(KEY.l1Sync);
  return text === undefined ? undefined : fromStoredJson<L1SyncPosition>(text);
}

/** One atomic change of the chain: everything is written in a single storage batch or not at all. */
export interface ChainChange {
  /** Remove blocks (and their indexes) above this number first. */
  readonly removeBlocksAbove?: number;
  /** Remove checkpoints above this number first. */
  readonly removeCheckpointsAbove?: number;
  readonly addBlocks?: readonly { readonly block: Block; readonly archiveTree: AppendOnlyTree }[];
  readonly putCheckpoints?: readonly Checkpoint[];
  readonly tips: L2Tips;
  readonly l1Sync?: L1SyncPosition;
  /** The world state's operations for the same change (core/worldState), written in the same batch. */
  readonly worldStateOps?: readonly BatchOp[];
  /** Other indexes kept in step with the L1 sync position (the inbox's messages, core/messages), same batch. */
  readonly syncedIndexOps?: readonly BatchOp[];
}

type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** Fixed-width decimal so that lexicographic key order is numeric order. */
const pad = (n: number): string => n.toString().padStart(12, '0');

/** The chain store's own key prefixes; indexers must stay clear of them. */
const CHAIN_KEY_PREFIXES = {
  meta: 'meta:',
  block: 'block:',
  archiveTree: 'archiveTree:',
  blockByHash: 'blockByHash:',
  blockByArchive: 'blockByArchive:',
  checkpoint: 'checkpoint:',
  checkpointByHash: 'checkpointByHash:',
  worldState: 'ws:',
} as const;

const KEY = {
  identity: 'meta:identity',
  tips: 'meta:tips',
  l1Sync: 'meta:l1Sync',
  block: (n: number) => `block:${pad(n)}`,
  archiveTree: (n: number) => `archiveTree:${pad(n)}`,
  blockByHash: (h: Hex) => `blockByHash:${h}`,
  blockByArchive: (h: Hex) => `blockByArchive:${h}`,
  checkpoint: (n: number) => `checkpoint:${pad(n)}`,
  checkpointByHash: (h: Hex) => `checkpointByHash:${h}`,
} as const;

/** A checkpoint as stored: data directories written before attestations were kept hold none. */
type StoredCheckpoint = Omit<Checkpoint, 'attestations'> & { readonly attestations?: Checkpoint['attestations'] };

/** The stored checkpoint, an older record answering an empty attestation list (the node did not keep it). */
function checkpointOfStored(stored: StoredCheckpoint): Checkpoint {
  return stored.attestations === undefined ? { ...stored, attestations: [] } : (stored as Checkpoint);
}

/** The chain's identity, tips and L1 sync position as stored: what a database snapshot says it holds. */
export interface StoredChainHead {
  readonly identity: ChainIdentity;
  readonly tips: L2Tips;
  readonly l1Sync: L1SyncPosition | undefined;
}

/**
 * Reads the stored chain head through `get` (a read of one storage snapshot, so it matches the entries read from that
 * snapshot); undefined when the store holds no chain yet.
 */
export async function readStoredChainHead(
  get: (key: string) => Promise<string | undefined>,
): Promise<StoredChainHead | undefined> {
  const [identity, tips, l1Sync] = await Promise.all([get(KEY.identity), get(KEY.tips), get(KEY.l1Sync)]);
  if (identity === undefined || tips === undefined) return undefined;
  return {
    identity: fromStoredJson<ChainIdentity>(identity),
    tips: fromStoredJson<L2Tips>(tips),
    l1Sync: l1Sync === undefined ? undefined : fromStoredJson<L1SyncPosition>(l1Sync),
  };
}

/** Decoded blocks and checkpoints kept in memory, most recently written or read: the chain's top is read all the time. */
export const CHAIN_STORE_DECODED_KEPT = 128;

/**
 * Blocks, checkpoints, tips and the L1 sync position, persisted through the storage port. Reads go to storage;
 * tips and the sync position are cached because every query needs them. Writes are serialized and atomic.
 */

export class ChainStore {
  private tipsCache: L2Tips;
  private l1SyncCache: L1SyncPosition | undefined;
  /**
   * Blocks and checkpoints as decoded from their stored JSON. Only `apply` writes those keys, and it drops the entries
   * it rewrites or removes once its batch lands, so an entry always equals what the storage holds. Callers share the
   * decoded values (their types are readonly).
   */
  private readonly decodedBlocks = new RecentlyUsedCache<number, Block>(CHAIN_STORE_DECODED_KEPT);
  private readonly decodedCheckpoints = new RecentlyUsedCache<number, Checkpoint>(CHAIN_STORE_DECODED_KEPT);
  private writeQueue: Promise<void> = Promise.resolve();
  private readonly indexers: BlockIndexer[] = [];

  private constructor(
    private readonly storage: StoragePort,
    tips: L2Tips,
    l1Sync: L1SyncPosition | undefined,
  ) {
    this.tipsCache = tips;
    this.l1SyncCache = l1Sync;
  }

  /**
   * Opens the store; on an empty store writes the genesis block. Throws DATA_DIRECTORY_CHAIN_MISMATCH when the
   * store was written for another chain.
   */
  static async open(
    storage: StoragePort,
    identity: ChainIdentity,
    genesis: Genesis,
    genesisTips: L2Tips,
  ): Promise<ChainStore> {
    if (storage.status === 'opening' || storage.status === 'closed') await storage.open();
    const storedIdentity = await storage.get(KEY.identity);
    if (storedIdentity === undefined) {
      const store = new ChainStore(storage, genesisTips, undefined);
      await storage.batch([
        { type: 'put', key: KEY.identity, value: toStoredJson(identity) },
        ...store.blockOps(genesis.block, genesis.archiveTree),
        { type: 'put', key: KEY.tips, value: toStoredJson(genesisTips) },
      ]);
      return store;
    }
    const stored = fromStoredJson<ChainIdentity>(storedIdentity);
    const mismatched = (Object.keys(identity) as (keyof ChainIdentity)[]).filter((k) => stored[k] !== identity[k]);
    if (mismatched.length > 0) {
      throw new NodeError(
        'DATA_DIRECTORY_CHAIN_MISMATCH',
        `the data directory holds another chain (${mismatched.map((k) => `${k}: stored ${String(stored[k])}, now ${String(identity[k])}`).join('; ')}); use another --data-directory`,
        { stored, expected: identity },
      );
    }
    const tipsText = await storage.get(KEY.tips);
    assert(tipsText !== undefined, 'a store with an identity has tips');
    const l1SyncText = await storage.get(KEY.l1Sync);
    return new ChainStore(
      storage,
      fromStoredJson<L2Tips>(tipsText),
      l1SyncText === undefined ? undefined : fromStoredJson(l1SyncText),
    );
  }

  /** Adds a secondary index; its entries are written with every later block change. Register before syncing. */
  registerIndexer(indexer: BlockIndexer): void {
    const clash = this.indexers.find(
      (other) => other.keyPrefix.startsWith(indexer.keyPrefix) || indexer.keyPrefix.startsWith(other.keyPrefix),
    );
    assert(clash === undefined, `indexer prefix ${indexer.keyPrefix} overlaps ${clash?.keyPrefix}`);
    assert(
      Object.values(CHAIN_KEY_PREFIXES).every(
        (prefix) => !indexer.keyPrefix.startsWith(prefix) && !prefix.startsWith(indexer.keyPrefix),
      ),
      `indexer prefix ${indexer.keyPrefix} overlaps the chain store's keys`,
    );
    this.indexers.push(indexer);
  }

  private indexOps(block: Block, change: 'blockAdded' | 'blockRemoved'): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const indexer of this.indexers) {
      for (const op of indexer[change](block)) {
        assert(
          op.key.startsWith(indexer.keyPrefix),
          `indexer ${indexer.keyPrefix} writes only its own keys, not ${op.key}`,
        );
        ops.push(op);
      }
    }
    return ops;
  }

  /** A raw read of an indexer's key (indexers read their entries through the store). */
  getIndexEntry(key: string): Promise<string | undefined> {
    return this.storage.get(key);
  }

  /** Index entries under a prefix, in key order, at most `limit`. */
  getIndexEntries(prefix: string, limit: number): Promise<[string, string][]> {
    return this.storage.iterator({ gte: prefix, lt: `${prefix}\uffff`, limit }).all();
  }

  get tips(): L2Tips {
    return this.tipsCache;
  }

  get l1Sync(): L1SyncPosition | undefined {
    return this.l1SyncCache;
  }

  async getBlock(blockNumber: number): Promise<Block | undefined> {
    if (!Number.isSafeInteger(blockNumber) || blockNumber < 0 || blockNumber > this.tipsCache.proposed.number)
      return undefined;
    const known = this.decodedBlocks.get(blockNumber);
    if (known !== undefined) return known;
    const text = await this.storage.get(KEY.block(blockNumber));
    if (text === undefined) return undefined;
    const block = fromStoredJson<Block>(text);
    this.decodedBlocks.set(blockNumber, block);
    return block;
  }

  async getArchiveTree(blockNumber: number): Promise<AppendOnlyTree | undefined> {
    const text = await this.storage.get(KEY.archiveTree(blockNumber));
    return text === undefined ? undefined : fromStoredJson<AppendOnlyTree>(text);
  }

  async getBlockNumberByHash(hash: Hex): Promise<number | undefined> {
    const text = await this.storage.get(KEY.blockByHash(hash.toLowerCase() as Hex));
    return text === undefined ? undefined : Number(text);
  }

  async getBlockNumberByArchive(archiveRoot: Hex): Promise<number | undefined> {
    const text = await this.storage.get(KEY.blockByArchive(archiveRoot.toLowerCase() as Hex));
    return text === undefined ? undefined : Number(text);
  }

  async getCheckpointNumberByHash(hash: Hex): Promise<number | undefined> {
    const text = await this.storage.get(KEY.checkpointByHash(hash.toLowerCase() as Hex));
    const n = text === undefined ? undefined : Number(text);
    return n !== undefined && n <= this.tipsCache.checkpointed.checkpoint.number ? n : undefined;
  }

  async getCheckpoint(checkpointNumber: number): Promise<Checkpoint | undefined> {
    if (!Number.isSafeInteger(checkpointNumber) || checkpointNumber < 1) return undefined;
    if (checkpointNumber > this.tipsCache.checkpointed.checkpoint.number) return undefined;
    const known = this.decodedCheckpoints.get(checkpointNumber);
    if (known !== undefined) return known;
    const text = await this.storage.get(KEY.checkpoint(checkpointNumber));
    if (text === undefined) return undefined;
    const checkpoint = checkpointOfStored(fromStoredJson<StoredCheckpoint>(text));
    this.decodedCheckpoints.set(checkpointNumber, checkpoint);
    return checkpoint;
  }

  /** Applies one change atomically; changes are applied one at a time in call order. */
  commit(change: ChainChange): Promise<void> {
    const run = this.writeQueue.then(() => this.apply(change));
    this.writeQueue = run.catch(() => undefined);
    return run;
  }

  private async apply(change: ChainChange): Promise<void> {
    const ops: BatchOp[] = [];
    if (change.removeBlocksAbove !== undefined) {
      for (let n = this.tipsCache.proposed.number; n > change.removeBlocksAbove; n--) {
        const block = await this.getBlock(n);
        assert(block !== undefined, `block ${n} below the proposed tip is stored`);
        ops.push(
          { type: 'del', key: KEY.block(n) },
          { type: 'del', key: KEY.archiveTree(n) },
          { type: 'del', key: KEY.blockByHash(block.hash) },
          { type: 'del', key: KEY.blockByArchive(block.archive.root) },
          ...this.indexOps(block, 'blockRemoved'),
        );
      }
    }
    if (change.removeCheckpointsAbove !== undefined) {
      for (let n = this.tipsCache.checkpointed.checkpoint.number; n > change.removeCheckpointsAbove; n--) {
        const checkpoint = await this.getCheckpoint(n);
        ops.push({ type: 'del', key: KEY.checkpoint(n) });
        if (checkpoint) ops.push({ type: 'del', key: KEY.checkpointByHash(checkpoint.hash) });
      }
    }
    for (const { block, archiveTree } of change.addBlocks ?? [])
      ops.push(...this.blockOps(block, archiveTree), ...this.indexOps(block, 'blockAdded'));
    for (const checkpoint of change.putCheckpoints ?? []) {
      ops.push({ type: 'put', key: KEY.checkpoint(checkpoint.number), value: toStoredJson(checkpoint) });
      ops.push({ type: 'put', key: KEY.checkpointByHash(checkpoint.hash), value: String(checkpoint.number) });
    }
    ops.push({ type: 'put', key: KEY.tips, value: toStoredJson(change.tips) });
    if (change.l1Sync) ops.push({ type: 'put', key: KEY.l1Sync, value: toStoredJson(change.l1Sync) });
    // Appended one by one: a world-state change that moves its keys to storage has more records than a call may take
    // as arguments.
    for (const op of change.worldStateOps ?? []) ops.push(op);
    for (const op of change.syncedIndexOps ?? []) ops.push(op);
    // Durable: the production adapter (classic-level) syncs every batch unless told otherwise.
    await this.storage.batch(ops);
    if (change.removeBlocksAbove !== undefined) {
      for (let n = this.tipsCache.proposed.number; n > change.removeBlocksAbove; n--) this.decodedBlocks.delete(n);
    }
    if (change.removeCheckpointsAbove !== undefined) {
      for (let n = this.tipsCache.checkpointed.checkpoint.number; n > change.removeCheckpointsAbove; n--)
        this.decodedCheckpoints.delete(n);
    }
    // What was just written is what the next read would decode: plain readonly values of JSON fields and bigints,
    // so the written value itself stands for its stored text (test/scenarios/storedRoundTrip.test.ts checks the round trip).
    for (const { block } of change.addBlocks ?? [])
      this.decodedBlocks.set(block.header.globalVariables.blockNumber, block);
    for (const checkpoint of change.putCheckpoints ?? []) this.decodedCheckpoints.set(checkpoint.number, checkpoint);
    this.tipsCache = change.tips;
    if (change.l1Sync) this.l1SyncCache = change.l1Sync;
  }

  private blockOps(block: Block, archiveTree: AppendOnlyTree): BatchOp[] {
    const n = block.header.globalVariables.blockNumber;
    return [
      { type: 'put', key: KEY.block(n), value: toStoredJson(block) },
      { type: 'put', key: KEY.archiveTree(n), value: toStoredJson(archiveTree) },
      { type: 'put', key: KEY.blockByHash(block.hash), value: String(n) },
      { type: 'put', key: KEY.blockByArchive(block.archive.root), value: String(n) },
    ];
  }
}
