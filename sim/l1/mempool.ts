/**
 * The simulated L1's fee market and mempool: base fees (their defaults times a fee-spike factor), the transactions
 * sent to the L1 and what became of each, each account's nonces, admission and replacement under geth's rule
 * (core/l1/l1TxFees.ts), inclusion delays drawn from the L1's inclusion stream, and choosing a block's transactions.
 */
import { assert } from '../../core/assert.js';
import type { L1AccountNonces } from '../../core/l1/l1TxSender.js';
import {
  coversBaseFees,
  l1TxKindOf,
  satisfiesReplacementRule,
  type L1FeeMarket,
  type L1TxFees,
} from '../../core/l1/l1TxFees.js';
import type { L1TxStatus, ProposeCheckpointRequest, SubmitEpochProofRequest } from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { WEI_PER_GWEI } from '../../spec/constants.js';
import type { Prng } from '../prng.js';
import type { Trace } from '../trace.js';
import type { L1Chain } from './chain.js';
import { checkedProbability } from './checks.js';
import type { SimL1ToL2Message, SimL1TxFailure } from './contract.js';
import { sha256 } from './sha256.js';

/** Transactions waiting in the mempool; beyond this a submission is rejected (L1_TX_REJECTED). */
export const SIM_L1_MEMPOOL_TXS_MAX = 1_024;
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

export interface SimL1InclusionDelay {
  /** Chance that a submitted transaction skips the next block(s). */
  readonly probability: number;
  /** A delayed transaction waits 1 to this many extra blocks. */
  readonly blocksMax: number;
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

/** What a transaction calls on the rollup contract (or its inbox). */
export type SimL1Call =
  | { readonly kind: 'propose'; readonly request: ProposeCheckpointRequest; readonly versionedHashes: readonly Hex[] }
  | { readonly kind: 'epochProof'; readonly request: SubmitEpochProofRequest }
  | { readonly kind: 'inboxMessage'; readonly message: SimL1ToL2Message };

export interface TxRecord {
  readonly txHash: Hex;
  readonly publisher: Hex;
  readonly nonce: number;
  readonly fees: L1TxFees;
  readonly call: SimL1Call;
  readonly notBeforeBlock: bigint;
  /** The head block when it was sent (checkers read what was pending then). */
  readonly sentAfterBlock: bigint;
  state: 'pending' | 'included' | 'reorgedOut' | 'replaced';
  /** The transaction that replaced this one (state 'replaced'). */
  replacedBy?: Hex;
  inclusion?: { readonly blockNumber: bigint; readonly blockHash: Hex; readonly failure: SimL1TxFailure | undefined };
}

function txHashOf(publisher: Hex, nonce: number, fees: L1TxFees, call: SimL1Call): Hex {
  const feeFields = [fees.maxFeePerGas, fees.maxPriorityFeePerGas, fees.maxFeePerBlobGas ?? 'none'];
  const callFields =
    call.kind === 'propose'
      ? [
          'sim-l1-tx',
          publisher,
          nonce,
          call.request.checkpointNumber,
          call.request.slotNumber,
          call.request.archive,
          call.request.lastArchive,
          call.request.header,
          call.request.attestations,
          ...call.versionedHashes,
        ]
      : call.kind === 'epochProof'
        ? [
            'sim-l1-proof-tx',
            publisher,
            nonce,
            call.request.epoch,
            call.request.fromCheckpoint,
            call.request.toCheckpoint,
            call.request.endArchive,
            call.request.outHash,
            call.request.proof,
          ]
        : ['sim-l1-inbox-tx', publisher, nonce, call.message.recipient, call.message.content, call.message.secretHash];
  return bytesToHex(sha256(Buffer.from([...callFields, ...feeFields].join(':'), 'utf8')));
}

/** A transaction's prices as trace fields. */
export function feeFields(fees: L1TxFees): Record<string, bigint> {
  return {
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    ...(fees.maxFeePerBlobGas !== undefined ? { maxFeePerBlobGas: fees.maxFeePerBlobGas } : {}),
  };
}

export class L1Mempool {
  private readonly txs = new Map<Hex, TxRecord>();
  private readonly mempool: TxRecord[] = [];
  /** Each account's next nonce to mine: its transactions on the current chain. */
  private readonly minedNonces = new Map<Hex, number>();
  /** The base fees' multiplier (1 without a spike). */
  private feeSpikeFactor = 1;
  private inclusionDelay: SimL1InclusionDelay = { probability: 0, blocksMax: 0 };

  constructor(
    private readonly inclusionPrng: Prng,
    private readonly trace: Trace | undefined,
  ) {}

  setInclusionDelay(delay: SimL1InclusionDelay): void {
    checkedProbability(delay.probability, 'inclusion delay probability');
    assert(
      Number.isSafeInteger(delay.blocksMax) &&
        delay.blocksMax >= 0 &&
        delay.blocksMax <= SIM_L1_INCLUSION_DELAY_BLOCKS_MAX,
      `inclusion delay blocksMax ${delay.blocksMax} out of [0, SIM_L1_INCLUSION_DELAY_BLOCKS_MAX]`,
    );
    assert(
      delay.probability === 0 || delay.blocksMax >= 1,
      'a non-zero inclusion delay probability needs blocksMax >= 1',
    );
    this.inclusionDelay = { ...delay };
  }

