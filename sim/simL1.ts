import { hash } from 'node:crypto';
import { assert } from '../core/assert.js';
import type {
  ChainPrunedLog,
  CheckpointProposedLog,
  EpochProvenLog,
  InboxMessageLog,
  L1BlockRef,
  L1BlockTag,
  L1PublisherPort,
  L1ReaderPort,
  L1TxStatus,
  L1Validator,
  OutboxRoot,
  ProposeCheckpointRequest,
  ProvenCheckpoint,
  SubmitEpochProofRequest,
} from '../core/ports.js';
import { L1Error } from '../core/l1/l1Error.js';
import type { LoggerPort } from '../core/ports.js';
import { coversBaseFees, l1TxKindOf, satisfiesReplacementRule, type L1FeeMarket, type L1TxFees } from '../core/l1/l1TxFees.js';
import { L1TxTracker, type L1AccountNonces } from '../core/l1/l1TxSender.js';
import type { Hex, L1RollupConstants } from '../spec/chain.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../spec/config/schema.js';
import { bytesToHex, isHex, zeroHex } from '../spec/codec/bytes.js';
import {
  BLOB_SIZE_BYTES,
  EPOCH_DURATION_SLOTS_DEFAULT,
  L1_CHAIN_ID_LOCAL_NETWORK,
  L1_SLOT_DURATION_SECONDS,
  L1_MAX_FEE_PER_GAS_CAP_WEI,
  L2_SLOT_DURATION_SECONDS_DEFAULT,
  PROOF_SUBMISSION_EPOCHS_DEFAULT,
  ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
  WEI_PER_GWEI,
} from '../spec/constants.js';
import { VALIDATOR_SET_SIZE_MAX } from '../spec/validators/constants.js';
import type { Prng } from './prng.js';
import type { Scheduler } from './scheduler.js';
import {
  canPrune,
  checkEpochProof,
  checkProposal,
  consumeInbox,
  sendInboxMessage,
  SIM_INBOX_DEPLOYED,
  type SimInboxState,
  type SimL1ContractState,
  type SimL1EpochProofFailure,
  type SimL1ProofState,
  type SimL1ProposeFailure,
} from './simL1Contract.js';
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

export const SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT = 64;
/** Transactions waiting in the mempool; beyond this a submission is rejected (L1_TX_REJECTED). */
export const SIM_L1_MEMPOOL_TXS_MAX = 1_024;
/** Blocks the simulated chain may hold (about 138 simulated days at 12 s); more means a runaway run. */
export const SIM_L1_BLOCKS_MAX = 1_000_000;
/** Largest inclusion delay the fault injector may configure, in blocks. */
export const SIM_L1_INCLUSION_DELAY_BLOCKS_MAX = 256;
/** Base fee per gas of every block without a fee spike, in wei. */
export const SIM_L1_BASE_FEE_PER_GAS_DEFAULT = 1n * WEI_PER_GWEI;
/** Blob base fee without a fee spike, in wei. */
export const SIM_L1_BLOB_BASE_FEE_PER_GAS_DEFAULT = 1n * WEI_PER_GWEI;
/** The tip the simulated L1 node suggests (eth_maxPriorityFeePerGas), in wei. */
export const SIM_L1_PRIORITY_FEE_PER_GAS = WEI_PER_GWEI / 10n;
/** Largest fee-spike factor the fault injector may set (the base fees times this). */
export const SIM_L1_FEE_SPIKE_FACTOR_MAX = 100;
/** Owner name of the L1's events on the scheduler. */
export const SIM_L1_OWNER = 'l1';
/** Where the simulated rollup's inbox and outbox live (no code runs there; the addresses are for clients to read). */
export const SIM_INBOX_ADDRESS: Hex = '0x00000000000000000000000000000000000001b0';
export const SIM_OUTBOX_ADDRESS: Hex = '0x00000000000000000000000000000000000000b0';

export interface SimL1InclusionDelay {
  /** Chance that a submitted transaction skips the next block(s). */
  readonly probability: number;
  /** A delayed transaction waits 1 to this many extra blocks. */
  readonly blocksMax: number;
}

