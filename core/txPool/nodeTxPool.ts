/**
 * The node's transactions: the pool (core/txPool, pure) bound to storage and to the chain. Every change of the pool
 * is decided on the current pool, written in one storage batch, then applied, one at a time (a queue). After each
 * block the pool drops what the block made stale; after a prune the txs of the pruned blocks come back.
 *
 * Txs travel between pools by gossip: one admitted from the node's own RPC is published ({kind: 'tx'}); one heard
 * from a peer goes through the same validation and admission and is answered with a verdict (`receiveGossipTx`),
 * never published again (the network forwards what its receivers accept).
 */
import type { ChainEvent, GasFees, Hex, L1RollupConstants } from '../../spec/chain.js';
import type { AllowListEntry } from '../../spec/config/allowList.js';
import { MerkleTreeId, TX_BYTES_MAX, TX_DA_GAS_LIMIT_MAX, TX_L2_GAS_LIMIT_MAX } from '../../spec/constants.js';
import { CodecError } from '../../spec/codec/bytes.js';
import { GOSSIP_TXS_AWAITING_VALIDATION_MAX } from '../../spec/p2p/constants.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { feePayerBalanceSlot } from '../../spec/vm/storageSlots.js';
import type { TxValue } from '../../spec/wire/tx.js';
import type { Chain } from '../chain/chain.js';
import { createTimetable } from '../chain/timetable.js';
import { NodeError } from '../errors.js';
import { feeFloor, nextGasFees } from '../fees/minFees.js';
import {
  batchWithoutFlush,
  type ClockPort,
  type GossipVerdict,
  type LoggerPort,
  type MetricsPort,
  type NetworkPort,
  type NodePorts,
  type StoragePort,
  type VerifierPort,
} from '../ports.js';
import { decideAdmission } from './admitTx.js';
import { decideAfterBlocksAdded, type PoolConditions } from './poolMaintenance.js';
import { decideAfterChainPruned } from './pruneReturn.js';
import { TxPool, type TxPoolChange } from './txPool.js';
import { txRejectedError } from './txRejection.js';
import { loadTxPool, txPoolBatchOps } from './txPoolStore.js';
import type { TxRemoval } from './txRemoval.js';
import {
  validateTx,
  type TxValidationContext,
  type TxValidationOptions,
  type TxValidationResult,
} from '../validation/txValidator.js';
import { commitmentVerifier, verifyTxProof } from '../verifier/commitmentVerifier.js';
import { archivedAbove, archiveOps, archiveReleaseOps, minedAboveRange, type ArchiveOp } from './minedTxArchive.js';
import { lastFeeBasis } from '../fees/feeBasis.js';

export interface TxPoolSettings {
  readonly priceBumpPercentage: number;
  readonly capacity: number;
  readonly setupAllowList: readonly AllowListEntry[];
}

export interface NodeTxPoolDeps {
  readonly chain: Chain;
  readonly storage: StoragePort;
  readonly constants: L1RollupConstants;
  readonly clock: ClockPort;
  readonly verifier: VerifierPort;
  readonly logger: LoggerPort;
  readonly settings: () => TxPoolSettings;
  /** The class of a published contract instance as of the latest block. */
  readonly contractClassOf: (address: Hex) => Promise<Hex | undefined>;
  /** Where txs admitted from the node's own RPC are published; absent: the node has no network. */
  readonly network?: Pick<NetworkPort, 'publish'>;
  /** Told of every tx the pool refuses; absent: nothing is counted. */
  readonly metrics?: MetricsPort;
}

/**
 * The node's tx pool over its ports: storage, the clock, and the verifier of tx proofs (the commitment verifier when
 * the ports give none). Loads the stored pool and follows the chain from now on (NodeTxPool.open).
 */
export function openNodeTxPool(
  ports: Pick<NodePorts, 'storage' | 'clock' | 'verifier' | 'network' | 'metrics'>,
  options: Pick<NodeTxPoolDeps, 'chain' | 'constants' | 'logger' | 'settings' | 'contractClassOf'>,
): Promise<NodeTxPool> {
  return NodeTxPool.open({
    ...options,
    storage: ports.storage,
    clock: ports.clock,
    verifier: ports.verifier ?? commitmentVerifier,
    ...(ports.network ? { network: ports.network } : {}),
    ...(ports.metrics ? { metrics: ports.metrics } : {}),
  });
}

