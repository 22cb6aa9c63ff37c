import { assert } from '../core/assert.js';
import type {
  InboxMessageLog,
  L1BlockRef,
  L1BlockTag,
  L1TxStatus,
  L1Validator,
  OutboxRoot,
  ProposeCheckpointRequest,
  ProvenCheckpoint,
  SubmitEpochProofRequest,
} from '../core/ports.js';
import { L1Error } from '../core/l1/l1Error.js';
import type { L1FeeMarket, L1TxFees } from '../core/l1/l1TxFees.js';
import type { L1AccountNonces } from '../core/l1/l1TxSender.js';
import type { Hex, L1RollupConstants } from '../spec/chain.js';
import { isHex, zeroHex } from '../spec/codec/bytes.js';
import { L1_MAX_FEE_PER_GAS_CAP_WEI, L1_SLOT_DURATION_SECONDS } from '../spec/constants.js';
import { BlobStore, checkBlobTransaction, simVersionedHash, type BlobTxRef } from './l1/blobs.js';
import {
  L1Chain,
  SIM_L1_BLOCKS_MAX,
  SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT,
  type MinedBlock,
  type SimL1Log,
  type SimL1LogsByKind,
} from './l1/chain.js';
import { checkedCount } from './l1/checks.js';
import {
  deployedContract,
  entryAt,
  genesisArchiveOf,
  rollupConstants,
  SimRollupContract,
  type RollupConstantOptions,
  type ContractState,
  type SimL1ToL2Message,
} from './l1/contract.js';
import { createLink, SIM_L1_OWNER, type SimL1Link } from './l1/link.js';
import {
  feeFields,
  L1Mempool,
  type TxRecord as SimL1SentTx,
  SIM_L1_PRIORITY_FEE_PER_GAS,
  type SimL1InclusionDelay,
  type SimL1Receipt,
  type SimL1TxInfo,
} from './l1/mempool.js';
export type { TxRecord as SimL1SentTx } from './l1/mempool.js';
import { reorg } from './l1/reorg.js';
import type { Prng } from './prng.js';
import type { Scheduler } from './scheduler.js';
import type { Trace } from './trace.js';

/**
 * A simulated L1 chain with the rollup contract on it. It mines a block every L1_SLOT_DURATION_SECONDS on the shared
 * scheduler, includes the proposals and epoch proofs waiting in its mempool, and applies the contract's rules
 * (simL1Contract.ts) to each: a transaction that breaks a rule is still included, as a failed transaction whose
 * receipt records the rule. A proposal first prunes a pending chain whose oldest unproven epoch is past its proof
 * window, as the contract does. Reads pinned to a block answer as of that block, and, like the contract's views,
 * count a prunable chain as pruned. `finalized` is the head minus `finalityLagBlocks`, as on anvil.
 *
 * Fees and nonces: every block has a base fee and a blob base fee (their defaults times a fee-spike factor, which
 * the fault injector raises and lowers). A transaction is includable when its nonce is its account's next one and its
 * fee caps cover the block's base fees. A send at a nonce the mempool already holds for the account replaces that
 * transaction only under geth's replacement rule (core/l1/l1TxFees.ts), else it is refused (L1_TX_UNDERPRICED,
 * L1_TX_KIND_CONFLICT); a nonce below the account's mined one is refused (L1_TX_REJECTED). Nonces live on the chain,
 * so a restarted node's publisher reads them back. Publishers price and replace through core/l1/l1TxSender.ts, as
 * the production publisher does.
 *
 * Nodes reach it through links (`connect(name)`), one per node's RPC connection; each link has its own faults
 * (failure rate, staleness, latency) drawn from its own PRNG stream. Chain-wide faults (reorgs, missing blobs, slow
 * inclusion) are methods of the SimL1 itself.
 *
 * Every answer is computed from simulated state only and settles either through a microtask (no latency) or
 * through a scheduler event (with latency), so runs replay exactly.
 */