export interface SimL1Options {
  readonly scheduler: Scheduler;
  /** The L1's own stream; the L1 forks it per purpose and per link. */
  readonly prng: Prng;
  readonly genesisArchiveRoot: Hex;
  /** Unix seconds of L2 slot 0 (default: the timestamp of the deployment block, which is mined at the current time). */
  readonly l1GenesisTime?: bigint;
  readonly slotDuration?: number;
  readonly epochDuration?: number;
  readonly proofSubmissionEpochs?: number;
  readonly rollupVersion?: number;
  /** The rollup contract's fee-asset rate (`--initialEthPerFeeAsset`); default INITIAL_ETH_PER_FEE_ASSET_DEFAULT. */
  readonly ethPerFeeAsset?: bigint;
  readonly l1ChainId?: number;
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

/** What the simulator (checkers, tests) can learn about a transaction beyond the port's L1TxStatus. */
export type SimL1Receipt =
  | { readonly status: 'pending'; readonly txHash: Hex; readonly publisher: Hex; readonly notBeforeBlock: bigint }
  | {
      readonly status: 'included';
      readonly txHash: Hex;
      readonly publisher: Hex;
      readonly blockNumber: bigint;
      readonly blockHash: Hex;
      readonly success: boolean;
      /** The contract rule the transaction broke, when success is false. */
      readonly failure: SimL1TxFailure | undefined;
    }
  | { readonly status: 'reorgedOut'; readonly txHash: Hex; readonly publisher: Hex }
  /** Left the mempool for a replacement at the same nonce (`by`). */
  | { readonly status: 'replaced'; readonly txHash: Hex; readonly publisher: Hex; readonly by: Hex };

/** What the simulator can learn about a transaction's sending (SimL1.transaction). */
export interface SimL1TxInfo {
  readonly txHash: Hex;
  readonly publisher: Hex;
  readonly nonce: number;
  readonly fees: L1TxFees;
  readonly call: 'propose' | 'epochProof' | 'inboxMessage';
}

/** One node's RPC connection to the simulated L1. */
export interface SimL1Link {
  readonly name: string;
  readonly reader: L1ReaderPort;
  /**
   * A publisher account sending through this link. Its nonces live on the chain, so a restarted node's publisher
   * reads them back; it prices and replaces its transactions through core/l1/l1TxSender.ts (logging to `logger`).
   */
  createPublisher(address: Hex, logger?: LoggerPort): L1PublisherPort;
  /** Each call fails with L1_UNREACHABLE with this probability. */
  setRpcFailureRate(probability: number): void;
  /** The link's node lags the chain head by `lagBlocks` blocks. */
  setStale(lagBlocks: number): void;
  /** Every call is answered `latencyMs` of simulated time after it is made. */
  setLatencyMs(latencyMs: number): void;
  /**
   * A targeted fault for tests: each reader call the predicate picks (by method name and arguments) fails with
   * L1_UNREACHABLE; `undefined` removes it. It draws nothing from the link's PRNG, so the rest of a run is unchanged.
   */
  failCallsWhere(predicate: SimL1CallPredicate | undefined): void;
}

/** Picks reader calls by method name and arguments (SimL1Link.failCallsWhere). */
export type SimL1CallPredicate = (method: string, args: readonly unknown[]) => boolean;

/** The rule a failed transaction broke. */
export type SimL1TxFailure = SimL1ProposeFailure | SimL1EpochProofFailure;

/** An L1-to-L2 message as a sender hands it to the inbox (Inbox.sendL2Message). */
export interface SimL1ToL2Message {
  readonly recipient: Hex;
  readonly content: Hex;
  readonly secretHash: Hex;
}

/** What a transaction calls on the rollup contract (or its inbox). */
type SimL1Call =
  | { readonly kind: 'propose'; readonly request: ProposeCheckpointRequest; readonly versionedHashes: readonly Hex[] }
  | { readonly kind: 'epochProof'; readonly request: SubmitEpochProofRequest }
  | { readonly kind: 'inboxMessage'; readonly message: SimL1ToL2Message };

interface TxRecord {
  readonly txHash: Hex;
  readonly publisher: Hex;
  readonly nonce: number;
  readonly fees: L1TxFees;
  readonly call: SimL1Call;
  readonly notBeforeBlock: bigint;
  state: 'pending' | 'included' | 'reorgedOut' | 'replaced';
  /** The transaction that replaced this one (state 'replaced'). */
  replacedBy?: Hex;
  inclusion?: { readonly blockNumber: bigint; readonly blockHash: Hex; readonly failure: SimL1TxFailure | undefined };
}

/** One recorded checkpoint, linked to the one before it (genesis is number 0, slot 0). Never mutated, so every
 * block can keep the chain as it stood after it, prunes included. */
interface CheckpointEntry {
  readonly number: number;
  readonly archive: Hex;
  readonly slot: number;
  readonly previous: CheckpointEntry | undefined;
}

/** Outbox roots by epoch, then by the number of checkpoints they cover (replaced, never mutated). */
type SimOutboxRoots = ReadonlyMap<number, ReadonlyMap<number, Hex>>;

/** The rollup contract's storage after some block: the recorded chain's last checkpoint and the proven one, and its
 * inbox's and outbox's. */
interface ContractState {
  readonly tip: CheckpointEntry;
  readonly proven: ProvenCheckpoint;
  /** The validator set (fixed at deployment in the simulator). */
  readonly validators: readonly L1Validator[];
  readonly inbox: SimInboxState;
  readonly outbox: SimOutboxRoots;
}

/** The rollup contract's events by kind. */
interface SimL1LogsByKind {
  readonly checkpointProposed: CheckpointProposedLog;
  readonly epochProven: EpochProvenLog;
  readonly chainPruned: ChainPrunedLog;
  readonly messageSent: InboxMessageLog;
}

/** One event of the rollup contract; a block keeps them in emission order. */
type SimL1Log = { [K in keyof SimL1LogsByKind]: { readonly kind: K; readonly log: SimL1LogsByKind[K] } }[keyof SimL1LogsByKind];

interface MinedBlock {
  readonly ref: L1BlockRef;
  readonly txHashes: readonly Hex[];
  /** The contract after this block; undefined before the contract is deployed. */
  readonly contract: ContractState | undefined;
  readonly logs: readonly SimL1Log[];
}

/** Checkpoint `n` of the chain ending at `tip` (walks back at most tip.number - n entries). */
function entryAt(tip: CheckpointEntry, checkpointNumber: number): CheckpointEntry {
  assert(Number.isSafeInteger(checkpointNumber) && checkpointNumber >= 0 && checkpointNumber <= tip.number, `checkpoint ${checkpointNumber} is on a chain of ${tip.number}`);
  let entry = tip;
  while (entry.number > checkpointNumber) entry = entry.previous!;
  return entry;
}

function proofStateOf(contract: ContractState): SimL1ProofState {
  return {
    checkpointCount: contract.tip.number,
    provenCheckpoint: contract.proven.checkpointNumber,
    slotOf: (n) => entryAt(contract.tip, n).slot,
    archiveOf: (n) => entryAt(contract.tip, n).archive,
  };
}

function sha256(data: Uint8Array): Buffer {
  return hash('sha256', data, 'buffer') as Buffer;
}

/**
 * The simulator's stand-in for an EIP-4844 versioned hash: 0x01 || sha256(blob)[1..32]. A real one hashes the
 * blob's KZG commitment instead of the blob; the simulator has no KZG, and this keeps the version byte and the
 * one-to-one binding of hash to blob.
 */
export function simVersionedHash(blob: Uint8Array): Hex {
  const digest = sha256(blob);
  digest[0] = 0x01;
  return bytesToHex(digest);
}

function uint64Bytes(value: bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(value);
  return out;
}

/** sha256(parentHash || number || timestamp || fork generation || tx hashes); the generation makes a block mined
 * after a reorg differ from the one it replaces even when both are empty. */
function l1BlockHash(parentHash: Hex, number: bigint, timestamp: bigint, generation: number, txHashes: readonly Hex[]): Hex {
  const parts = [Buffer.from(parentHash.slice(2), 'hex'), uint64Bytes(number), uint64Bytes(timestamp), uint64Bytes(BigInt(generation))];
  for (const txHash of txHashes) parts.push(Buffer.from(txHash.slice(2), 'hex'));
  return bytesToHex(sha256(Buffer.concat(parts)));
}

function txHashOf(publisher: Hex, nonce: number, fees: L1TxFees, call: SimL1Call): Hex {
  const feeFields = [fees.maxFeePerGas, fees.maxPriorityFeePerGas, fees.maxFeePerBlobGas ?? 'none'];
  const callFields =
    call.kind === 'propose'
      ? ['sim-l1-tx', publisher, nonce, call.request.checkpointNumber, call.request.slotNumber, call.request.archive, call.request.lastArchive, call.request.header, call.request.attestations, ...call.versionedHashes]
      : call.kind === 'epochProof'
        ? ['sim-l1-proof-tx', publisher, nonce, call.request.epoch, call.request.fromCheckpoint, call.request.toCheckpoint, call.request.endArchive, call.request.outHash, call.request.proof]
        : ['sim-l1-inbox-tx', publisher, nonce, call.message.recipient, call.message.content, call.message.secretHash];
  return bytesToHex(sha256(Buffer.from([...callFields, ...feeFields].join(':'), 'utf8')));
}

function checkedCount(value: number, what: string): number {
  assert(Number.isSafeInteger(value) && value >= 0, `${what} ${value} must be a non-negative integer`);
  return value;
}

function checkedProbability(p: number, what: string): number {
  assert(p >= 0 && p <= 1, `${what} ${p} must be a probability in [0, 1]`);
  return p;
}

export class SimL1 {
  readonly constants: L1RollupConstants;
  readonly finalityLagBlocks: number;
  private readonly scheduler: Scheduler;
  private readonly trace: Trace | undefined;
  private readonly inclusionPrng: Prng;
  private readonly linkPrng: Prng;
  private readonly blocks: MinedBlock[] = [];
  /** The contract after the head block (undefined before it is deployed). */
  private contract: ContractState | undefined;
  private readonly txs = new Map<Hex, TxRecord>();
  private readonly mempool: TxRecord[] = [];
  /** Each account's next nonce to mine: its transactions on the current chain. */
  private readonly minedNonces = new Map<Hex, number>();
  /** The base fees' multiplier (1 without a spike). */
  private feeSpikeFactor = 1;
  private readonly withheldBlobTxs = new Set<Hex>();
  private readonly linkNames = new Set<string>();
  private inclusionDelay: SimL1InclusionDelay = { probability: 0, blocksMax: 0 };
  private blobsAvailable = true;
  /** Set while finality is stalled: the finalized block number at the stall's start. */
  private finalityStalledAt: bigint | undefined;
  private reorgCount = 0;
  private nextBlockTimeMs: number;