/** The code a refused tx is counted under (MetricsPort) when it failed validation rather than the pool's rules. */
export const TX_INVALID_METRICS_CODE = 'INVALID_TX';

/** What the pool reports of its changes (logs, tests, the simulator's checkers). */
export type TxPoolActivity =
  | { readonly kind: 'accepted'; readonly txHash: Hex; readonly removed: readonly TxRemoval[] }
  | { readonly kind: 'removed'; readonly removed: readonly TxRemoval[] }
  | { readonly kind: 'returned'; readonly txHashes: readonly Hex[] };

export class NodeTxPool {
  private queue: Promise<unknown> = Promise.resolve();
  /** Gossiped txs wait here, apart from `queue`, and enter it one at a time (GOSSIP_TXS_AWAITING_VALIDATION_MAX). */
  private gossipLane: Promise<unknown> = Promise.resolve();
  private gossipTxsWaiting = 0;
  private readonly listeners: ((activity: TxPoolActivity) => void)[] = [];

  private constructor(
    private readonly deps: NodeTxPoolDeps,
    private pool: TxPool,
  ) {}

  /** Loads the pool kept in storage (trimming it to the configured capacity) and follows the chain from now on. */
  static async open(deps: NodeTxPoolDeps): Promise<NodeTxPool> {
    const loaded = await loadTxPool(deps.storage, deps.settings().capacity);
    if (loaded.ops.length > 0) await deps.storage.batch([...loaded.ops]);
    const txPool = new NodeTxPool(deps, loaded.pool);
    deps.chain.onEvent((event) =>
      txPool.enqueue(() => txPool.followChain(event)).catch((error: unknown) => txPool.logFault(error)),
    );
    return txPool;
  }

  get current(): TxPool {
    return this.pool;
  }

  onActivity(listener: (activity: TxPoolActivity) => void): void {
    this.listeners.push(listener);
  }

  private emit(activity: TxPoolActivity): void {
    for (const listener of this.listeners) listener(activity);
  }

