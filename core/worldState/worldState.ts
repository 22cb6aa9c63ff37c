/**
 * The world state: the five trees (docs/protocol.md, Trees), block by block, with every kept block queryable.
 *
 * History: versioned pages, not content-addressed nodes. Each tree is cut into pages of WORLD_STATE_PAGE_HEIGHT levels
 * (core/merkle/treeGeometry.ts); a block that changes a page writes a new version of it under
 * `ws:p:<tree>:<page>:<block>`, and a read as of block b takes, per page, the newest version at or before b with one
 * reverse seek. Why this over content-addressed nodes (node hash -> children):
 * - a sibling path is ceil(height / page height) independent reads that run in parallel (14 for height 42), where a
 *   content-addressed walk is `height` reads one after the other, each needing the previous one's answer;
 * - a block writes one record per changed page (a few levels at once) instead of one per changed node: with LevelDB,
 *   the cost of a batch is mostly per record, so this keeps storage below the cost of the hashes;
 * - unwind and prune are blind deletes, with no reference counts: each block keeps a journal of the pages it wrote
 *   with the version each replaced. Unwinding block k deletes the versions k wrote; pruning up to block p deletes,
 *   for each page written by a block k <= p, the version k replaced (no block >= p can read it any more).
 * Content addressing would share identical subtrees across versions, which only empty subtrees do here, and those
 * are never stored (an absent page is an empty one).
 *
 * Hot path: the latest version of recently written pages stays in memory (bounded per tree), as do the keys of the
 * indexed trees in sorted order up to a bound (core/worldState/indexedKeys.ts), so a block finds its low leaves
 * without a storage seek; past the bound the keys move to storage, one record a key. Applying a block reads storage
 * only for pages missing from memory, computes each changed node once (paths that meet share their upper nodes), and
 * yields one batch of storage operations. Reads as of past blocks take
 * the page versions they need from the cache of past blocks' pages (core/worldState/historicalPageCache.ts, bounded
 * in bytes) before storage: a version never changes once its block is committed.
 *
 * Writes: prepareBlock -> BlockDraft (the state reference, for the header) -> finish(blockHash) -> PreparedBlock
 * (the ops of one atomic batch). The caller commits it alone (`commit`) or inside its own batch (`markCommitted`
 * after writing `ops`). Nothing is visible to queries until then; a crash before leaves the last committed block.
 */
import type { Hex, StateReference, TreeSnapshot } from '../../spec/chain.js';
import { bytesToHex, isHex } from '../../spec/codec/bytes.js';
import { MerkleTreeId, WORLD_STATE_LOOKUP_VALUES_MAX, WORLD_STATE_READ_ATTEMPTS_MAX } from '../../spec/constants.js';
import { assert } from '../assert.js';
import { CountingHasher } from '../merkle/countingHasher.js';
import { emptyRoot } from '../merkle/emptyRoots.js';
import type { IndexedLeaf, NullifierLeafPreimage, PublicDataLeafPreimage } from '../merkle/indexedLeaf.js';
import { decodePreimage, toNullifierPreimage, toPublicDataPreimage } from '../merkle/indexedLeaf.js';
import type { PageEntry } from '../merkle/pagedTreeDraft.js';
import { leafFromPages, preimageFromPages, siblingPathFromPages } from '../merkle/pagedTreeDraft.js';
import type { KeyPlacement, SortedKeyIndex } from '../merkle/sortedKeyIndex.js';
import type { PageRef } from '../merkle/treeGeometry.js';
import { pagesOfPaths, pathPages } from '../merkle/treeGeometry.js';
import type { StoragePort } from '../ports.js';
import type { BlockStateEffects } from './blockEffects.js';
import { validateBlockEffects } from './blockEffects.js';
import { nullifierGenesisLeaves, publicDataGenesisLeaves } from './genesisState.js';
import type { IndexedBatch, IndexedLeafChange } from './indexedBatch.js';
import { planNullifiers, planPublicDataWrites } from './indexedBatch.js';
import { HistoricalPageCache } from './historicalPageCache.js';
import type { IndexedTreeId, KeyInsertion, MaybePromise, NextOfLeaf } from './indexedKeys.js';
import { IndexedKeys, thenMaybe } from './indexedKeys.js';
import type { PageCacheGuard } from './pageStore.js';
import { PageStore } from './pageStore.js';
import { publicDataLeafSlot } from './publicDataSlot.js';
import type { BlockJournal, BlockSummary, InsertedKeys, StorageOperation, WorldStateMeta } from './storageLayout.js';
import {
  WORLD_STATE_FORMAT_KEYS_ON_DISK,
  WORLD_STATE_FORMAT_VERSION,
  WORLD_STATE_KEY_END,
  WORLD_STATE_KEY_PREFIX,
  appendedValueLeafIndex,
  encodePage,
  worldStateKeys as KEY,
} from './storageLayout.js';
import type { LeafWrite, TreeState, TreeUpdate } from './treeUpdates.js';
import { updateAppendOnly, updateIndexed } from './treeUpdates.js';
import type { DataInBlock, MembershipWitness, NullifierMembershipWitness, PublicDataWitness } from './witnesses.js';
import type { WorldStateConfig, WorldStateOptions } from './worldStateConfig.js';
import { TREE_IDS, heightsInIdOrder, indexedKindOf, resolveWorldStateConfig } from './worldStateConfig.js';
import { WorldStateError } from './worldStateError.js';

/** Storage operations of one change, to be written in one batch. */
export interface PreparedWrite {
  readonly ops: readonly StorageOperation[];
  /** Writes `ops` and `extraOps` (the caller's, e.g. the chain store's) in one batch, then makes the change visible. */
  commit(extraOps?: readonly StorageOperation[]): Promise<void>;
  /** For a caller that wrote `ops` in its own batch: makes the change visible. */
  markCommitted(): void;
}

export interface PreparedBlock extends PreparedWrite {
  readonly blockNumber: number;
  readonly stateReference: StateReference;
  /** The archive after the block's hash was appended. */
  readonly archive: TreeSnapshot;
}