  constructor(options: SimL1Options) {
    this.scheduler = options.scheduler;
    this.trace = options.trace;
    this.inclusionPrng = options.prng.fork('inclusion');
    this.linkPrng = options.prng.fork('links');
    this.finalityLagBlocks = checkedCount(options.finalityLagBlocks ?? SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT, 'finalityLagBlocks');
    assert(isHex(options.genesisArchiveRoot) && options.genesisArchiveRoot.length === 66, 'genesisArchiveRoot must be 32 bytes of hex');
    const genesisArchive = options.genesisArchiveRoot.toLowerCase() as Hex;
    const l1StartBlock = options.l1StartBlock ?? 0n;
    assert(l1StartBlock >= 0n && l1StartBlock < BigInt(SIM_L1_BLOCKS_MAX), `l1StartBlock ${l1StartBlock} out of range`);
    const nowSeconds = BigInt(Math.floor(this.scheduler.now() / 1000));
    const validators = (options.validators ?? []).map((v) => Object.freeze({ ...v, address: v.address.toLowerCase() as Hex, activeFromEpoch: 0 }));
    assert(new Set(validators.map((v) => v.address)).size === validators.length, 'the rollup contract registers each validator address once');
    assert(validators.length <= VALIDATOR_SET_SIZE_MAX, `the rollup contract caps its validator set at ${VALIDATOR_SET_SIZE_MAX}`);
    const deployed: ContractState = {
      tip: { number: 0, archive: genesisArchive, slot: 0, previous: undefined },
      proven: { checkpointNumber: 0, l1BlockNumber: 0n },
      inbox: SIM_INBOX_DEPLOYED,
      outbox: new Map(),
      validators: Object.freeze(validators),
    };
    this.mineHistory(l1StartBlock, nowSeconds, deployed);
    this.contract = deployed;
    this.constants = this.makeConstants(options, l1StartBlock, nowSeconds, genesisArchive);
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
    assert(Number.isSafeInteger(depth) && depth >= 1, `reorg depth ${depth} must be a positive integer`);
    const newHeadIndex = this.blocks.length - 1 - depth;
    assert(newHeadIndex >= Number(this.constants.l1StartBlock), `a reorg of ${depth} would remove the rollup contract's deployment`);
    for (const dropped of this.blocks.splice(newHeadIndex + 1)) {
      for (const txHash of dropped.txHashes) {
        const tx = this.txs.get(txHash)!;
        tx.state = 'reorgedOut';
        this.minedNonces.set(tx.publisher, this.minedNonceOf(tx.publisher) - 1);
      }
    }
    this.contract = this.blocks[newHeadIndex]!.contract;
    this.reorgCount++;
    this.trace?.record('l1.reorg', { depth, head: this.head().number, headHash: this.head().hash });
  }

  setInclusionDelay(delay: SimL1InclusionDelay): void {
    checkedProbability(delay.probability, 'inclusion delay probability');
    assert(
      Number.isSafeInteger(delay.blocksMax) && delay.blocksMax >= 0 && delay.blocksMax <= SIM_L1_INCLUSION_DELAY_BLOCKS_MAX,
      `inclusion delay blocksMax ${delay.blocksMax} out of [0, SIM_L1_INCLUSION_DELAY_BLOCKS_MAX]`,
    );
    assert(delay.probability === 0 || delay.blocksMax >= 1, 'a non-zero inclusion delay probability needs blocksMax >= 1');
    this.inclusionDelay = { ...delay };
  }

