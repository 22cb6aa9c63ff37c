/**
 * The node's transactions: the pool (core/txPool, pure) bound to storage and to the chain. Every change of the pool
 * is decided on the current pool, written in one storage batch, then applied, one at a time (a queue). After each
 * block the pool drops what the block made stale; after a prune the txs of the pruned blocks come back.
 */
import type { ChainEvent, GasFees, Hex, L1RollupConstants } from '../../spec/chain.js';
import type { AllowListEntry } from '../../spec/config/allowList.js';
import { MerkleTreeId, TX_BYTES_MAX, TX_DA_GAS_LIMIT_MAX, TX_L2_GAS_LIMIT_MAX } from '../../spec/constants.js';
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
  type LoggerPort,
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
}

/**
 * The node's tx pool over its ports: storage, the clock, and the verifier of tx proofs (the commitment verifier when
 * the ports give none). Loads the stored pool and follows the chain from now on (NodeTxPool.open).
 */
export function openNodeTxPool(
  ports: Pick<NodePorts, 'storage' | 'clock' | 'verifier'>,
  options: Pick<NodeTxPoolDeps, 'chain' | 'constants' | 'logger' | 'settings' | 'contractClassOf'>,
): Promise<NodeTxPool> {
  return NodeTxPool.open({
    ...options,
    storage: ports.storage,
    clock: ports.clock,
    verifier: ports.verifier ?? commitmentVerifier,
  });
}

/** What the pool reports of its changes (logs, tests, the simulator's checkers). */
export type TxPoolActivity =
  | { readonly kind: 'accepted'; readonly txHash: Hex; readonly removed: readonly TxRemoval[] }
  | { readonly kind: 'removed'; readonly removed: readonly TxRemoval[] }
  | { readonly kind: 'returned'; readonly txHashes: readonly Hex[] };

export class NodeTxPool {
  private queue: Promise<unknown> = Promise.resolve();
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

  /** Validates the tx and admits it: INVALID_PARAMS with every reason, or the pool's rejection (-32003). */
  sendTx(tx: TxValue): Promise<void> {
    return this.enqueue(async () => {
      // The pool's balance walk decides balance questions (with the payer's other pending txs), so validation skips it.
      const validation = await this.validate(tx, { skipBalance: true });
      if (!validation.valid) {
        throw new NodeError('INVALID_PARAMS', `the tx is invalid: ${validation.reasons.join('; ')}`, {
          reasons: [...validation.reasons],
        });
      }
      const decision = decideAdmission(this.pool, tx, {
        feePayerBalance: await this.feePayerBalance(tx.feePayer),
        priceBumpPercentage: this.deps.settings().priceBumpPercentage,
      });
      if (decision.kind === 'rejected') throw txRejectedError(decision.rejection);
      if (decision.kind === 'alreadyPooled') return;
      await this.commit(decision.change);
      this.deps.logger.info('tx accepted', { txHash: tx.txHash, replaced: decision.removed.length });
      this.emit({ kind: 'accepted', txHash: decision.txHash, removed: decision.removed });
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