/** A block's effects applied on top of the latest block, waiting for the block's hash. */
export interface BlockDraft {
  readonly blockNumber: number;
  /** The four state trees after the block: the header's `state`. */
  readonly stateReference: StateReference;
  /** The archive before the block: the header's `lastArchive`. */
  readonly lastArchive: TreeSnapshot;
  /** Appends the block's hash (archive leaf `blockNumber`) and yields the storage operations. */
  finish(blockHash: Hex): PreparedBlock;
}

/** A plan of every tree change of one block, computed from the latest state. */
interface BlockPlan {
  readonly blockNumber: number;
  readonly before: readonly TreeState[];
  readonly noteHashes: { readonly writes: readonly LeafWrite[]; readonly sizeAfter: number };
  readonly l1ToL2Messages: { readonly writes: readonly LeafWrite[]; readonly sizeAfter: number };
  readonly nullifiers: IndexedBatch;
  readonly publicData: IndexedBatch;
}

/** What a block plan looks its indexed trees' keys up in. */
interface PlanningKeys {
  readonly nullifier: SortedKeyIndex;
  readonly publicData: SortedKeyIndex;
}

interface LeafRead {
  readonly leaf: Uint8Array;
  readonly preimage: Uint8Array | undefined;
  readonly siblingPath: Hex[];
}

const toSnapshot = (state: TreeState): TreeSnapshot => ({ root: state.root, nextAvailableLeafIndex: state.size });
const isZeroField = (value: Hex): boolean => /^0x0*$/.test(value);