  /**
   * A fee spike: from the next block on, the base fee and the blob base fee are their defaults times `factor` (1 ends
   * the spike). Transactions whose fee caps no longer cover them wait in the mempool.
   */
  setFeeSpike(factor: number): void {
    assert(Number.isSafeInteger(factor) && factor >= 1 && factor <= SIM_L1_FEE_SPIKE_FACTOR_MAX, `fee spike factor ${factor} out of [1, SIM_L1_FEE_SPIKE_FACTOR_MAX]`);
    if (factor === this.feeSpikeFactor) return;
    this.feeSpikeFactor = factor;
    const market = this.feeMarket();
    this.trace?.record('l1.fees', { factor, baseFeePerGas: market.baseFeePerGas, blobBaseFeePerGas: market.blobBaseFeePerGas });
  }

  /** The fee market of the next block (the pending one). */
  feeMarket(): L1FeeMarket {
    const factor = BigInt(this.feeSpikeFactor);
    return {
      baseFeePerGas: SIM_L1_BASE_FEE_PER_GAS_DEFAULT * factor,
      blobBaseFeePerGas: SIM_L1_BLOB_BASE_FEE_PER_GAS_DEFAULT * factor,
      priorityFeePerGas: SIM_L1_PRIORITY_FEE_PER_GAS,
    };
  }

  /** When false, every getBlobs fails with L1_BLOBS_UNAVAILABLE. */
  setBlobsAvailable(available: boolean): void {
    this.blobsAvailable = available;
  }

  /**
   * Finality stall (validators fail to finalize): while stalled, `finalized` stays at the block it was when the
   * stall began; when it ends, `finalized` jumps to the head minus the lag again.
   */
  setFinalityStalled(stalled: boolean): void {
    this.finalityStalledAt = stalled ? (this.finalityStalledAt ?? this.finalizedNumber(this.head().number)) : undefined;
  }

  /** The blobs of this transaction are never served. */
  withholdBlobs(txHash: Hex): void {
    this.withheldBlobTxs.add(txHash);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Inspection (simulator and tests; nodes use the ports)

  head(): L1BlockRef {
    return this.blocks[this.blocks.length - 1]!.ref;
  }

  /** Checkpoints the contract records after the head block (a pending prune not yet applied). */
  checkpointCount(): number {
    return this.contract!.tip.number;
  }

  /** Archive of checkpoint `n` on the current chain (0 = genesis), or undefined past the last one. */
  archiveOf(checkpointNumber: number): Hex | undefined {
    const tip = this.contract!.tip;
    return checkpointNumber <= tip.number ? entryAt(tip, checkpointNumber).archive : undefined;
  }

  /** The contract's proven checkpoint after the head block. */
  provenCheckpoint(): ProvenCheckpoint {
    return this.contract!.proven;
  }

  receipt(txHash: Hex): SimL1Receipt | undefined {
    const tx = this.txs.get(txHash);
    if (tx === undefined) return undefined;
    const base = { txHash: tx.txHash, publisher: tx.publisher };
    if (tx.state === 'pending') return { ...base, status: 'pending', notBeforeBlock: tx.notBeforeBlock };
    if (tx.state === 'reorgedOut') return { ...base, status: 'reorgedOut' };
    if (tx.state === 'replaced') return { ...base, status: 'replaced', by: tx.replacedBy! };
    const inclusion = tx.inclusion!;
    return { ...base, status: 'included', ...inclusion, success: inclusion.failure === undefined };
  }

  pendingTxCount(): number {
    return this.mempool.length;
  }

  /** The mempool's transactions in arrival order: hash, account, nonce, prices and what they call. */
  pendingTransactions(): SimL1TxInfo[] {
    return this.mempool.map((tx) => this.transaction(tx.txHash)!);
  }

  /** A transaction's account, nonce, prices and call kind, whatever became of it; undefined if never sent. */
  transaction(txHash: Hex): SimL1TxInfo | undefined {
    const tx = this.txs.get(txHash);
    if (tx === undefined) return undefined;
    return { txHash: tx.txHash, publisher: tx.publisher, nonce: tx.nonce, fees: tx.fees, call: tx.call.kind };
  }

  // ------------------------------------------------------------------------------------------------------------
  // Reads as of a block (used by links)

  /** Highest block a link `lagBlocks` behind sees. */
  visibleHeadNumber(lagBlocks: number): bigint {
    const n = BigInt(this.blocks.length - 1 - lagBlocks);
    return n < 0n ? 0n : n;
  }

  blockAt(number: bigint, visibleHead: bigint): MinedBlock {
    if (number < 0n || number > visibleHead) throw new L1Error('L1_BLOCK_NOT_FOUND', `L1 block ${number} does not exist (head ${visibleHead})`);
    return this.blocks[Number(number)]!;
  }

  resolveTag(tag: L1BlockTag, visibleHead: bigint): L1BlockRef {
    if (tag === 'latest') return this.blocks[Number(visibleHead)]!.ref;
    if (tag === 'finalized') return this.blocks[Number(this.finalizedNumber(visibleHead))]!.ref;
    return this.blockAt(tag, visibleHead).ref;
  }

  /** The finalized block a link seeing up to `visibleHead` reads: the head minus the lag, held back by a stall. */
  private finalizedNumber(visibleHead: bigint): bigint {
    const lagged = visibleHead - BigInt(this.finalityLagBlocks);
    const finalized = this.finalityStalledAt !== undefined && this.finalityStalledAt < lagged ? this.finalityStalledAt : lagged;
    return finalized < 0n ? 0n : finalized;
  }

  /** The contract after block `atBlock`, as its views answer: a prunable chain counts as pruned. */
  private contractViewAt(atBlock: bigint, visibleHead: bigint): ContractState {
    const block = this.blockAt(atBlock, visibleHead);
    if (block.contract === undefined) throw new L1Error('L1_NO_ROLLUP_CONTRACT', `no rollup contract at L1 block ${atBlock}`);
    return this.prunedView(block.contract, block.ref.timestamp);
  }

  /** `contract` as a proposal in a block with this timestamp sees it: pruned back to the proven checkpoint if prunable. */
  private prunedView(contract: ContractState, timestamp: bigint): ContractState {
    if (!canPrune(proofStateOf(contract), timestamp, this.constants)) return contract;
    return { ...contract, tip: entryAt(contract.tip, contract.proven.checkpointNumber) };
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
      if (checkpointsCovered >= checkpointsNeeded && (best === undefined || checkpointsCovered < best.checkpointsCovered)) best = { checkpointsCovered, root };
    }
    return best;
  }