export { simVersionedHash } from './l1/blobs.js';
export { SIM_L1_BLOCKS_MAX, SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT } from './l1/chain.js';
export { SIM_INBOX_ADDRESS, SIM_OUTBOX_ADDRESS, type SimL1ToL2Message, type SimL1TxFailure } from './l1/contract.js';
export { SIM_L1_OWNER, type SimL1CallPredicate, type SimL1Link } from './l1/link.js';
export {
  SIM_L1_BASE_FEE_PER_GAS_DEFAULT,
  SIM_L1_BLOB_BASE_FEE_PER_GAS_DEFAULT,
  SIM_L1_FEE_SPIKE_FACTOR_MAX,
  SIM_L1_INCLUSION_DELAY_BLOCKS_MAX,
  SIM_L1_MEMPOOL_TXS_MAX,
  SIM_L1_PRIORITY_FEE_PER_GAS,
  type SimL1InclusionDelay,
  type SimL1Receipt,
  type SimL1TxInfo,
} from './l1/mempool.js';
export type { SimL1ContractState, SimL1EpochProofFailure, SimL1ProposeFailure } from './simL1Contract.js';

/** The rollup's constants (RollupConstantOptions, l1/contract.ts) and the simulated L1's own settings. */
export interface SimL1Options extends RollupConstantOptions {
  readonly scheduler: Scheduler;
  /** The L1's own stream; the L1 forks it per purpose and per link. */
  readonly prng: Prng;
  readonly genesisArchiveRoot: Hex;
  /** Block the rollup contract is deployed in (default 0); blocks before it are mined back-dated at construction. */
  readonly l1StartBlock?: bigint;
  readonly finalityLagBlocks?: number;
  /** Default: none, every transaction lands in the next block. */
  readonly inclusionDelay?: SimL1InclusionDelay;
  readonly trace?: Trace;
  /**
   * The validator set registered with the deployment (before any checkpoint, so active from epoch 0), in order.
   * Default: none, so no epoch has a committee and checkpoints need no attestations.
   */
  readonly validators?: readonly Omit<L1Validator, 'activeFromEpoch'>[];
}

/**
 * The simulated L1, composed of its chain of blocks (l1/chain.ts), the rollup contract's state (l1/contract.ts), its
 * blob store (l1/blobs.ts), its fee market and mempool (l1/mempool.ts) and reorgs (l1/reorg.ts); links
 * (l1/link.ts) are the nodes' ports onto it. This class mines the blocks and answers for all of them.
 */
export class SimL1 {
  readonly constants: L1RollupConstants;
  readonly finalityLagBlocks: number;
  private readonly scheduler: Scheduler;
  private readonly trace: Trace | undefined;
  private readonly linkPrng: Prng;
  private readonly chain: L1Chain;
  private readonly mempool: L1Mempool;
  private readonly contract: SimRollupContract;
  private readonly blobs = new BlobStore();
  private readonly linkNames = new Set<string>();
  private nextBlockTimeMs: number;

  constructor(options: SimL1Options) {
    this.scheduler = options.scheduler;
    this.trace = options.trace;
    this.mempool = new L1Mempool(options.prng.fork('inclusion'), this.trace);
    this.linkPrng = options.prng.fork('links');
    this.finalityLagBlocks = checkedCount(
      options.finalityLagBlocks ?? SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT,
      'finalityLagBlocks',
    );
    this.chain = new L1Chain(this.finalityLagBlocks);
    const genesisArchive = genesisArchiveOf(options);
    const l1StartBlock = options.l1StartBlock ?? 0n;
    assert(l1StartBlock >= 0n && l1StartBlock < BigInt(SIM_L1_BLOCKS_MAX), `l1StartBlock ${l1StartBlock} out of range`);
    const nowSeconds = BigInt(Math.floor(this.scheduler.now() / 1000));
    const deployed = deployedContract(genesisArchive, options);
    this.chain.mineHistory(l1StartBlock, nowSeconds, deployed);
    this.constants = rollupConstants(options, l1StartBlock, nowSeconds, genesisArchive);
    this.contract = new SimRollupContract(deployed, this.constants, this.trace);
    if (options.inclusionDelay !== undefined) this.setInclusionDelay(options.inclusionDelay);
    this.nextBlockTimeMs = Number(nowSeconds) * 1000 + L1_SLOT_DURATION_SECONDS * 1000;
    this.scheduleNextBlock();
  }

  // ------------------------------------------------------------------------------------------------------------
  // Links (the ports)

