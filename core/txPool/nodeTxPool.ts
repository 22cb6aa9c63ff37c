/**
 * The node's transactions: the pool (core/txPool, pure) bound to storage and to the chain. Every change of the pool
 * is decided on the current pool, written in one storage batch, then applied, one at a time (a queue). After each
 * block the pool drops what the block made stale; after a prune the txs of the pruned blocks come back.
 *
 * svc_sendTx admissions are validated as they arrive, outside the queue (validation only reads the chain), and take
 * their turn in it in arrival order, in groups: the admissions that arrive while the queue is busy (a write in
 * flight) form the next group, decided one after another on the pool as each decision leaves it, written in one
 * batch (group commit), then answered. A tx validated against a chain that changed before its turn (a chain event in
 * between) is validated again in its turn, so every decision is the one a validation in the queue would have made.
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
import { decideAdmission, type AdmissionDecision } from './admitTx.js';
import { decideAfterBlocksAdded, type PoolConditions } from './poolMaintenance.js';
import { decideAfterChainPruned } from './pruneReturn.js';
import { TxPool, type TxPoolChange } from './txPool.js';
import { txRejectedError } from './txRejection.js';
import { loadTxPool, txPoolBatchOps, txPoolGroupBatchOps } from './txPoolStore.js';
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

/**
 * svc_sendTx calls being validated or waiting for their turn, at most (bounds the memory they hold: each holds its
 * tx, at most TX_BYTES_MAX); one more is refused with LIMIT_EXCEEDED.
 */
export const SEND_TX_ADMISSIONS_IN_FLIGHT_MAX = 256;

/** Anchor block numbers NodeTxPool keeps between chain events, at most (a bound on memory). */
const ANCHOR_NUMBERS_CACHED_MAX = 1_024;

/** Fee payers' balance slots NodeTxPool keeps, at most (a bound on memory: about 200 bytes each). */
const FEE_PAYER_SLOTS_CACHED_MAX = 16_384;

/** What a sendTx admission learned before its turn: its validation and its payer's balance, and as of which chain. */
interface PreparedAdmission {
  readonly chainRevision: number;
  readonly validation: TxValidationResult;
  readonly feePayerBalance: bigint;
}

type AcceptedAdmission = Extract<AdmissionDecision, { kind: 'accepted' }>;