  /** The contract's events of one kind in `[fromBlock, toBlock]`, in L1 order. */
  logsIn<K extends keyof SimL1LogsByKind>(kind: K, fromBlock: bigint, toBlock: bigint, visibleHead: bigint): SimL1LogsByKind[K][] {
    assert(fromBlock >= 0n, `log range starts at negative block ${fromBlock}`);
    if (fromBlock > toBlock) return [];
    this.blockAt(toBlock, visibleHead);
    const logs: SimL1LogsByKind[K][] = [];
    for (let n = Number(fromBlock); n <= Number(toBlock); n++) {
      for (const entry of this.blocks[n]!.logs) if (entry.kind === kind) logs.push(entry.log as SimL1LogsByKind[K]);
    }
    return logs;
  }

  blobsOf(log: CheckpointProposedLog): Uint8Array[] {
    const tx = this.txs.get(log.l1.txHash);
    const canonical =
      tx?.state === 'included' &&
      tx.call.kind === 'propose' &&
      tx.inclusion!.failure === undefined &&
      tx.inclusion!.blockHash === log.l1.blockHash &&
      this.blocks[Number(tx.inclusion!.blockNumber)]?.ref.hash === log.l1.blockHash;
    if (!canonical || tx.call.kind !== 'propose' || !this.blobsAvailable || this.withheldBlobTxs.has(log.l1.txHash)) {
      throw new L1Error('L1_BLOBS_UNAVAILABLE', `blobs of L1 tx ${log.l1.txHash} are not available`);
    }
    return tx.call.request.blobs.map((blob) => blob.slice());
  }

  txStatus(txHash: Hex, visibleHead: bigint): L1TxStatus {
    const tx = this.txs.get(txHash);
    if (tx === undefined || tx.state === 'reorgedOut' || tx.state === 'replaced') return { status: 'unknown' };
    if (tx.state === 'pending' || tx.inclusion!.blockNumber > visibleHead) return { status: 'pending' };
    const { blockNumber, blockHash, failure } = tx.inclusion!;
    return { status: 'included', success: failure === undefined, blockNumber, blockHash };
  }

  // ------------------------------------------------------------------------------------------------------------
  // Writes (used by links)

  /**
   * Accepts a proposal into the mempool at `nonce` with `fees` (a blob transaction); throws L1_TX_REJECTED for what
   * an L1 node refuses outright, L1_TX_UNDERPRICED / L1_TX_KIND_CONFLICT for a refused replacement.
   */
  submit(publisher: Hex, request: ProposeCheckpointRequest, nonce: number, fees: L1TxFees): Hex {
    for (const blob of request.blobs) {
      if (blob.length !== BLOB_SIZE_BYTES) throw new L1Error('L1_TX_REJECTED', `a blob must be ${BLOB_SIZE_BYTES} bytes, got ${blob.length}`);
    }
    if (fees.maxFeePerBlobGas === undefined) throw new L1Error('L1_TX_REJECTED', 'a proposal carries blobs, so it must offer maxFeePerBlobGas');
    const copy: ProposeCheckpointRequest = { ...request, blobs: request.blobs.map((blob) => blob.slice()) };
    const tx = this.enqueue(publisher, nonce, fees, { kind: 'propose', request: copy, versionedHashes: copy.blobs.map(simVersionedHash) });
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
    const tx = this.enqueue(from, this.pendingNonceOf(from), fees, { kind: 'inboxMessage', message: { ...message } });
    this.trace?.record('l1.tx.submitted', { txHash: tx.txHash, publisher: sender, inboxMessage: true, notBeforeBlock: tx.notBeforeBlock });
    return tx.txHash;
  }

  /** The inbox's MessageSent logs of the current chain (simulator and tests). */
  inboxMessages(): InboxMessageLog[] {
    return this.logsIn('messageSent', 0n, this.head().number, this.head().number);
  }

  /** Accepts an epoch proof into the mempool at `nonce` with `fees` (an ordinary transaction); refuses as `submit` does. */
  submitEpochProof(publisher: Hex, request: SubmitEpochProofRequest, nonce: number, fees: L1TxFees): Hex {
    if (fees.maxFeePerBlobGas !== undefined) throw new L1Error('L1_TX_REJECTED', 'an epoch proof carries no blobs, so it offers no maxFeePerBlobGas');
    const tx = this.enqueue(publisher, nonce, fees, { kind: 'epochProof', request: { ...request } });
    const { epoch, fromCheckpoint, toCheckpoint } = request;
    this.trace?.record('l1.tx.submitted', { txHash: tx.txHash, publisher, nonce, ...feeFields(fees), epoch, fromCheckpoint, toCheckpoint, notBeforeBlock: tx.notBeforeBlock });
    return tx.txHash;
  }

  /** The account's next nonce to mine as of the block a link sees, and counting its contiguous pending transactions. */
  accountNonces(account: Hex, visibleHead: bigint): L1AccountNonces {
    let minedNonce = this.minedNonceOf(account);
    for (let n = this.head().number; n > visibleHead; n--) {
      for (const txHash of this.blocks[Number(n)]!.txHashes) if (this.txs.get(txHash)!.publisher === account) minedNonce--;
    }
    return { minedNonce, pendingNonce: this.pendingNonceOf(account) };
  }

  private minedNonceOf(account: Hex): number {
    return this.minedNonces.get(account) ?? 0;
  }