  /** See SimL1.setFeeSpike. */
  setFeeSpike(factor: number): void {
    assert(
      Number.isSafeInteger(factor) && factor >= 1 && factor <= SIM_L1_FEE_SPIKE_FACTOR_MAX,
      `fee spike factor ${factor} out of [1, SIM_L1_FEE_SPIKE_FACTOR_MAX]`,
    );
    if (factor === this.feeSpikeFactor) return;
    this.feeSpikeFactor = factor;
    const market = this.feeMarket();
    this.trace?.record('l1.fees', {
      factor,
      baseFeePerGas: market.baseFeePerGas,
      blobBaseFeePerGas: market.blobBaseFeePerGas,
    });
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

  /** Every transaction ever sent, in sending order, whatever became of it. */
  sentTransactions(): readonly TxRecord[] {
    return [...this.txs.values()];
  }

  /** A transaction ever sent, whatever became of it. */
  tx(txHash: Hex): TxRecord | undefined {
    return this.txs.get(txHash);
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

  txStatus(txHash: Hex, visibleHead: bigint): L1TxStatus {
    const tx = this.txs.get(txHash);
    if (tx === undefined || tx.state === 'reorgedOut' || tx.state === 'replaced') return { status: 'unknown' };
    if (tx.state === 'pending' || tx.inclusion!.blockNumber > visibleHead) return { status: 'pending' };
    const { blockNumber, blockHash, failure } = tx.inclusion!;
    return { status: 'included', success: failure === undefined, blockNumber, blockHash };
  }

  /** The account's next nonce to mine as of the block a link sees, and counting its contiguous pending transactions. */
  accountNonces(account: Hex, visibleHead: bigint, chain: L1Chain): L1AccountNonces {
    let minedNonce = this.minedNonceOf(account);
    for (let n = chain.head().number; n > visibleHead; n--) {
      for (const txHash of chain.block(n)!.txHashes) if (this.txs.get(txHash)!.publisher === account) minedNonce--;
    }
    return { minedNonce, pendingNonce: this.pendingNonceOf(account) };
  }

  private minedNonceOf(account: Hex): number {
    return this.minedNonces.get(account) ?? 0;
  }

  /** The mined nonce plus the account's pending transactions at the nonces right after it. */
  pendingNonceOf(account: Hex): number {
    const held = new Set(this.mempool.filter((tx) => tx.publisher === account).map((tx) => tx.nonce));
    let nonce = this.minedNonceOf(account);
    while (held.has(nonce)) nonce++;
    return nonce;
  }

  /**
   * Admits a transaction at a nonce, replacing the account's pending one there if the replacement rule allows; it
   * may land from `nextBlock` on, or later if the inclusion delay draws so.
   */
  enqueue(publisher: Hex, nonce: number, fees: L1TxFees, call: SimL1Call, nextBlock: () => bigint): TxRecord {
    assert(Number.isSafeInteger(nonce) && nonce >= 0, `nonce ${nonce} must be a non-negative integer`);
    if (fees.maxPriorityFeePerGas > fees.maxFeePerGas)
      throw new L1Error('L1_TX_REJECTED', 'max priority fee per gas higher than max fee per gas');
    if (nonce < this.minedNonceOf(publisher))
      throw new L1Error('L1_TX_REJECTED', `nonce too low: ${nonce}, next nonce ${this.minedNonceOf(publisher)}`);
    const held = this.mempool.findIndex((tx) => tx.publisher === publisher && tx.nonce === nonce);
    const old = held === -1 ? undefined : this.mempool[held]!;
    if (old !== undefined && l1TxKindOf(old.fees) !== l1TxKindOf(fees)) {
      throw new L1Error(
        'L1_TX_KIND_CONFLICT',
        `nonce ${nonce} holds a ${l1TxKindOf(old.fees)} transaction; a ${l1TxKindOf(fees)} one cannot replace it`,
      );
    }
    if (old !== undefined && !satisfiesReplacementRule(old.fees, fees))
      throw new L1Error('L1_TX_UNDERPRICED', `replacement transaction underpriced at nonce ${nonce}`);
    if (old === undefined && this.mempool.length >= SIM_L1_MEMPOOL_TXS_MAX)
      throw new L1Error('L1_TX_REJECTED', 'L1 mempool full');
    const txHash = txHashOf(publisher, nonce, fees, call);
    if (this.txs.get(txHash)?.state === 'pending') throw new L1Error('L1_TX_REJECTED', 'already known');
    const tx: TxRecord = {
      txHash,
      publisher,
      nonce,
      fees,
      call,
      notBeforeBlock: this.drawInclusionBlock(nextBlock()),
      sentAfterBlock: nextBlock() - 1n,
      state: 'pending',
    };
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

  private drawInclusionBlock(next: bigint): bigint {
    const { probability, blocksMax } = this.inclusionDelay;
    if (probability === 0 || !this.inclusionPrng.bool(probability)) return next;
    return next + BigInt(this.inclusionPrng.int(1, blocksMax));
  }

  /**
   * The transactions of block `number`, in mempool order: each account's in nonce order from its next nonce, each one
   * whose inclusion delay is over and whose fee caps cover the block's base fees. A transaction that cannot go in
   * holds back its account's later nonces. Bounded: each pass takes at least one transaction or ends.
   */
  takeIncludable(number: bigint): TxRecord[] {
    const market = this.feeMarket();
    const next = new Map<Hex, number>();
    const nextOf = (account: Hex) => next.get(account) ?? this.minedNonceOf(account);
    const included: TxRecord[] = [];
    let waiting = this.mempool.slice();
    for (let progress = true; progress;) {
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

  /** The transactions of blocks a reorg dropped are gone (not returned to the mempool); their nonces are mined again. */
  reorgedOut(txHashes: readonly Hex[]): void {
    for (const txHash of txHashes) {
      const tx = this.txs.get(txHash)!;
      tx.state = 'reorgedOut';
      this.minedNonces.set(tx.publisher, this.minedNonceOf(tx.publisher) - 1);
    }
  }
}