interface SendTxAdmission {
  readonly tx: TxValue;
  readonly prepared: Promise<PreparedAdmission>;
  /** Resolves with whether the tx was newly admitted (false: it was already pooled). */
  readonly answer: (admitted: boolean) => void;
  readonly fail: (error: unknown) => void;
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
  /** Counts chain events: a sendTx validation made under another count is redone in the tx's turn. */
  private chainRevision = 0;
  /** The sendTx group queued and not yet started, which new admissions join; any other queued work closes it. */
  private openGroup: SendTxAdmission[] | undefined;
  private sendTxAdmissionsInFlight = 0;
  /**
   * Block numbers of anchor block hashes found in the chain store, forgotten at every chain event (a prune may
   * remove a hash): most txs name one of a few recent blocks, and a store read per tx was sendTx's largest cost.
   */
  private readonly anchorNumbers = new Map<Hex, number>();
  /** Balance slots by fee payer (a hash each), read for every admission and for every pooled payer after a block. */
  private readonly feePayerSlots = new Map<Hex, Hex>();
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
    deps.chain.onEvent((event) => {
      txPool.chainRevision++;
      txPool.anchorNumbers.clear();
      txPool.enqueue(() => txPool.followChain(event)).catch((error: unknown) => txPool.logFault(error));
    });
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
    this.openGroup = undefined;
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
    this.chainRevision++;
    this.anchorNumbers.clear();
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
    if (this.sendTxAdmissionsInFlight >= SEND_TX_ADMISSIONS_IN_FLIGHT_MAX) {
      const max = SEND_TX_ADMISSIONS_IN_FLIGHT_MAX;
      throw new NodeError(
        'LIMIT_EXCEEDED',
        `the node is already admitting ${max} txs, its limit: send again once earlier calls are answered`,
        { limit: 'sendTxAdmissionsInFlightMax', value: max, requested: max + 1 },
      );
    }
    this.sendTxAdmissionsInFlight++;
    try {
      if (await this.queueSendTx(tx)) this.deps.network?.publish({ kind: 'tx', tx });
    } finally {
      this.sendTxAdmissionsInFlight--;
    }
  }

  /** Starts the tx's validation and queues its admission in the open group, or in a new one. */
  private queueSendTx(tx: TxValue): Promise<boolean> {
    return new Promise<boolean>((answer, fail) => {
      const prepared = this.prepareSendTx(tx);
      // Awaited in the tx's turn; until then a failure must not count as unhandled.
      prepared.catch(() => undefined);
      const admission: SendTxAdmission = { tx, prepared, answer, fail };
      if (this.openGroup !== undefined) {
        this.openGroup.push(admission);
        return;
      }
      const group = [admission];
      void this.enqueue(() => this.admitSendTxGroup(group));
      this.openGroup = group;
    });
  }

  private async prepareSendTx(tx: TxValue): Promise<PreparedAdmission> {
    const chainRevision = this.chainRevision;
    // The pool's balance walk decides balance questions (with the payer's other pending txs), so validation skips it.
    const validation = await this.validate(tx, { skipBalance: true });
    const feePayerBalance = validation.valid ? await this.feePayerBalance(tx.feePayer) : 0n;
    return { chainRevision, validation, feePayerBalance };
  }

  /**
   * One group's turn: each admission decided and applied in order, the accepted ones written in one batch, then
   * answered. A failed write puts the pool back to what storage holds and fails every admission it carried.
   */
  private async admitSendTxGroup(group: readonly SendTxAdmission[]): Promise<void> {
    if (this.openGroup === group) this.openGroup = undefined;
    const decided: { admission: SendTxAdmission; decision: AcceptedAdmission | undefined }[] = [];
    const changes: TxPoolChange[] = [];
    for (const admission of group) {
      try {
        const decision = await this.decideSendTx(admission);
        if (decision !== undefined) changes.push(decision.change);
        decided.push({ admission, decision });
      } catch (error) {
        admission.fail(error);
      }
    }
    try {
      if (changes.length > 0) await batchWithoutFlush(this.deps.storage, txPoolGroupBatchOps(changes));
    } catch (error) {
      await this.reloadAfterFailedWrite(error);
      for (const { admission } of decided) admission.fail(error);
      return;
    }
    for (const { admission, decision } of decided) {
      if (decision !== undefined) this.reportAccepted(decision);
      admission.answer(decision !== undefined);
    }
  }

  /**
   * Decides one sendTx admission on the current pool and applies an acceptance in memory (its write is the group's):
   * the accepted decision, undefined when the tx is already pooled; throws INVALID_PARAMS or the pool's rejection.
   */
  private async decideSendTx(admission: SendTxAdmission): Promise<AcceptedAdmission | undefined> {
    const { tx } = admission;
    let prepared = await admission.prepared;
    if (prepared.chainRevision !== this.chainRevision) prepared = await this.prepareSendTx(tx);
    const { validation } = prepared;
    if (!validation.valid) {
      this.deps.metrics?.report({ kind: 'txRejected', code: TX_INVALID_METRICS_CODE });
      throw new NodeError('INVALID_PARAMS', `the tx is invalid: ${validation.reasons.join('; ')}`, {
        reasons: [...validation.reasons],
      });
    }
    const decision = this.decide(tx, prepared.feePayerBalance);
    if (decision.kind === 'rejected') throw txRejectedError(decision.rejection);
    if (decision.kind === 'alreadyPooled') return undefined;
    this.pool.apply(decision.change);
    return decision;
  }

  /** After a failed write of admissions applied in memory: the pool as storage holds it. */
  private async reloadAfterFailedWrite(error: unknown): Promise<void> {
    this.deps.logger.error('tx pool write failed; reloading the pool from storage', { error: String(error) });
    try {
      this.pool = (await loadTxPool(this.deps.storage, this.deps.settings().capacity)).pool;
    } catch (reloadError) {
      this.logFault(reloadError);
    }
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
  private async admit(tx: TxValue): Promise<AdmissionDecision> {
    const decision = this.decide(tx, await this.feePayerBalance(tx.feePayer));
    if (decision.kind !== 'accepted') return decision;
    await this.commit(decision.change);
    this.reportAccepted(decision);
    return decision;
  }

  /** The pool's decision on a validated tx (a rejection counted); changes nothing. */
  private decide(tx: TxValue, feePayerBalance: bigint): AdmissionDecision {
    const priceBumpPercentage = this.deps.settings().priceBumpPercentage;
    const decision = decideAdmission(this.pool, tx, { feePayerBalance, priceBumpPercentage });
    if (decision.kind === 'rejected') this.deps.metrics?.report({ kind: 'txRejected', code: decision.rejection.code });
    return decision;
  }

  private reportAccepted(decision: AcceptedAdmission): void {
    this.deps.logger.info('tx accepted', { txHash: decision.txHash, replaced: decision.removed.length });
    this.emit({ kind: 'accepted', txHash: decision.txHash, removed: decision.removed });
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
        const n = await this.anchorNumber(hash);
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

  /** The number of the block with this hash, through `anchorNumbers`. */
  private async anchorNumber(hash: Hex): Promise<number | undefined> {
    const key = hash.toLowerCase() as Hex;
    const cached = this.anchorNumbers.get(key);
    if (cached !== undefined) return cached;
    const n = await this.deps.chain.store.getBlockNumberByHash(key);
    if (n === undefined) return undefined;
    if (this.anchorNumbers.size >= ANCHOR_NUMBERS_CACHED_MAX) this.anchorNumbers.clear();
    this.anchorNumbers.set(key, n);
    return n;
  }

  /** The storage slot of the payer's fee-asset balance, through `feePayerSlots`. */
  private feePayerSlot(payer: Hex): Hex {
    const known = this.feePayerSlots.get(payer);
    if (known !== undefined) return known;
    if (this.feePayerSlots.size >= FEE_PAYER_SLOTS_CACHED_MAX) this.feePayerSlots.clear();
    const slot = feePayerBalanceSlot(PROTOCOL_CONTRACT_ADDRESSES.feeAsset, payer);
    this.feePayerSlots.set(payer, slot);
    return slot;
  }

  /** The payer's fee-asset balance as of the latest block. */
  async feePayerBalance(payer: Hex): Promise<bigint> {
    const worldState = this.deps.chain.worldState;
    const slot = this.feePayerSlot(payer);
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