  /** The mined nonce plus the account's pending transactions at the nonces right after it. */
  private pendingNonceOf(account: Hex): number {
    const held = new Set(this.mempool.filter((tx) => tx.publisher === account).map((tx) => tx.nonce));
    let nonce = this.minedNonceOf(account);
    while (held.has(nonce)) nonce++;
    return nonce;
  }

  /** Admits a transaction at a nonce, replacing the account's pending one there if the replacement rule allows. */
  private enqueue(publisher: Hex, nonce: number, fees: L1TxFees, call: SimL1Call): TxRecord {
    assert(Number.isSafeInteger(nonce) && nonce >= 0, `nonce ${nonce} must be a non-negative integer`);
    if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) throw new L1Error('L1_TX_REJECTED', 'max priority fee per gas higher than max fee per gas');
    if (nonce < this.minedNonceOf(publisher)) throw new L1Error('L1_TX_REJECTED', `nonce too low: ${nonce}, next nonce ${this.minedNonceOf(publisher)}`);
    const held = this.mempool.findIndex((tx) => tx.publisher === publisher && tx.nonce === nonce);
    const old = held === -1 ? undefined : this.mempool[held]!;
    if (old !== undefined && l1TxKindOf(old.fees) !== l1TxKindOf(fees)) {
      throw new L1Error('L1_TX_KIND_CONFLICT', `nonce ${nonce} holds a ${l1TxKindOf(old.fees)} transaction; a ${l1TxKindOf(fees)} one cannot replace it`);
    }
    if (old !== undefined && !satisfiesReplacementRule(old.fees, fees)) throw new L1Error('L1_TX_UNDERPRICED', `replacement transaction underpriced at nonce ${nonce}`);
    if (old === undefined && this.mempool.length >= SIM_L1_MEMPOOL_TXS_MAX) throw new L1Error('L1_TX_REJECTED', 'L1 mempool full');
    const txHash = txHashOf(publisher, nonce, fees, call);
    if (this.txs.get(txHash)?.state === 'pending') throw new L1Error('L1_TX_REJECTED', 'already known');
    const tx: TxRecord = { txHash, publisher, nonce, fees, call, notBeforeBlock: this.drawInclusionBlock(), state: 'pending' };
    this.txs.set(tx.txHash, tx);
    if (old !== undefined) {
      old.state = 'replaced';
      old.replacedBy = tx.txHash;
      this.mempool.splice(held, 1);
      this.trace?.record('l1.tx.replaced', { txHash: old.txHash, by: tx.txHash, publisher, nonce });
    }
    this.mempool.push(tx);
    return tx;
  }