  private logFault(error: unknown): void {
    this.deps.logger.error('tx pool maintenance failed', {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes a pool change without a disk flush: a machine crash may lose the latest admissions (their senders resend;
   * a mined tx left in a reloaded pool is dropped by the next block's maintenance), which is the price of not paying
   * a flush per submitted tx. A process crash loses nothing.
   */
  private async commit(change: TxPoolChange, extraOps: readonly ArchiveOp[] = []): Promise<void> {
    const ops = [...txPoolBatchOps(change), ...extraOps];
    if (ops.length > 0) await batchWithoutFlush(this.deps.storage, ops);
    this.pool.apply(change);
  }

  /**
   * A forced rollback's reset: empties the pending pool and its database, and forgets the mined txs of the blocks
   * above `keptBlockNumber` (the ones the rollback removes; their txs are not returned). The mined txs of the blocks
   * that stay are kept, so that a later prune of those blocks still sends their txs back to the pool.
   */
  clear(keptBlockNumber: number): Promise<void> {
    return this.enqueue(async () => {
      await this.deps.storage.clear({ gte: 'txPool:', lt: 'txPool;' });
      await this.deps.storage.clear(minedAboveRange(keptBlockNumber));
      this.pool = TxPool.empty(this.deps.settings().capacity);
      this.deps.logger.warn('tx pool cleared');
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Submission and validation

  /**
   * Validates a tx from the node's own RPC and admits it: INVALID_PARAMS with every reason, or the pool's rejection
   * (-32003). A newly admitted tx is published to the node's peers.
   */
  async sendTx(tx: TxValue): Promise<void> {
    const admitted = await this.enqueue(async () => {
      // The pool's balance walk decides balance questions (with the payer's other pending txs), so validation skips it.
      const validation = await this.validate(tx, { skipBalance: true });
      if (!validation.valid) {
        this.deps.metrics?.report({ kind: 'txRejected', code: TX_INVALID_METRICS_CODE });
        throw new NodeError('INVALID_PARAMS', `the tx is invalid: ${validation.reasons.join('; ')}`, {
          reasons: [...validation.reasons],
        });
      }
      const decision = await this.admit(tx);
      if (decision.kind === 'rejected') throw txRejectedError(decision.rejection);
      return decision.kind === 'accepted';
    });
    if (admitted) this.deps.network?.publish({ kind: 'tx', tx });
  }

  /**
   * A tx a peer gossiped, validated and admitted as sendTx does, answered with its gossip verdict and never thrown:
   * `accept` when admitted; `ignore` when already pooled, refused by the pool's policy (full, the bump, the payer's
   * balance), failing only on what time or this node's view decides (expired, below the current minimum fees, an
   * anchor or a spent nullifier this node sees otherwise), or when GOSSIP_TXS_AWAITING_VALIDATION_MAX txs already
   * wait; `reject` when the tx is invalid whatever the time (its hash, size, chain, gas limits, setup calls, proof).
   */
  receiveGossipTx(tx: TxValue): Promise<GossipVerdict> {
    if (this.gossipTxsWaiting >= GOSSIP_TXS_AWAITING_VALIDATION_MAX) return Promise.resolve('ignore');
    this.gossipTxsWaiting++;
    const turn = this.gossipLane.then(() => this.enqueue(() => this.admitGossipTx(tx)));
    this.gossipLane = turn.catch(() => undefined);
    return turn
      .catch((error: unknown): GossipVerdict => {
        this.deps.logger.warn('gossiped tx not processed', { txHash: String(tx.txHash), error: String(error) });
        return error instanceof CodecError ? 'reject' : 'ignore';
      })
      .finally(() => this.gossipTxsWaiting--);
  }

  private async admitGossipTx(tx: TxValue): Promise<GossipVerdict> {
    if (this.pool.has(tx.txHash)) return 'ignore';
    const context = await this.validationContext(true);
    const timeless = await validateTx(
      tx,
      {
        ...context,
        nextSlotTimestamp: 0n,
        isAnchorKept: async () => true,
        nullifiersExist: async (nullifiers) => nullifiers.map(() => false),
      },
      { skipFeeEnforcement: true },
    );
    if (!timeless.valid) {
      this.deps.logger.debug('gossiped tx rejected', { txHash: tx.txHash, reasons: timeless.reasons.join('; ') });
      return 'reject';
    }
    // The proof verified above; the rest depends on time and on this node's chain.
    const timely = await validateTx(tx, { ...context, verifyProof: async () => true });
    if (!timely.valid) return 'ignore';
    const decision = await this.admit(tx);
    return decision.kind === 'accepted' ? 'accept' : 'ignore';
  }

  /** Decides admission of a validated tx on the current pool and applies an acceptance (inside the queue). */
  private async admit(tx: TxValue): Promise<ReturnType<typeof decideAdmission>> {
    const decision = decideAdmission(this.pool, tx, {
      feePayerBalance: await this.feePayerBalance(tx.feePayer),
      priceBumpPercentage: this.deps.settings().priceBumpPercentage,
    });
    if (decision.kind === 'rejected') this.deps.metrics?.report({ kind: 'txRejected', code: decision.rejection.code });
    if (decision.kind !== 'accepted') return decision;
    await this.commit(decision.change);
    this.deps.logger.info('tx accepted', { txHash: tx.txHash, replaced: decision.removed.length });
    this.emit({ kind: 'accepted', txHash: decision.txHash, removed: decision.removed });
    return decision;
  }

  /** Answers the network's tx gossip (other kinds: `ignore`) until the returned function is called. */
  subscribeToGossip(network: Pick<NetworkPort, 'subscribe'>): () => void {
    return network.subscribe((message) => (message.kind === 'tx' ? this.receiveGossipTx(message.tx) : 'ignore'));
  }

  /** The pooled txs among `hashes`, at most one per hash (what a peer's txs-by-hash request is answered with). */
  pooledTxs(hashes: readonly Hex[]): TxValue[] {
    const found = new Map<Hex, TxValue>();
    for (const hash of hashes) {
      const tx = this.pool.get(hash)?.tx;
      if (tx !== undefined) found.set(tx.txHash, tx);
    }
    return [...found.values()];
  }

  /**
   * Keeps txs of a block this node followed from a peer's proposal without holding them (fetched from the peer) the
   * way it keeps the mined txs of its pool (minedTxArchive.ts), so that a prune of the block sends them to the pool.
   * Only txs the block mines and whose proof verifies are kept, and only while the block still stands; returns the
   * hashes of those refused for their proof (the peer that sent them is to blame).
   */
  holdMinedTxs(blockNumber: number, blockHash: Hex, txs: readonly TxValue[]): Promise<Hex[]> {
    return this.enqueue(async () => {
      const block = await this.deps.chain.store.getBlock(blockNumber);
      if (block?.hash !== blockHash || this.deps.chain.tips.proposed.number < blockNumber) return [];
      const mined = new Set(block.body.txEffects.map((effect) => effect.txHash.toLowerCase()));
      const kept: TxValue[] = [];
      const badProofs: Hex[] = [];
      for (const tx of txs) {
        if (!mined.has(tx.txHash.toLowerCase())) continue;
        if (await verifyTxProof(this.deps.verifier, tx)) kept.push(tx);
        else badProofs.push(tx.txHash);
      }
      if (kept.length > 0) await batchWithoutFlush(this.deps.storage, archiveOps(blockNumber, kept));
      return badProofs;
    });
  }

  setupAllowList(): readonly AllowListEntry[] {
    return this.deps.settings().setupAllowList;
  }

  isValidTx(tx: TxValue, options: TxValidationOptions): Promise<TxValidationResult> {
    return this.validate(tx, options);
  }

  private async validate(
    tx: TxValue,
    options: TxValidationOptions & { readonly skipBalance?: boolean },
  ): Promise<TxValidationResult> {
    const context = await this.validationContext(options.skipBalance === true);
    return validateTx(tx, context, options);
  }

  /** Unix seconds of the next slot's start, by the node's clock. */
  nextSlotTimestamp(): bigint {
    const timetable = createTimetable(this.deps.constants);
    const slot = timetable.slotAt(BigInt(Math.floor(this.deps.clock.now() / 1000)));
    return timetable.slotStartSeconds(Math.max(0, slot + 1));
  }

  async currentMinFees(): Promise<GasFees> {
    const floor = feeFloor(this.deps.constants.ethPerFeeAsset);
    return nextGasFees(await lastFeeBasis(this.deps.chain, floor), floor);
  }

  private async validationContext(skipBalance: boolean): Promise<TxValidationContext> {
    const { chain, constants } = this.deps;
    const worldState = chain.worldState;
    return {
      chainId: constants.l1ChainId,
      rollupVersion: constants.rollupVersion,
      nextSlotTimestamp: this.nextSlotTimestamp(),
      txGasLimitsMax: { daGas: TX_DA_GAS_LIMIT_MAX, l2Gas: TX_L2_GAS_LIMIT_MAX },
      minFeesPerGas: await this.currentMinFees(),
      txBytesMax: TX_BYTES_MAX,
      setupAllowList: this.deps.settings().setupAllowList,
      isAnchorKept: async (hash) => {
        const n = await chain.store.getBlockNumberByHash(hash);
        return n !== undefined && n >= worldState.oldestBlockNumber && n <= worldState.latestBlockNumber;
      },
      nullifiersExist: async (nullifiers) =>
        (await worldState.findLeafIndices(MerkleTreeId.NULLIFIER_TREE, worldState.latestBlockNumber, nullifiers)).map(
          (found) => found !== null,
        ),
      feePayerBalance: async (payer) => (skipBalance ? BigInt(2) ** BigInt(255) : this.feePayerBalance(payer)),
      contractClassOf: this.deps.contractClassOf,
      verifyProof: (tx) => verifyTxProof(this.deps.verifier, tx),
    };
  }

  /** The payer's fee-asset balance as of the latest block. */
  async feePayerBalance(payer: Hex): Promise<bigint> {
    const worldState = this.deps.chain.worldState;
    const slot = feePayerBalanceSlot(PROTOCOL_CONTRACT_ADDRESSES.feeAsset, payer);
    return BigInt(await worldState.getPublicDataValue(worldState.latestBlockNumber, slot));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Following the chain

  private async followChain(event: ChainEvent): Promise<void> {
    switch (event.type) {
      case 'blocksAdded':
        return this.afterBlocksAdded(event.blocks);
      case 'chainPruned':
        return this.afterPrune(event.toBlock.number);
      case 'chainFinalized':
        return this.afterFinalized(event.block.number);
      case 'chainCheckpointed':
      case 'chainProven':
        return;
    }
  }

  /** The pool's conditions now; balances of every pooled payer and of `extraPayers` (txs coming back). */
  private async conditions(
    extra: Partial<PoolConditions> = {},
    extraPayers: readonly Hex[] = [],
  ): Promise<PoolConditions> {
    const balances = new Map<Hex, bigint>();
    for (const payer of [...this.pool.feePayers(), ...extraPayers]) {
      if (!balances.has(payer)) balances.set(payer, await this.feePayerBalance(payer));
    }
    return {
      nextSlotTimestamp: this.nextSlotTimestamp(),
      minFeesPerGas: await this.currentMinFees(),
      unavailableAnchorBlockHashes: new Set(),
      feePayerBalances: balances,
      ...extra,
    };
  }

  private async afterBlocksAdded(blocks: Extract<ChainEvent, { type: 'blocksAdded' }>['blocks']): Promise<void> {
    const minedTxHashes = blocks.flatMap((block) =>
      block.body.txEffects.map((effect) => effect.txHash.toLowerCase() as Hex),
    );
    const minedNullifiers = new Set(
      blocks.flatMap((block) =>
        block.body.txEffects.flatMap((effect) => effect.nullifiers.map((n) => n.toLowerCase() as Hex)),
      ),
    );
    const archive = blocks.flatMap((block) => {
      const pooled = block.body.txEffects
        .map((effect) => this.pool.get(effect.txHash)?.tx)
        .filter((tx): tx is TxValue => tx !== undefined);
      return archiveOps(block.header.globalVariables.blockNumber, pooled);
    });
    const outcome = decideAfterBlocksAdded(this.pool, { ...(await this.conditions()), minedTxHashes, minedNullifiers });
    await this.commit(outcome.change, archive);
    if (outcome.removed.length > 0) this.emit({ kind: 'removed', removed: outcome.removed });
  }

  private async afterPrune(toBlock: number): Promise<void> {
    const { txs, ops } = await archivedAbove(this.deps.storage, toBlock);
    const unavailable = await this.prunedAnchors(toBlock, txs);
    const payers = txs.map((tx) => tx.feePayer);
    const outcome = decideAfterChainPruned(this.pool, {
      ...(await this.conditions({ unavailableAnchorBlockHashes: unavailable }, payers)),
      returningTxs: txs,
    });
    await this.commit(outcome.change, ops);
    if (outcome.returnedTxHashes.length > 0) this.emit({ kind: 'returned', txHashes: outcome.returnedTxHashes });
    const removed = [...outcome.removed, ...outcome.notReturned];
    if (removed.length > 0) this.emit({ kind: 'removed', removed });
  }

  /**
   * Anchors of pooled and returning txs that no longer name a block of the chain (the prune removed them): a tx of a
   * pruned block may anchor to an earlier block of the same prune, and must not come back.
   */
  private async prunedAnchors(toBlock: number, returning: readonly TxValue[]): Promise<Set<Hex>> {
    const gone = new Set<Hex>();
    const anchors = new Set([
      ...this.pool.ordered().map((pooled) => pooled.tx.anchorBlockHash),
      ...returning.map((tx) => tx.anchorBlockHash),
    ]);
    for (const anchor of anchors) {
      const n = await this.deps.chain.store.getBlockNumberByHash(anchor);
      if (n === undefined || n > toBlock) gone.add(anchor);
    }
    return gone;
  }

  private async afterFinalized(blockNumber: number): Promise<void> {
    const ops = await archiveReleaseOps(this.deps.storage, blockNumber);
    if (ops.length > 0) await this.deps.storage.batch([...ops]);
  }
}