  connect(name: string): SimL1Link {
    assert(!this.linkNames.has(name), `an L1 link named ${name} already exists`);
    this.linkNames.add(name);
    return createLink(this, name, this.linkPrng.fork(name), this.scheduler);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Fault injection

  /** Drops the last `depth` blocks; their transactions are gone (not returned to the mempool). Mining goes on from
   * the new head at the usual cadence. */
  reorg(depth: number): void {
    reorg(
      {
        chain: this.chain,
        mempool: this.mempool,
        contract: this.contract,
        l1StartBlock: this.constants.l1StartBlock,
        trace: this.trace,
      },
      depth,
    );
  }

  setInclusionDelay(delay: SimL1InclusionDelay): void {
    this.mempool.setInclusionDelay(delay);
  }

  /**
   * A fee spike: from the next block on, the base fee and the blob base fee are their defaults times `factor` (1 ends
   * the spike). Transactions whose fee caps no longer cover them wait in the mempool.
   */
  setFeeSpike(factor: number): void {
    this.mempool.setFeeSpike(factor);
  }

  /** The fee market of the next block (the pending one). */
  feeMarket(): L1FeeMarket {
    return this.mempool.feeMarket();
  }

  /** When false, every getBlobs fails with L1_BLOBS_UNAVAILABLE. */
  setBlobsAvailable(available: boolean): void {
    this.blobs.setBlobsAvailable(available);
  }

  /**
   * Finality stall (validators fail to finalize): while stalled, `finalized` stays at the block it was when the
   * stall began; when it ends, `finalized` jumps to the head minus the lag again.
   */
  setFinalityStalled(stalled: boolean): void {
    this.chain.setFinalityStalled(stalled);
  }

  /** The blobs of this transaction are never served. */
  withholdBlobs(txHash: Hex): void {
    this.blobs.withholdBlobs(txHash);
  }

  /** Consensus clients serve a proposal's blobs only `delayMs` after its block's time (0: at once). */
  setBlobDelayMs(delayMs: number): void {
    this.blobs.setDelayMs(delayMs);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Inspection (simulator and tests; nodes use the ports)

  head(): L1BlockRef {
    return this.chain.head();
  }

  /** Checkpoints the contract records after the head block (a pending prune not yet applied). */
  checkpointCount(): number {
    return this.contract.state.tip.number;
  }

  /** Archive of checkpoint `n` on the current chain (0 = genesis), or undefined past the last one. */
  archiveOf(checkpointNumber: number): Hex | undefined {
    const tip = this.contract.state.tip;
    return checkpointNumber <= tip.number ? entryAt(tip, checkpointNumber).archive : undefined;
  }

  /** The contract's proven checkpoint after the head block. */
  provenCheckpoint(): ProvenCheckpoint {
    return this.contract.state.proven;
  }

  receipt(txHash: Hex): SimL1Receipt | undefined {
    return this.mempool.receipt(txHash);
  }

  pendingTxCount(): number {
    return this.mempool.pendingTxCount();
  }

  /** The mempool's transactions in arrival order: hash, account, nonce, prices and what they call. */
  pendingTransactions(): SimL1TxInfo[] {
    return this.mempool.pendingTransactions();
  }

  /** A transaction's account, nonce, prices and call kind, whatever became of it; undefined if never sent. */
  transaction(txHash: Hex): SimL1TxInfo | undefined {
    return this.mempool.transaction(txHash);
  }

  /** Every transaction ever sent, in sending order, with its call and what became of it (read-only: checkers). */
  sentTransactions(): readonly SimL1SentTx[] {
    return this.mempool.sentTransactions();
  }

  // ------------------------------------------------------------------------------------------------------------
  // Reads as of a block (used by links)

  /** Highest block a link `lagBlocks` behind sees. */
  visibleHeadNumber(lagBlocks: number): bigint {
    return this.chain.visibleHeadNumber(lagBlocks);
  }

  blockAt(number: bigint, visibleHead: bigint): MinedBlock {
    return this.chain.blockAt(number, visibleHead);
  }

  resolveTag(tag: L1BlockTag, visibleHead: bigint): L1BlockRef {
    return this.chain.resolveTag(tag, visibleHead);
  }

  /** The contract after block `atBlock`, as its views answer: a prunable chain counts as pruned. */
  private contractViewAt(atBlock: bigint, visibleHead: bigint): ContractState {
    return this.contract.viewAt(this.chain.blockAt(atBlock, visibleHead), atBlock);
  }

  validatorsAt(atBlock: bigint, visibleHead: bigint): L1Validator[] {
    return this.contractViewAt(atBlock, visibleHead).validators.map((v) => ({ ...v }));
  }

  checkpointCountAt(atBlock: bigint, visibleHead: bigint): number {
    return this.contractViewAt(atBlock, visibleHead).tip.number;
  }

  archiveAt(checkpointNumber: number, atBlock: bigint, visibleHead: bigint): Hex {
    checkedCount(checkpointNumber, 'checkpoint number');
    const tip = this.contractViewAt(atBlock, visibleHead).tip;
    // An entry past the pending chain reads as zero, as the contract's getArchive answers.
    return checkpointNumber <= tip.number ? entryAt(tip, checkpointNumber).archive : zeroHex(32);
  }

  provenAt(atBlock: bigint, visibleHead: bigint): ProvenCheckpoint {
    return this.contractViewAt(atBlock, visibleHead).proven;
  }

  /** Outbox.smallestCoveringRoot as of `atBlock`. */
  outboxRootAt(epoch: number, checkpointsNeeded: number, atBlock: bigint, visibleHead: bigint): OutboxRoot | undefined {
    const roots = this.contractViewAt(atBlock, visibleHead).outbox.get(epoch);
    let best: OutboxRoot | undefined;
    for (const [checkpointsCovered, root] of roots ?? []) {
      if (
        checkpointsCovered >= checkpointsNeeded &&
        (best === undefined || checkpointsCovered < best.checkpointsCovered)
      )
        best = { checkpointsCovered, root };
    }
    return best;
  }

  /** The contract's events of one kind in `[fromBlock, toBlock]`, in L1 order. */
  logsIn<K extends keyof SimL1LogsByKind>(
    kind: K,
    fromBlock: bigint,
    toBlock: bigint,
    visibleHead: bigint,
  ): SimL1LogsByKind[K][] {
    return this.chain.logsIn(kind, fromBlock, toBlock, visibleHead);
  }

  /** The blobs of the proposal at `ref`, as L1's consensus clients serve them (sim/l1/blobs.ts). */
  blobsOf(ref: BlobTxRef, wanted?: readonly Hex[]): Uint8Array[] {
    return this.blobs.blobsOf(ref, this.mempool.tx(ref.txHash), this.chain, this.scheduler.now(), wanted);
  }

  /** The blobs of the proposal `txHash` if it was ever included: what a blob archive serves. */
  archivedBlobsOf(txHash: Hex, wanted?: readonly Hex[]): Uint8Array[] {
    return this.blobs.archivedBlobsOf(this.mempool.tx(txHash), wanted);
  }

  txStatus(txHash: Hex, visibleHead: bigint): L1TxStatus {
    return this.mempool.txStatus(txHash, visibleHead);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Writes (used by links)

  /**
   * Accepts a proposal into the mempool at `nonce` with `fees` (a blob transaction); throws L1_TX_REJECTED for what
   * an L1 node refuses outright, L1_TX_UNDERPRICED / L1_TX_KIND_CONFLICT for a refused replacement.
   */
  submit(publisher: Hex, request: ProposeCheckpointRequest, nonce: number, fees: L1TxFees): Hex {
    checkBlobTransaction(request, fees);
    const copy: ProposeCheckpointRequest = { ...request, blobs: request.blobs.map((blob) => blob.slice()) };
    const tx = this.mempool.enqueue(
      publisher,
      nonce,
      fees,
      { kind: 'propose', request: copy, versionedHashes: copy.blobs.map(simVersionedHash) },
      this.nextBlock,
    );
    this.trace?.record('l1.tx.submitted', {
      txHash: tx.txHash,
      publisher,
      nonce,
      ...feeFields(fees),
      checkpointNumber: request.checkpointNumber,
      slotNumber: request.slotNumber,
      notBeforeBlock: tx.notBeforeBlock,
    });
    return tx.txHash;
  }

  /**
   * Accepts an L1-to-L2 message for the inbox into the mempool (any account may send one), at the sender's next
   * nonce and at the fee caps: a message's sender is not the node under test, so fee spikes below the caps never
   * hold it up.
   */
  sendL2Message(sender: Hex, message: SimL1ToL2Message): Hex {
    assert(isHex(sender) && sender.length === 42, `sender ${sender} must be 20 bytes of hex`);
    const from = sender.toLowerCase() as Hex;
    const fees = { maxFeePerGas: L1_MAX_FEE_PER_GAS_CAP_WEI, maxPriorityFeePerGas: SIM_L1_PRIORITY_FEE_PER_GAS };
    const tx = this.mempool.enqueue(
      from,
      this.mempool.pendingNonceOf(from),
      fees,
      { kind: 'inboxMessage', message: { ...message } },
      this.nextBlock,
    );
    this.trace?.record('l1.tx.submitted', {
      txHash: tx.txHash,
      publisher: sender,
      inboxMessage: true,
      notBeforeBlock: tx.notBeforeBlock,
    });
    return tx.txHash;
  }

  /** The inbox's MessageSent logs of the current chain (simulator and tests). */
  inboxMessages(): InboxMessageLog[] {
    return this.logsIn('messageSent', 0n, this.head().number, this.head().number);
  }

  /** Accepts an epoch proof into the mempool at `nonce` with `fees` (an ordinary transaction); refuses as `submit` does. */
  submitEpochProof(publisher: Hex, request: SubmitEpochProofRequest, nonce: number, fees: L1TxFees): Hex {
    if (fees.maxFeePerBlobGas !== undefined)
      throw new L1Error('L1_TX_REJECTED', 'an epoch proof carries no blobs, so it offers no maxFeePerBlobGas');
    const tx = this.mempool.enqueue(
      publisher,
      nonce,
      fees,
      { kind: 'epochProof', request: { ...request } },
      this.nextBlock,
    );
    const { epoch, fromCheckpoint, toCheckpoint } = request;
    this.trace?.record('l1.tx.submitted', {
      txHash: tx.txHash,
      publisher,
      nonce,
      ...feeFields(fees),
      epoch,
      fromCheckpoint,
      toCheckpoint,
      notBeforeBlock: tx.notBeforeBlock,
    });
    return tx.txHash;
  }

  /** The account's next nonce to mine as of the block a link sees, and counting its contiguous pending transactions. */
  accountNonces(account: Hex, visibleHead: bigint): L1AccountNonces {
    return this.mempool.accountNonces(account, visibleHead, this.chain);
  }

  /** The block a transaction sent now lands in at the earliest. */
  private readonly nextBlock = (): bigint => this.head().number + 1n;

  // ------------------------------------------------------------------------------------------------------------
  // Mining

  private scheduleNextBlock(): void {
    this.scheduler.scheduleAt(
      this.nextBlockTimeMs,
      () => {
        this.mineBlock();
        this.nextBlockTimeMs += L1_SLOT_DURATION_SECONDS * 1000;
        this.scheduleNextBlock();
      },
      { owner: SIM_L1_OWNER, label: 'mine' },
    );
  }

  private mineBlock(): void {
    const number = this.chain.nextBlockNumber();
    const timestamp = BigInt(Math.floor(this.scheduler.now() / 1000));
    const included = this.mempool.takeIncludable(number);
    const txHashes = included.map((tx) => tx.txHash);
    const ref = this.chain.nextBlockRef(timestamp, txHashes);
    const logs: SimL1Log[] = [];
    for (const tx of included) {
      const failure =
        tx.call.kind === 'propose'
          ? this.contract.applyProposal(tx.call.request, tx.call.versionedHashes, tx.txHash, ref, logs)
          : tx.call.kind === 'epochProof'
            ? this.contract.applyEpochProof(tx.call.request, tx.txHash, ref, logs)
            : this.contract.applyInboxMessage(tx.publisher, tx.call.message, tx.txHash, ref, logs);
      tx.state = 'included';
      tx.inclusion = { blockNumber: ref.number, blockHash: ref.hash, failure };
      this.trace?.record('l1.tx.included', {
        txHash: tx.txHash,
        blockNumber: ref.number,
        success: failure === undefined,
        failure,
      });
    }
    this.chain.append({ ref, txHashes, contract: this.contract.state, logs });
    const baseFeePerGas = this.feeMarket().baseFeePerGas;
    this.trace?.record('l1.block', {
      number,
      hash: ref.hash,
      timestamp,
      baseFeePerGas,
      txs: txHashes.length,
      checkpointCount: this.checkpointCount(),
    });
  }
}

export function createSimL1(options: SimL1Options): SimL1 {
  return new SimL1(options);
}