  private drawInclusionBlock(): bigint {
    const next = this.head().number + 1n;
    const { probability, blocksMax } = this.inclusionDelay;
    if (probability === 0 || !this.inclusionPrng.bool(probability)) return next;
    return next + BigInt(this.inclusionPrng.int(1, blocksMax));
  }

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
    assert(this.blocks.length < SIM_L1_BLOCKS_MAX, `the simulated L1 reached SIM_L1_BLOCKS_MAX (${SIM_L1_BLOCKS_MAX}) blocks`);
    const parent = this.head();
    const number = parent.number + 1n;
    const timestamp = BigInt(Math.floor(this.scheduler.now() / 1000));
    const included = this.takeIncludable(number);
    const txHashes = included.map((tx) => tx.txHash);
    const ref: L1BlockRef = { number, hash: l1BlockHash(parent.hash, number, timestamp, this.reorgCount, txHashes), parentHash: parent.hash, timestamp };
    const logs: SimL1Log[] = [];
    for (const tx of included) {
      const failure =
        tx.call.kind === 'propose'
          ? this.applyProposal(tx.call, tx.txHash, ref, logs)
          : tx.call.kind === 'epochProof'
            ? this.applyEpochProof(tx.call.request, tx.txHash, ref, logs)
            : this.applyInboxMessage(tx.publisher, tx.call.message, tx.txHash, ref, logs);
      tx.state = 'included';
      tx.inclusion = { blockNumber: ref.number, blockHash: ref.hash, failure };
      this.trace?.record('l1.tx.included', { txHash: tx.txHash, blockNumber: ref.number, success: failure === undefined, failure });
    }
    this.blocks.push({ ref, txHashes, contract: this.contract, logs });
    const baseFeePerGas = this.feeMarket().baseFeePerGas;
    this.trace?.record('l1.block', { number, hash: ref.hash, timestamp, baseFeePerGas, txs: txHashes.length, checkpointCount: this.checkpointCount() });
  }

  /**
   * The transactions of block `number`, in mempool order: each account's in nonce order from its next nonce, each one
   * whose inclusion delay is over and whose fee caps cover the block's base fees. A transaction that cannot go in
   * holds back its account's later nonces. Bounded: each pass takes at least one transaction or ends.
   */
  private takeIncludable(number: bigint): TxRecord[] {
    const market = this.feeMarket();
    const next = new Map<Hex, number>();
    const nextOf = (account: Hex) => next.get(account) ?? this.minedNonceOf(account);
    const included: TxRecord[] = [];
    let waiting = this.mempool.slice();
    for (let progress = true; progress; ) {
      progress = false;
      const still: TxRecord[] = [];
      for (const tx of waiting) {
        if (tx.notBeforeBlock <= number && tx.nonce === nextOf(tx.publisher) && coversBaseFees(tx.fees, market)) {
          included.push(tx);
          next.set(tx.publisher, tx.nonce + 1);
          progress = true;
        } else {
          still.push(tx);
        }
      }
      waiting = still;
    }
    for (const [account, nonce] of next) this.minedNonces.set(account, nonce);
    this.mempool.length = 0;
    this.mempool.push(...waiting);
    return included;
  }

  /** Rollup.propose: prunes a prunable chain, then records the checkpoint if every rule holds (else changes nothing). */
  private applyProposal(call: Extract<SimL1Call, { kind: 'propose' }>, txHash: Hex, block: L1BlockRef, logs: SimL1Log[]): SimL1ProposeFailure | undefined {
    const before = this.contract!;
    const view = this.prunedView(before, block.timestamp);
    const state: SimL1ContractState = { checkpointCount: view.tip.number, lastArchive: view.tip.archive, lastCheckpointSlot: view.tip.slot };
    const failure = checkProposal(state, call.request, call.versionedHashes, block.timestamp, this.constants, view.inbox);
    if (failure !== undefined) return failure;
    const at = (logIndex: number) => Object.freeze({ blockNumber: block.number, blockHash: block.hash, txHash, logIndex });
    if (view !== before) {
      const pruned = { provenCheckpointNumber: view.proven.checkpointNumber, pendingCheckpointCount: before.tip.number, l1: at(logs.length) };
      logs.push({ kind: 'chainPruned', log: Object.freeze(pruned) });
      this.trace?.record('l1.chainPruned', { blockNumber: block.number, provenCheckpointNumber: pruned.provenCheckpointNumber, pendingCheckpointCount: pruned.pendingCheckpointCount });
    }
    const { request } = call;
    const archive = request.archive.toLowerCase() as Hex;
    this.contract = {
      ...view,
      tip: { number: request.checkpointNumber, archive, slot: request.slotNumber, previous: view.tip },
      inbox: consumeInbox(view.inbox, request.checkpointNumber),
    };
    const log = {
      checkpointNumber: request.checkpointNumber,
      archive,
      slotNumber: request.slotNumber,
      header: request.header.toLowerCase() as Hex,
      blobVersionedHashes: Object.freeze([...call.versionedHashes]),
      attestations: request.attestations.toLowerCase() as Hex,
      l1: at(logs.length),
    };
    logs.push({ kind: 'checkpointProposed', log: Object.freeze(log) });
    return undefined;
  }

  /** Rollup.submitEpochProof: moves the proven checkpoint when every rule holds. */
  private applyEpochProof(request: SubmitEpochProofRequest, txHash: Hex, block: L1BlockRef, logs: SimL1Log[]): SimL1EpochProofFailure | undefined {
    const before = this.contract!;
    const failure = checkEpochProof(proofStateOf(before), request, block.timestamp, this.constants);
    if (failure !== undefined) return failure;
    this.contract = {
      ...before,
      proven: { checkpointNumber: request.toCheckpoint, l1BlockNumber: block.number },
      outbox: withOutboxRoot(before.outbox, request),
    };
    const log: EpochProvenLog = {
      epoch: request.epoch,
      fromCheckpoint: request.fromCheckpoint,
      toCheckpoint: request.toCheckpoint,
      endArchive: request.endArchive.toLowerCase() as Hex,
      outHash: request.outHash.toLowerCase() as Hex,
      l1: Object.freeze({ blockNumber: block.number, blockHash: block.hash, txHash, logIndex: logs.length }),
    };
    logs.push({ kind: 'epochProven', log: Object.freeze(log) });
    this.trace?.record('l1.epochProven', { blockNumber: block.number, epoch: log.epoch, toCheckpoint: log.toCheckpoint });
    return undefined;
  }

  /** Inbox.sendL2Message: always succeeds for field-sized inputs (the wire types guarantee 32 bytes). */
  private applyInboxMessage(sender: Hex, message: SimL1ToL2Message, txHash: Hex, block: L1BlockRef, logs: SimL1Log[]): undefined {
    const sent = sendInboxMessage(this.contract!.inbox, { sender, ...message });
    this.contract = { ...this.contract!, inbox: sent.inbox };
    const log: InboxMessageLog = {
      checkpointNumber: sent.tree,
      index: sent.index,
      leaf: sent.leaf,
      treeHash: sent.treeHash,
      l1: Object.freeze({ blockNumber: block.number, blockHash: block.hash, txHash, logIndex: logs.length }),
    };
    logs.push({ kind: 'messageSent', log: Object.freeze(log) });
    this.trace?.record('l1.messageSent', { blockNumber: block.number, checkpointNumber: sent.tree, index: sent.index, leaf: sent.leaf });
    return undefined;
  }

  /** Blocks 0..l1StartBlock, back-dated so that the deployment block is mined now. */
  private mineHistory(l1StartBlock: bigint, nowSeconds: bigint, deployed: ContractState): void {
    const interval = BigInt(L1_SLOT_DURATION_SECONDS);
    assert(nowSeconds >= l1StartBlock * interval, 'the simulation starts too early for the L1 history before l1StartBlock');
    let parentHash = zeroHex(32);
    for (let n = 0n; n <= l1StartBlock; n++) {
      const timestamp = nowSeconds - (l1StartBlock - n) * interval;
      const ref: L1BlockRef = { number: n, hash: l1BlockHash(parentHash, n, timestamp, 0, []), parentHash, timestamp };
      this.blocks.push({ ref, txHashes: [], contract: n === l1StartBlock ? deployed : undefined, logs: [] });
      parentHash = ref.hash;
    }
  }

  private makeConstants(options: SimL1Options, l1StartBlock: bigint, nowSeconds: bigint, genesisArchiveRoot: Hex): L1RollupConstants {
    const slotDuration = options.slotDuration ?? L2_SLOT_DURATION_SECONDS_DEFAULT;
    const epochDuration = options.epochDuration ?? EPOCH_DURATION_SLOTS_DEFAULT;
    assert(Number.isSafeInteger(slotDuration) && slotDuration > 0, `slotDuration ${slotDuration} must be a positive integer`);
    assert(Number.isSafeInteger(epochDuration) && epochDuration > 0, `epochDuration ${epochDuration} must be a positive integer`);
    return Object.freeze({
      l1ChainId: options.l1ChainId ?? L1_CHAIN_ID_LOCAL_NETWORK,
      rollupVersion: options.rollupVersion ?? ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
      l1StartBlock,
      l1GenesisTime: options.l1GenesisTime ?? nowSeconds,
      slotDuration,
      epochDuration,
      ethereumSlotDuration: L1_SLOT_DURATION_SECONDS,
      proofSubmissionEpochs: checkedCount(options.proofSubmissionEpochs ?? PROOF_SUBMISSION_EPOCHS_DEFAULT, 'proofSubmissionEpochs'),
      genesisArchiveRoot,
      ethPerFeeAsset: options.ethPerFeeAsset ?? INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
    });
  }
}