export class WorldState {
  /** Every hash this engine computed (for the benchmark's hashes-per-block figure). */
  readonly hasher = new CountingHasher();
  private readonly config: WorldStateConfig;
  private readonly pages: readonly PageStore[];
  /** Page versions of past blocks read from storage, shared by the trees; cleared by every unwind and clear. */
  private readonly history: HistoricalPageCache;
  private keys: IndexedKeys;
  /** Every tree's state after each kept block. */
  private readonly summaries = new Map<number, readonly TreeState[]>();
  private latest = -1;
  private oldest = 0;
  /** Bumped by every unwind and clear: reads and drafts that span one are redone or refused. */
  private generation = 0;
  private writeQueue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly storage: StoragePort,
    options: WorldStateOptions,
  ) {
    this.config = resolveWorldStateConfig(options);
    this.history = new HistoricalPageCache(this.config.historicalPageCacheBytesMax);
    this.keys = new IndexedKeys(storage, this.config.keyIndexMemoryKeysMax);
    this.pages = TREE_IDS.map(
      (treeId) =>
        new PageStore(treeId, this.config.geometries[treeId]!, storage, this.config.pageCachePagesMax, this.history),
    );
  }

  /**
   * Opens the world state kept in `storage`: resumes from the last committed block, finishes an interrupted clear,
   * or writes the genesis state into an empty store. WORLD_STATE_GENESIS_MISMATCH or WORLD_STATE_STORAGE_MISMATCH when
   * the store was written for another genesis or with other parameters.
   */
  static async open(storage: StoragePort, options: WorldStateOptions): Promise<WorldState> {
    if (storage.status === 'opening' || storage.status === 'closed') await storage.open();
    const engine = new WorldState(storage, options);
    const metaText = await storage.get(KEY.meta);
    const meta = metaText === undefined ? undefined : (JSON.parse(metaText) as WorldStateMeta);
    if (meta === undefined || meta.clearing === true) {
      if (meta !== undefined) await engine.wipe();
      await engine.writeGenesis();
      return engine;
    }
    engine.checkMeta(meta);
    await engine.load(meta);
    return engine;
  }

  get latestBlockNumber(): number {
    return this.latest;
  }

  /** Where the indexed trees' keys are: how many memory holds, and whether they moved to storage. */
  get keyIndex(): { readonly memoryKeys: number; readonly inStorage: boolean } {
    return { memoryKeys: this.keys.memoryKeys, inStorage: this.keys.inStorage };
  }

  /** The oldest block whose state is still kept; older ones answer WORLD_STATE_BLOCK_PRUNED. */
  get oldestBlockNumber(): number {
    return this.oldest;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Blocks

  /**
   * Applies a block's effects on top of the latest block, in memory. WORLD_STATE_BLOCK_OUT_OF_ORDER unless
   * `blockNumber` is the latest plus one; WORLD_STATE_DUPLICATE_NULLIFIER, WORLD_STATE_EFFECTS_INVALID or
   * WORLD_STATE_TREE_FULL for effects that cannot apply (the state is untouched).
   */
  async prepareBlock(blockNumber: number, effects: BlockStateEffects): Promise<BlockDraft> {
    if (blockNumber !== this.latest + 1) {
      throw new WorldStateError(
        'WORLD_STATE_BLOCK_OUT_OF_ORDER',
        `block ${blockNumber} does not follow the latest block ${this.latest}`,
        { blockNumber, latest: this.latest },
      );
    }
    const valid = validateBlockEffects(effects, 2 ** this.config.txSubtreeHeight);
    const before = this.summaryAt(this.latest);
    const generation = this.generation;
    const lookups = this.planningKeys(before, valid);
    const keys = lookups instanceof Promise ? await lookups : lookups;
    if (this.latest !== blockNumber - 1 || this.generation !== generation) {
      throw new WorldStateError(
        'WORLD_STATE_DRAFT_STALE',
        'the world state moved on while this block was being prepared; prepare it again',
        { latest: this.latest },
      );
    }
    return this.draftBlock(this.planBlock(blockNumber, before, valid, keys));
  }

  /** Indexes that answer the block plan's key lookups (synchronously while the keys are in memory). */
  private planningKeys(before: readonly TreeState[], effects: BlockStateEffects): MaybePromise<PlanningKeys> {
    const nullifier = this.keys.forPlanning(
      MerkleTreeId.NULLIFIER_TREE,
      () => effects.txs.flatMap((tx) => tx.nullifiers),
      before[MerkleTreeId.NULLIFIER_TREE]!.size,
      () => this.nextOfLatestLeaf(MerkleTreeId.NULLIFIER_TREE),
    );
    const publicData = this.keys.forPlanning(
      MerkleTreeId.PUBLIC_DATA_TREE,
      () => effects.txs.flatMap((tx) => tx.publicDataWrites.map((write) => write.leafSlot)),
      before[MerkleTreeId.PUBLIC_DATA_TREE]!.size,
      () => this.nextOfLatestLeaf(MerkleTreeId.PUBLIC_DATA_TREE),
    );
    if (nullifier instanceof Promise || publicData instanceof Promise)
      return Promise.all([nullifier, publicData]).then(([n, p]) => ({ nullifier: n, publicData: p }));
    return { nullifier, publicData };
  }

  /** Where a leaf of the latest block points: the next larger key and its leaf, none past the largest key. */
  private nextOfLatestLeaf(treeId: IndexedTreeId): NextOfLeaf {
    const block = this.latest;
    return async (leafIndex) => {
      const { leaf } = await this.readIndexedLeaf(treeId, block, leafIndex, false);
      return leaf.nextIndex === 0 && isZeroField(leaf.nextKey) ? undefined : [leaf.nextKey, leaf.nextIndex];
    };
  }

  private planBlock(
    blockNumber: number,
    before: readonly TreeState[],
    effects: BlockStateEffects,
    keys: PlanningKeys,
  ): BlockPlan {
    const subtreeLeaves = 2 ** this.config.txSubtreeHeight;
    const noteHashesBefore = before[MerkleTreeId.NOTE_HASH_TREE]!.size;
    const messagesBefore = before[MerkleTreeId.L1_TO_L2_MESSAGE_TREE]!.size;
    const noteHashWrites = effects.txs.flatMap((tx, t) =>
      tx.noteHashes.map((value, i) => ({ index: noteHashesBefore + t * subtreeLeaves + i, value })),
    );
    const plan: BlockPlan = {
      blockNumber,
      before,
      noteHashes: {
        writes: noteHashWrites.filter((w) => !isZeroField(w.value)),
        sizeAfter: noteHashesBefore + effects.txs.length * subtreeLeaves,
      },
      l1ToL2Messages: {
        writes: effects.l1ToL2Messages
          .map((value, i) => ({ index: messagesBefore + i, value }))
          .filter((w) => !isZeroField(w.value)),
        sizeAfter: messagesBefore + effects.l1ToL2Messages.length,
      },
      nullifiers: planNullifiers(keys.nullifier, effects.txs, before[MerkleTreeId.NULLIFIER_TREE]!.size, subtreeLeaves),
      publicData: planPublicDataWrites(
        keys.publicData,
        effects.txs.flatMap((tx) => tx.publicDataWrites),
        before[MerkleTreeId.PUBLIC_DATA_TREE]!.size,
      ),
    };
    this.checkCapacity(plan);
    return plan;
  }

  private checkCapacity(plan: BlockPlan): void {
    const sizes = [
      plan.nullifiers.sizeAfter,
      plan.noteHashes.sizeAfter,
      plan.publicData.sizeAfter,
      plan.l1ToL2Messages.sizeAfter,
      plan.blockNumber + 1,
    ];
    sizes.forEach((size, treeId) => {
      const capacity = 2 ** this.config.geometries[treeId]!.height;
      if (size > capacity)
        throw new WorldStateError(
          'WORLD_STATE_TREE_FULL',
          `tree ${treeId} has room for ${capacity} leaves, the block needs ${size}`,
          { treeId, capacity, size },
        );
    });
  }

  /** Loads every page the plan touches (one storage read per page missing from memory), then computes the trees. */
  private async draftBlock(plan: BlockPlan): Promise<BlockDraft> {
    const generation = this.generation;
    const changedLeaves: Iterable<number>[] = [
      plan.nullifiers.changes.keys(),
      plan.noteHashes.writes.map((w) => w.index),
      plan.publicData.changes.keys(),
      plan.l1ToL2Messages.writes.map((w) => w.index),
      [plan.blockNumber],
    ];
    const basedOn = plan.blockNumber - 1;
    const pageMaps = await Promise.all(
      TREE_IDS.map((treeId) =>
        this.pages[treeId]!.load(
          pagesOfPaths(this.config.geometries[treeId]!, changedLeaves[treeId]!),
          basedOn,
          plan.before[treeId]!.size,
          this.cacheGuard(basedOn),
        ),
      ),
    );
    const updates = this.computeTrees(plan, pageMaps);
    const [nullifier, noteHash, publicData, l1ToL2] = updates.map((u) => toSnapshot(u.state));
    return {
      blockNumber: plan.blockNumber,
      stateReference: {
        l1ToL2MessageTree: l1ToL2!,
        noteHashTree: noteHash!,
        nullifierTree: nullifier!,
        publicDataTree: publicData!,
      },
      lastArchive: toSnapshot(plan.before[MerkleTreeId.ARCHIVE]!),
      finish: (blockHash) => this.finishBlock(plan, updates, pageMaps[MerkleTreeId.ARCHIVE]!, blockHash, generation),
    };
  }

  private computeTrees(plan: BlockPlan, pageMaps: readonly ReadonlyMap<number, PageEntry>[]): TreeUpdate[] {
    const { geometries } = this.config;
    const tree = (treeId: MerkleTreeId) => [geometries[treeId]!, pageMaps[treeId]!, this.hasher] as const;
    const before = (treeId: MerkleTreeId) => plan.before[treeId]!;
    return [
      updateIndexed(
        'nullifier',
        ...tree(MerkleTreeId.NULLIFIER_TREE),
        plan.nullifiers,
        before(MerkleTreeId.NULLIFIER_TREE),
      ),
      updateAppendOnly(
        ...tree(MerkleTreeId.NOTE_HASH_TREE),
        plan.noteHashes.writes,
        plan.noteHashes.sizeAfter,
        before(MerkleTreeId.NOTE_HASH_TREE),
      ),
      updateIndexed(
        'publicData',
        ...tree(MerkleTreeId.PUBLIC_DATA_TREE),
        plan.publicData,
        before(MerkleTreeId.PUBLIC_DATA_TREE),
      ),
      updateAppendOnly(
        ...tree(MerkleTreeId.L1_TO_L2_MESSAGE_TREE),
        plan.l1ToL2Messages.writes,
        plan.l1ToL2Messages.sizeAfter,
        before(MerkleTreeId.L1_TO_L2_MESSAGE_TREE),
      ),
    ];
  }

  private finishBlock(
    plan: BlockPlan,
    stateUpdates: readonly TreeUpdate[],
    archivePages: ReadonlyMap<number, PageEntry>,
    blockHash: Hex,
    generation: number,
  ): PreparedBlock {
    const hash = blockHash.toLowerCase() as Hex;
    assert(isHex(hash) && hash.length === 66, 'a block hash is 32 bytes of hex');
    const archiveWrite = [{ index: plan.blockNumber, value: hash }].filter((w) => !isZeroField(w.value));
    const archive = updateAppendOnly(
      this.config.geometries[MerkleTreeId.ARCHIVE]!,
      archivePages,
      this.hasher,
      archiveWrite,
      plan.blockNumber + 1,
      plan.before[MerkleTreeId.ARCHIVE]!,
    );
    const updates = [...stateUpdates, archive];
    const trees = updates.map((u) => u.state);
    const insertedKeys = insertedKeysOf(plan);
    const keyInsertion = this.keys.insertion(insertedKeys, plan.blockNumber);
    const ops = this.blockOps(plan, updates, archiveWrite, insertedKeys, keyInsertion);
    const [nullifier, noteHash, publicData, l1ToL2] = trees.map(toSnapshot);
    const write = this.preparedWrite(
      ops,
      () => this.latest === plan.blockNumber - 1 && this.generation === generation,
      () => this.applyBlock(plan, updates, insertedKeys, keyInsertion),
    );
    return {
      ...write,
      blockNumber: plan.blockNumber,
      stateReference: {
        l1ToL2MessageTree: l1ToL2!,
        noteHashTree: noteHash!,
        nullifierTree: nullifier!,
        publicDataTree: publicData!,
      },
      archive: toSnapshot(archive.state),
    };
  }

  private blockOps(
    plan: BlockPlan,
    updates: readonly TreeUpdate[],
    archiveWrites: readonly LeafWrite[],
    insertedKeys: InsertedKeys,
    keyInsertion: KeyInsertion,
  ): StorageOperation[] {
    const n = plan.blockNumber;
    const ops: StorageOperation[] = [];
    const journal: { pages: number[][]; keys: string[] } = { pages: [], keys: [] };
    const pageKey = KEY.pagesOfBlock(n);
    updates.forEach((update, treeId) => {
      const pages: number[] = [];
      const baseVersions = update.draft.baseVersionsOfWritten;
      for (const [pageId, bytes] of update.draft.writtenPages) {
        ops.push({ type: 'put', key: pageKey(treeId, pageId), value: encodePage(bytes) });
        pages.push(pageId, baseVersions[pages.length / 2]!);
      }
      journal.pages.push(pages);
    });
    const addKey = (key: string, value: string): void => {
      ops.push({ type: 'put', key, value });
      journal.keys.push(key);
    };
    const appended: [MerkleTreeId, readonly LeafWrite[]][] = [
      [MerkleTreeId.NOTE_HASH_TREE, plan.noteHashes.writes],
      [MerkleTreeId.L1_TO_L2_MESSAGE_TREE, plan.l1ToL2Messages.writes],
      [MerkleTreeId.ARCHIVE, archiveWrites],
    ];
    for (const [treeId, writes] of appended)
      for (const w of writes) addKey(KEY.appendedValue(treeId, w.value, w.index), String(n));
    ops.push({ type: 'put', key: KEY.insertedKeys(n), value: JSON.stringify(insertedKeys) });
    for (const op of keyInsertion.ops) ops.push(op);
    const summary: BlockSummary = { trees: updates.map((u) => [u.state.root, u.state.size] as const) };
    ops.push({ type: 'put', key: KEY.summary(n), value: JSON.stringify(summary) });
    if (n > 0) ops.push({ type: 'put', key: KEY.journal(n), value: JSON.stringify(journal satisfies BlockJournal) });
    const keysInStorage = this.keys.inStorage || keyInsertion.movesToStorage;
    ops.push({
      type: 'put',
      key: KEY.meta,
      value: JSON.stringify(this.metaRecord(n, n === 0 ? 0 : this.oldest, keysInStorage)),
    });
    return ops;
  }

  private applyBlock(
    plan: BlockPlan,
    updates: readonly TreeUpdate[],
    insertedKeys: InsertedKeys,
    keyInsertion: KeyInsertion,
  ): void {
    const n = plan.blockNumber;
    updates.forEach((update, treeId) => this.pages[treeId]!.commit(update.draft.writtenPages, n));
    this.keys.applyInsertion(insertedKeys, n, keyInsertion);
    this.summaries.set(
      n,
      updates.map((u) => u.state),
    );
    this.latest = n;
  }

  private preparedWrite(ops: readonly StorageOperation[], isFresh: () => boolean, apply: () => void): PreparedWrite {
    let done = false;
    const ensureFresh = (): void => {
      if (done || !isFresh()) {
        throw new WorldStateError(
          'WORLD_STATE_DRAFT_STALE',
          'the world state moved on since this change was prepared; prepare it again',
          { latest: this.latest },
        );
      }
    };
    const finish = (): void => {
      ensureFresh();
      done = true;
      apply();
    };
    return {
      ops,
      // Writes are serialized, so the state checked before the batch is still the state after it.
      commit: (extraOps = []) =>
        this.enqueue(async () => {
          ensureFresh();
          await this.storage.batch([...ops, ...extraOps] as { type: 'put'; key: string; value: string }[]);
          finish();
        }),
      markCommitted: finish,
    };
  }

  /** Runs storage writes one at a time, in call order. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writeQueue.then(work);
    this.writeQueue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * May a page read as of `block` be cached as the latest version? Only if nothing moved since the read began. As a
   * past block's version? Only if nothing was unwound since (new blocks change no past block's pages).
   */
  private cacheGuard(block: number): PageCacheGuard {
    const generation = this.generation;
    return {
      isLatest: (readBlock) => readBlock === block && block === this.latest && generation === this.generation,
      isCurrent: () => generation === this.generation,
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Genesis, opening, clearing

  private async writeGenesis(): Promise<void> {
    assert(this.latest === -1, 'genesis goes into an empty world state');
    const heights = heightsInIdOrder(this.config.treeHeights);
    const before = heights.map((height) => ({ root: emptyRoot(height), size: 0 }));
    const empty = { writes: [], sizeAfter: 0 };
    const plan: BlockPlan = {
      blockNumber: 0,
      before,
      noteHashes: empty,
      l1ToL2Messages: empty,
      nullifiers: genesisBatch(nullifierGenesisLeaves(2 ** this.config.txSubtreeHeight)),
      publicData: genesisBatch(publicDataGenesisLeaves()),
    };
    const prepared = (await this.draftBlock(plan)).finish(this.config.genesisBlockHash);
    await this.storage.batch(prepared.ops as { type: 'put'; key: string; value: string }[]);
    prepared.markCommitted();
    this.oldest = 0;
  }

  private metaRecord(latest: number, oldest: number, keysInStorage = this.keys.inStorage): WorldStateMeta {
    return {
      format: keysInStorage ? WORLD_STATE_FORMAT_KEYS_ON_DISK : WORLD_STATE_FORMAT_VERSION,
      treeHeights: heightsInIdOrder(this.config.treeHeights),
      pageHeight: this.config.pageHeight,
      txSubtreeHeight: this.config.txSubtreeHeight,
      genesisBlockHash: this.config.genesisBlockHash,
      latestBlockNumber: latest,
      oldestBlockNumber: oldest,
    };
  }

  private checkMeta(meta: WorldStateMeta): void {
    const expected = this.metaRecord(
      meta.latestBlockNumber,
      meta.oldestBlockNumber,
      meta.format === WORLD_STATE_FORMAT_KEYS_ON_DISK,
    );
    if (meta.genesisBlockHash !== expected.genesisBlockHash) {
      throw new WorldStateError(
        'WORLD_STATE_GENESIS_MISMATCH',
        `the stored world state starts from genesis block ${meta.genesisBlockHash}, not ${expected.genesisBlockHash}`,
        {
          stored: meta.genesisBlockHash,
          expected: expected.genesisBlockHash,
        },
      );
    }
    const differs = (['format', 'treeHeights', 'pageHeight', 'txSubtreeHeight'] as const).filter(
      (k) => JSON.stringify(meta[k]) !== JSON.stringify(expected[k]),
    );
    if (differs.length > 0) {
      throw new WorldStateError(
        'WORLD_STATE_STORAGE_MISMATCH',
        `the stored world state was written with another ${differs.join(', ')}`,
        { differs },
      );
    }
  }

  /** Loads the kept blocks' tree states and the indexed trees' keys. */
  private async load(meta: WorldStateMeta): Promise<void> {
    const blocks = Array.from(
      { length: meta.latestBlockNumber - meta.oldestBlockNumber + 1 },
      (_, i) => meta.oldestBlockNumber + i,
    );
    const texts = await this.storage.getMany(blocks.map(KEY.summary));
    blocks.forEach((block, i) => {
      const text = texts[i];
      assert(text !== undefined, `the summary of kept block ${block} is stored`);
      const summary = JSON.parse(text) as BlockSummary;
      this.summaries.set(
        block,
        summary.trees.map(([root, size]) => ({ root, size })),
      );
    });
    this.latest = meta.latestBlockNumber;
    this.oldest = meta.oldestBlockNumber;
    if (meta.format === WORLD_STATE_FORMAT_KEYS_ON_DISK) {
      this.keys = new IndexedKeys(this.storage, this.config.keyIndexMemoryKeysMax, true);
      return;
    }
    await this.keys.load();
    const moves = this.keys.overBound();
    if (moves === undefined) return;
    const meta3 = JSON.stringify(this.metaRecord(this.latest, this.oldest, true));
    await this.storage.batch([...moves, { type: 'put', key: KEY.meta, value: meta3 }] as {
      type: 'put';
      key: string;
      value: string;
    }[]);
    this.keys.movedToStorage();
  }

  /**
   * Forced clear: drops every block and writes the genesis state again. Crash-safe: the store is marked as clearing
   * first, and opening a store so marked finishes the clear.
   */
  async clear(): Promise<void> {
    await this.enqueue(async () => {
      await this.storage.put(
        KEY.meta,
        JSON.stringify({ ...this.metaRecord(this.latest, this.oldest), clearing: true }),
      );
      await this.wipe();
      await this.writeGenesis();
    });
  }

  private async wipe(): Promise<void> {
    this.generation++;
    this.latest = -1;
    this.oldest = 0;
    this.summaries.clear();
    this.keys = new IndexedKeys(this.storage, this.config.keyIndexMemoryKeysMax);
    for (const store of this.pages) store.clearCache();
    this.history.clear();
    await this.storage.clear({ gte: WORLD_STATE_KEY_PREFIX, lt: KEY.meta });
    await this.storage.clear({ gt: KEY.meta, lt: WORLD_STATE_KEY_END });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Unwind and prune

  /**
   * Drops every block after `toBlock`, in one batch: the roots and lookups as of `toBlock` are exactly what they were.
   * WORLD_STATE_BLOCK_PRUNED below the oldest kept block, WORLD_STATE_BLOCK_UNKNOWN above the latest.
   */
  async prepareUnwind(toBlock: number): Promise<PreparedWrite> {
    this.checkKept(toBlock);
    const fromBlock = this.latest;
    const generation = this.generation;
    const blocks = Array.from({ length: fromBlock - toBlock }, (_, i) => fromBlock - i);
    const journals = await this.readJournals(blocks);
    const insertedKeys = await this.readInsertedKeys(blocks);
    const ops: StorageOperation[] = [];
    blocks.forEach((block, i) => {
      const journal = journals[i]!;
      const pageKey = KEY.pagesOfBlock(block);
      journal.pages.forEach((pairs, treeId) => {
        for (let p = 0; p < pairs.length; p += 2) ops.push({ type: 'del', key: pageKey(treeId, pairs[p]!) });
      });
      for (const key of journal.keys) ops.push({ type: 'del', key });
      for (const op of this.keys.unwindOps(insertedKeys[i]!)) ops.push(op);
      ops.push(
        { type: 'del', key: KEY.summary(block) },
        { type: 'del', key: KEY.journal(block) },
        { type: 'del', key: KEY.insertedKeys(block) },
      );
    });
    ops.push({ type: 'put', key: KEY.meta, value: JSON.stringify(this.metaRecord(toBlock, this.oldest)) });
    return this.preparedWrite(
      ops,
      () => this.latest === fromBlock && this.generation === generation,
      () => this.applyUnwind(toBlock, blocks, journals, insertedKeys),
    );
  }

  async unwindTo(toBlock: number): Promise<void> {
    await (await this.prepareUnwind(toBlock)).commit();
  }

  private applyUnwind(
    toBlock: number,
    blocks: readonly number[],
    journals: readonly BlockJournal[],
    insertedKeys: readonly InsertedKeys[],
  ): void {
    this.generation++;
    this.history.clear();
    journals.forEach((journal, i) => {
      journal.pages.forEach((pairs, treeId) => this.pages[treeId]!.evict(pairs.filter((_, p) => p % 2 === 0)));
      this.keys.applyUnwind(insertedKeys[i]!);
      this.summaries.delete(blocks[i]!);
    });
    this.latest = toBlock;
  }

  /**
   * Drops the history before `block`: it becomes the oldest kept block, and queries as of older blocks answer
   * WORLD_STATE_BLOCK_PRUNED. One batch per dropped block, so a crash leaves a consistent (partly pruned) store.
   */
  async pruneHistoryBefore(block: number): Promise<void> {
    await this.enqueue(async () => {
      if (block <= this.oldest) return;
      this.checkKept(block);
      for (let next = this.oldest + 1; next <= block; next++) await this.pruneOneBlock(next);
    });
  }

  /** Makes `next` (= oldest + 1) the oldest block: deletes the page versions that its own writes replaced. */
  private async pruneOneBlock(next: number): Promise<void> {
    const [journal] = await this.readJournals([next]);
    const ops: StorageOperation[] = [];
    journal!.pages.forEach((pairs, treeId) => {
      for (let p = 0; p < pairs.length; p += 2)
        if (pairs[p + 1]! >= 0) ops.push({ type: 'del', key: KEY.page(treeId, pairs[p]!, pairs[p + 1]!) });
    });
    ops.push({ type: 'del', key: KEY.journal(next) }, { type: 'del', key: KEY.summary(next - 1) });
    ops.push({ type: 'put', key: KEY.meta, value: JSON.stringify(this.metaRecord(this.latest, next)) });
    await this.storage.batch(ops as { type: 'put'; key: string; value: string }[]);
    this.summaries.delete(next - 1);
    this.oldest = next;
  }

  private async readInsertedKeys(blocks: readonly number[]): Promise<InsertedKeys[]> {
    const texts = await this.storage.getMany(blocks.map(KEY.insertedKeys));
    return texts.map((text, i) => {
      assert(text !== undefined, `the inserted keys of block ${blocks[i]} are stored`);
      return JSON.parse(text) as InsertedKeys;
    });
  }

  private async readJournals(blocks: readonly number[]): Promise<BlockJournal[]> {
    const texts = await this.storage.getMany(blocks.map(KEY.journal));
    return texts.map((text, i) => {
      assert(text !== undefined, `the journal of block ${blocks[i]} is stored`);
      return JSON.parse(text) as BlockJournal;
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Queries, as of any kept block

  getStateReference(block: number): StateReference {
    const [nullifier, noteHash, publicData, l1ToL2] = this.summaryOfKept(block).map(toSnapshot);
    return {
      l1ToL2MessageTree: l1ToL2!,
      noteHashTree: noteHash!,
      nullifierTree: nullifier!,
      publicDataTree: publicData!,
    };
  }

  getTreeSnapshot(treeId: MerkleTreeId, block: number): TreeSnapshot {
    return toSnapshot(this.summaryOfKept(block)[treeId]!);
  }

  /** Block `blockNumber`'s hash (archive leaf), as of kept block `block` (>= blockNumber). */
  async getBlockHash(block: number, blockNumber: number = block): Promise<Hex | null> {
    return this.getLeafValue(MerkleTreeId.ARCHIVE, block, BigInt(blockNumber));
  }

  /** The sibling path of any leaf slot (also an empty one) as of `block`; null outside the tree. */
  async getSiblingPath(treeId: MerkleTreeId, block: number, leafIndex: bigint): Promise<MembershipWitness | null> {
    const index = this.indexInTree(treeId, leafIndex);
    if (index === undefined) return this.read(block, async () => null);
    return this.read(block, async () => ({
      leafIndex,
      siblingPath: (await this.readLeaf(treeId, block, index, true)).siblingPath,
    }));
  }

  /** Leaf `leafIndex` (for indexed trees: the leaf hash) as of `block`; null at or past the tree's size. */
  async getLeafValue(treeId: MerkleTreeId, block: number, leafIndex: bigint): Promise<Hex | null> {
    return this.read(block, async () => {
      const index = this.indexInTree(treeId, leafIndex);
      if (index === undefined || index >= this.summaryAt(block)[treeId]!.size) return null;
      return bytesToHex((await this.readLeaf(treeId, block, index, false)).leaf);
    });
  }

  /** Leaf `leafIndex`'s preimage as of `block`; null past the tree's size or for an empty (padding) leaf. */
  async getNullifierLeafPreimage(block: number, leafIndex: bigint): Promise<NullifierLeafPreimage | null> {
    const leaf = await this.indexedLeafAt(MerkleTreeId.NULLIFIER_TREE, block, leafIndex);
    return leaf === null ? null : toNullifierPreimage(leaf);
  }

  async getPublicDataLeafPreimage(block: number, leafIndex: bigint): Promise<PublicDataLeafPreimage | null> {
    const leaf = await this.indexedLeafAt(MerkleTreeId.PUBLIC_DATA_TREE, block, leafIndex);
    return leaf === null ? null : toPublicDataPreimage(leaf);
  }

  /**
   * Where each value is in a tree as of `block`, with the block that inserted it; null for a value not there (zero is
   * the empty leaf and never found). Indexed trees are searched by key (nullifier, leaf slot); a value an
   * append-only tree holds twice is found at its first index.
   */
  async findLeafIndices(
    treeId: MerkleTreeId,
    block: number,
    values: readonly Hex[],
  ): Promise<(DataInBlock<bigint> | null)[]> {
    if (values.length > WORLD_STATE_LOOKUP_VALUES_MAX) {
      throw new WorldStateError(
        'WORLD_STATE_LOOKUP_TOO_LARGE',
        `a lookup takes at most ${WORLD_STATE_LOOKUP_VALUES_MAX} values, not ${values.length}`,
        { max: WORLD_STATE_LOOKUP_VALUES_MAX, count: values.length },
      );
    }
    const keys = values.map((value) => queryField(value));
    return this.read(block, async () => {
      const placements = await Promise.all(keys.map((key) => this.placementAt(treeId, block, key)));
      return Promise.all(
        placements.map(async (placement) => {
          if (placement === undefined) return null;
          const hash = await this.readLeaf(MerkleTreeId.ARCHIVE, block, placement.blockNumber, false);
          return {
            data: BigInt(placement.leafIndex),
            l2BlockNumber: placement.blockNumber,
            l2BlockHash: bytesToHex(hash.leaf),
          };
        }),
      );
    });
  }

  /** Membership witness of a value of an append-only tree (note hash, L1-to-L2 message, block hash). */
  async getMembershipWitnessByValue(
    treeId: MerkleTreeId,
    block: number,
    value: Hex,
  ): Promise<MembershipWitness | null> {
    assert(indexedKindOf(treeId) === undefined, 'membership by value is for append-only trees');
    const key = queryField(value);
    return this.read(block, async () => {
      const placement = await this.placementAt(treeId, block, key);
      if (placement === undefined) return null;
      const { siblingPath } = await this.readLeaf(treeId, block, placement.leafIndex, true);
      return { leafIndex: BigInt(placement.leafIndex), siblingPath };
    });
  }

  async getNullifierMembershipWitness(block: number, nullifier: Hex): Promise<NullifierMembershipWitness | null> {
    const key = queryField(nullifier);
    const found = await this.indexedWitness(MerkleTreeId.NULLIFIER_TREE, block, () =>
      this.keyAt(MerkleTreeId.NULLIFIER_TREE, block, key),
    );
    return found === null
      ? null
      : { index: found.index, leafPreimage: toNullifierPreimage(found.leaf), siblingPath: found.siblingPath };
  }

  /** The witness of the leaf just below `nullifier` as of `block`; null when the nullifier is in the tree. */
  async getLowNullifierMembershipWitness(block: number, nullifier: Hex): Promise<NullifierMembershipWitness | null> {
    const key = queryField(nullifier);
    const treeId = MerkleTreeId.NULLIFIER_TREE;
    const found = await this.indexedWitness(treeId, block, () =>
      thenMaybe(this.keyAt(treeId, block, key), (placement) =>
        placement === undefined ? this.lowKeyAt(treeId, block, key) : undefined,
      ),
    );
    return found === null
      ? null
      : { index: found.index, leafPreimage: toNullifierPreimage(found.leaf), siblingPath: found.siblingPath };
  }

  /** The witness of `leafSlot`'s leaf as of `block` when present, else of its low leaf. */
  async getPublicDataWitness(block: number, leafSlot: Hex): Promise<PublicDataWitness> {
    const key = queryField(leafSlot);
    const treeId = MerkleTreeId.PUBLIC_DATA_TREE;
    const found = await this.indexedWitness(treeId, block, () =>
      thenMaybe(this.keyAt(treeId, block, key), (placement) => placement ?? this.lowKeyAt(treeId, block, key)),
    );
    assert(found !== null, 'the genesis leaf is every slot’s low leaf at worst');
    return { index: found.index, leafPreimage: toPublicDataPreimage(found.leaf), siblingPath: found.siblingPath };
  }

  /** The value of a public storage slot as of `block`, zero when never written. */
  async getPublicStorageAt(block: number, contractAddress: Hex, slot: Hex): Promise<Hex> {
    return this.getPublicDataValue(block, publicDataLeafSlot(queryField(contractAddress), queryField(slot)));
  }

  async getPublicDataValue(block: number, leafSlot: Hex): Promise<Hex> {
    const key = queryField(leafSlot);
    return this.read(block, async () => {
      const located = this.keyAt(MerkleTreeId.PUBLIC_DATA_TREE, block, key);
      const placement = located instanceof Promise ? await located : located;
      if (placement === undefined) return bytesToHex(new Uint8Array(32));
      return (await this.readIndexedLeaf(MerkleTreeId.PUBLIC_DATA_TREE, block, placement.leafIndex, false)).leaf.value;
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Reading helpers

  /**
   * Runs a read as of `block`: refused for a block not kept, redone if an unwind or clear overtook it (their deletes
   * could have mixed two versions), and refused after it if a prune overtook it.
   */
  private async read<T>(block: number, query: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      this.checkKept(block);
      const generation = this.generation;
      const result = await query().catch((error: unknown) => refuseIfGone(() => this.checkKept(block), error));
      this.checkKept(block);
      if (generation === this.generation) return result;
      if (attempt >= WORLD_STATE_READ_ATTEMPTS_MAX) {
        throw new WorldStateError(
          'WORLD_STATE_READ_INTERRUPTED',
          `a read as of block ${block} was overtaken ${attempt} times by unwinds; retry`,
          { block, attempt },
        );
      }
    }
  }

  private checkKept(block: number): void {
    if (!Number.isSafeInteger(block) || block < 0 || block > this.latest) {
      throw new WorldStateError(
        'WORLD_STATE_BLOCK_UNKNOWN',
        `block ${block} is not in the world state (latest: ${this.latest})`,
        { block, latest: this.latest },
      );
    }
    if (block < this.oldest) {
      throw new WorldStateError(
        'WORLD_STATE_BLOCK_PRUNED',
        `the state of block ${block} is no longer kept (oldest kept: ${this.oldest})`,
        { block, oldest: this.oldest },
      );
    }
  }

  private summaryOfKept(block: number): readonly TreeState[] {
    this.checkKept(block);
    return this.summaryAt(block);
  }

  private summaryAt(block: number): readonly TreeState[] {
    const summary = this.summaries.get(block);
    assert(summary !== undefined, `block ${block} has a summary`);
    return summary;
  }

  private indexInTree(treeId: MerkleTreeId, leafIndex: bigint): number | undefined {
    if (typeof leafIndex !== 'bigint')
      throw new WorldStateError('WORLD_STATE_QUERY_INVALID', 'a leaf index is a bigint', {});
    return leafIndex >= 0n && leafIndex < 2n ** BigInt(this.config.geometries[treeId]!.height)
      ? Number(leafIndex)
      : undefined;
  }

  private async readLeaf(treeId: MerkleTreeId, block: number, index: number, withPath: boolean): Promise<LeafRead> {
    const geometry = this.config.geometries[treeId]!;
    const refs: PageRef[] = withPath ? pathPages(geometry, index) : [pathPages(geometry, index)[0]!];
    const pages = await this.pages[treeId]!.load(
      refs,
      block,
      this.summaryAt(block)[treeId]!.size,
      this.cacheGuard(block),
    );
    const pageOf = (pageId: number): Uint8Array => pages.get(pageId)!.bytes;
    return {
      leaf: leafFromPages(geometry, index, pageOf),
      preimage: geometry.preimageBytes > 0 ? preimageFromPages(geometry, index, pageOf) : undefined,
      siblingPath: withPath ? siblingPathFromPages(geometry, index, pageOf).map(bytesToHex) : [],
    };
  }

  private async readIndexedLeaf(treeId: MerkleTreeId, block: number, index: number, withPath: boolean) {
    const read = await this.readLeaf(treeId, block, index, withPath);
    return { leaf: decodePreimage(indexedKindOf(treeId)!, read.preimage!), siblingPath: read.siblingPath };
  }

  private async indexedLeafAt(treeId: MerkleTreeId, block: number, leafIndex: bigint): Promise<IndexedLeaf | null> {
    return this.read(block, async () => {
      const index = this.indexInTree(treeId, leafIndex);
      if (index === undefined || index >= this.summaryAt(block)[treeId]!.size) return null;
      const read = await this.readLeaf(treeId, block, index, false);
      if (read.leaf.every((byte) => byte === 0)) return null;
      return decodePreimage(indexedKindOf(treeId)!, read.preimage!);
    });
  }

  private async indexedWitness(
    treeId: MerkleTreeId,
    block: number,
    locate: () => MaybePromise<KeyPlacement | undefined>,
  ) {
    return this.read(block, async () => {
      const located = locate();
      const placement = located instanceof Promise ? await located : located;
      if (placement === undefined) return null;
      const { leaf, siblingPath } = await this.readIndexedLeaf(treeId, block, placement.leafIndex, true);
      return { index: BigInt(placement.leafIndex), leaf, siblingPath };
    });
  }

  /** The key's placement if the tree held it as of `block` (the index only grows, so later keys sit past its size). */
  private keyAt(treeId: IndexedTreeId, block: number, key: Hex): MaybePromise<KeyPlacement | undefined> {
    return this.keys.find(treeId, key, this.summaryAt(block)[treeId]!.size);
  }

  /** The largest key below `key` that the tree held as of `block`. */
  private lowKeyAt(treeId: IndexedTreeId, block: number, key: Hex): MaybePromise<KeyPlacement | undefined> {
    return this.keys.below(treeId, key, this.summaryAt(block)[treeId]!.size);
  }

  private async placementAt(treeId: MerkleTreeId, block: number, value: Hex): Promise<KeyPlacement | undefined> {
    if (indexedKindOf(treeId) !== undefined) return this.keyAt(treeId as IndexedTreeId, block, value);
    if (isZeroField(value)) return undefined;
    const prefix = KEY.appendedValuePrefix(treeId, value);
    const [first] = await this.storage.iterator({ gte: prefix, lt: `${prefix.slice(0, -1)};`, limit: 1 }).all();
    if (first === undefined) return undefined;
    const leafIndex = appendedValueLeafIndex(first[0]);
    return leafIndex < this.summaryAt(block)[treeId]!.size ? { leafIndex, blockNumber: Number(first[1]) } : undefined;
  }
}

/** A query's field argument as lowercase 32-byte hex; WORLD_STATE_QUERY_INVALID otherwise. */
function queryField(value: Hex): Hex {
  if (!isHex(value) || value.length !== 66)
    throw new WorldStateError('WORLD_STATE_QUERY_INVALID', `not a 32-byte field: ${String(value).slice(0, 80)}`, {});
  return value.toLowerCase() as Hex;
}

/** The keys a block plan inserts into the indexed trees, as its per-block record keeps them. */
function insertedKeysOf(plan: BlockPlan): InsertedKeys {
  const inserted = (batch: IndexedBatch) => batch.inserted.map(({ key, leafIndex }) => [key, leafIndex] as const);
  return { nullifier: inserted(plan.nullifiers), publicData: inserted(plan.publicData) };
}

/** Genesis leaves as a batch of insertions. */
function genesisBatch(leaves: readonly IndexedLeaf[]): IndexedBatch {
  const changes = new Map<number, IndexedLeafChange>();
  leaves.forEach((leaf, index) =>
    changes.set(index, {
      index,
      key: leaf.key,
      inserted: true,
      value: leaf.value,
      next: { key: leaf.nextKey, index: leaf.nextIndex },
    }),
  );
  return {
    changes,
    inserted: leaves.map((leaf, leafIndex) => ({ key: leaf.key, leafIndex })),
    sizeAfter: leaves.length,
  };
}

/** Rethrows a read's failure, unless its block went away meanwhile: then `checkKept` throws why (unknown, pruned). */
function refuseIfGone(checkKept: () => void, error: unknown): never {
  checkKept();
  throw error;
}