/** Outbox.insert after an accepted proof (nothing for an epoch without messages: outHash zero). */
function withOutboxRoot(outbox: SimOutboxRoots, request: SubmitEpochProofRequest): SimOutboxRoots {
  const root = request.outHash.toLowerCase() as Hex;
  if (/^0x0*$/.test(root)) return outbox;
  const next = new Map(outbox);
  next.set(request.epoch, new Map(outbox.get(request.epoch) ?? []).set(request.toCheckpoint - request.fromCheckpoint + 1, root));
  return next;
}

/** A transaction's prices as trace fields. */
function feeFields(fees: L1TxFees): Record<string, bigint> {
  return {
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    ...(fees.maxFeePerBlobGas !== undefined ? { maxFeePerBlobGas: fees.maxFeePerBlobGas } : {}),
  };
}

export function createSimL1(options: SimL1Options): SimL1 {
  return new SimL1(options);
}

// ---------------------------------------------------------------------------------------------------------------
// Links

function createLink(l1: SimL1, name: string, prng: Prng, scheduler: Scheduler): SimL1Link {
  let failureRate = 0;
  let staleBlocks = 0;
  let latencyMs = 0;
  let targeted: SimL1CallPredicate | undefined;

  /** One RPC call: the failure draw happens when the call is made, the answer is computed when it is delivered. */
  const call = async <T>(method: string, answer: (visibleHead: bigint) => T, args: readonly unknown[] = []): Promise<T> => {
    const fails = (failureRate > 0 && prng.bool(failureRate)) || targeted?.(method, args) === true;
    if (latencyMs > 0) await scheduler.sleep(latencyMs, { owner: `${SIM_L1_OWNER}/${name}`, label: method });
    if (fails) throw new L1Error('L1_UNREACHABLE', `simulated RPC failure of ${method} on link ${name}`);
    return answer(l1.visibleHeadNumber(staleBlocks));
  };

  const reader: L1ReaderPort = {
    getChainId: () => call('getChainId', () => l1.constants.l1ChainId),
    getBlock: (tag) => call('getBlock', (head) => l1.resolveTag(tag, head), [tag]),
    getRollupConstants: () => call('getRollupConstants', () => l1.constants),
    getCheckpointCount: (atBlock) => call('getCheckpointCount', (head) => l1.checkpointCountAt(atBlock, head), [atBlock]),
    getArchiveAt: (checkpointNumber, atBlock) => call('getArchiveAt', (head) => l1.archiveAt(checkpointNumber, atBlock, head), [checkpointNumber, atBlock]),
    getCheckpointProposedLogs: (fromBlock, toBlock) => call('getCheckpointProposedLogs', (head) => l1.logsIn('checkpointProposed', fromBlock, toBlock, head), [fromBlock, toBlock]),
    getBlobs: (log) => call('getBlobs', () => l1.blobsOf(log), [log]),
    getProvenCheckpoint: (atBlock) => call('getProvenCheckpoint', (head) => l1.provenAt(atBlock, head), [atBlock]),
    getEpochProvenLogs: (fromBlock, toBlock) => call('getEpochProvenLogs', (head) => l1.logsIn('epochProven', fromBlock, toBlock, head), [fromBlock, toBlock]),
    getChainPrunedLogs: (fromBlock, toBlock) => call('getChainPrunedLogs', (head) => l1.logsIn('chainPruned', fromBlock, toBlock, head), [fromBlock, toBlock]),
    getValidators: (atBlock) => call('getValidators', (head) => l1.validatorsAt(atBlock, head), [atBlock]),
    getInboxMessageLogs: (fromBlock, toBlock) => call('getInboxMessageLogs', (head) => l1.logsIn('messageSent', fromBlock, toBlock, head)),
    getOutboxRoot: (epoch, checkpointsNeeded, atBlock) => call('getOutboxRoot', (head) => l1.outboxRootAt(epoch, checkpointsNeeded, atBlock, head)),
    getMessageBoxAddresses: () => call('getMessageBoxAddresses', () => ({ inboxAddress: SIM_INBOX_ADDRESS, outboxAddress: SIM_OUTBOX_ADDRESS })),
  };

  return {
    name,
    reader,
    createPublisher(address: Hex, logger?: LoggerPort): L1PublisherPort {
      assert(isHex(address) && address.length === 42, `publisher address ${address} must be 20 bytes of hex`);
      const publisherAddress = address.toLowerCase() as Hex;
      const tracker = new L1TxTracker(logger);
      const reads = {
        readNonces: () => call('getTransactionCount', (head) => l1.accountNonces(publisherAddress, head)),
        readFeeMarket: () => call('getFeeMarket', () => l1.feeMarket()),
      };
      return {
        publisherAddress,
        // Computed locally by the sender (in production, by its KZG library): no RPC, no failure.
        blobVersionedHashes: async (blobs) => blobs.map(simVersionedHash),
        proposeCheckpoint: (request) =>
          tracker.send({
            kind: 'blob',
            what: 'propose',
            ...reads,
            send: (nonce, fees) => call('proposeCheckpoint', () => l1.submit(publisherAddress, request, nonce, fees)),
          }),
        getTxStatus: (txHash) => call('getTxStatus', (head) => l1.txStatus(txHash, head)),
        submitEpochProof: (request) =>
          tracker.send({
            kind: 'plain',
            what: 'submitEpochProof',
            ...reads,
            send: (nonce, fees) => call('submitEpochProof', () => l1.submitEpochProof(publisherAddress, request, nonce, fees)),
          }),
      };
    },
    setRpcFailureRate(probability: number): void {
      failureRate = checkedProbability(probability, 'RPC failure rate');
    },
    setStale(lagBlocks: number): void {
      staleBlocks = checkedCount(lagBlocks, 'stale lag');
    },
    setLatencyMs(ms: number): void {
      latencyMs = checkedCount(ms, 'latency');
    },
    failCallsWhere(predicate: SimL1CallPredicate | undefined): void {
      targeted = predicate;
    },
  };
}

export type { SimL1ContractState, SimL1EpochProofFailure, SimL1ProposeFailure } from './simL1Contract.js';
