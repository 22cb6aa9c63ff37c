/**
 * How a publisher account sends its L1 transactions so that a stuck one never blocks the account: the nonce and
 * fees of each send (pure planning over what the account has in flight), and the send itself over a few narrow
 * operations both publishers provide (adapters/l1/viemL1Publisher.ts, sim/simL1.ts).
 *
 * A send of a kind (blob for proposals, plain for proofs) goes to the lowest nonce L1 has not mined that holds no
 * transaction of the other kind we know of. When that nonce holds our own pending transaction of the same kind, the
 * new request replaces it there with bumped fees (core/l1/l1TxFees.ts): a stale proposal of a past slot is replaced
 * by the current slot's instead of queueing the new one behind it. A nonce L1 counts as pending that we hold no
 * record of (sent before a restart) is replaced the same way from today's prices; when the L1 node refuses that as
 * underpriced, the refused fees are remembered as a floor, so the next attempt bumps above them.
 */
import { L1_TRACKED_TXS_MAX } from '../../spec/constants.js';
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import type { LoggerPort, MetricsEvent, MetricsPort } from '../ports.js';
import { L1Error } from './l1Error.js';
import {
  firstAttemptFees,
  isReplacementRefusal,
  replacementFees,
  type L1FeeMarket,
  type L1TxFees,
  type L1TxKind,
} from './l1TxFees.js';

/** One transaction of ours L1 has not mined (as far as we know), or the floor a refused attempt left at a nonce. */
export interface TrackedL1Tx {
  readonly nonce: number;
  readonly kind: L1TxKind;
  readonly fees: L1TxFees;
  /** Undefined for a floor: the L1 node refused our attempt there, the transaction it holds is not ours to name. */
  readonly txHash: Hex | undefined;
}

/** The account's nonces as the L1 node reports them. */
export interface L1AccountNonces {
  /** Transactions of the account in the latest block's state (the next nonce to mine). */
  readonly minedNonce: number;
  /** Counting the account's transactions waiting in the node's mempool too. */
  readonly pendingNonce: number;
}

export type L1TxPlan =
  | {
      readonly action: 'send';
      readonly nonce: number;
      readonly fees: L1TxFees;
      /** What the send replaces: our own transaction (or a floor), one we hold no record of, or nothing. */
      readonly replaces: TrackedL1Tx | 'unknown' | undefined;
    }
  | { readonly action: 'refuse'; readonly nonce: number; readonly replaces: TrackedL1Tx; readonly required: L1TxFees };

function checkNonces(nonces: L1AccountNonces): void {
  assert(
    Number.isSafeInteger(nonces.minedNonce) && nonces.minedNonce >= 0,
    `mined nonce ${nonces.minedNonce} is a non-negative integer`,
  );
  assert(
    Number.isSafeInteger(nonces.pendingNonce) && nonces.pendingNonce >= 0,
    `pending nonce ${nonces.pendingNonce} is a non-negative integer`,
  );
}

/**
 * The nonce and fees of the next send of `kind`. `tracked` are the account's transactions we know of that L1 has
 * not mined (nonce >= minedNonce), at most L1_TRACKED_TXS_MAX.
 */
export function planL1Tx(
  tracked: readonly TrackedL1Tx[],
  nonces: L1AccountNonces,
  market: L1FeeMarket,
  kind: L1TxKind,
): L1TxPlan {
  checkNonces(nonces);
  assert(
    tracked.length <= L1_TRACKED_TXS_MAX,
    `at most L1_TRACKED_TXS_MAX (${L1_TRACKED_TXS_MAX}) transactions are tracked`,
  );
  const byNonce = new Map(tracked.map((tx) => [tx.nonce, tx]));
  // Bounded: each step passes a tracked transaction of the other kind.
  for (let nonce = nonces.minedNonce; nonce <= nonces.minedNonce + L1_TRACKED_TXS_MAX; nonce++) {
    // A record at or above L1's pending nonce is of a transaction L1 no longer holds: an L1 reorg took it out of a
    // block without putting it back in the mempool, or the mempool dropped it. The nonce is free: replacing a
    // transaction that is not there would only double the fees each time (up to the cap, where the account stalls).
    const ours = nonce < nonces.pendingNonce ? byNonce.get(nonce) : undefined;
    if (ours === undefined) {
      const replaces = nonce < nonces.pendingNonce ? 'unknown' : undefined;
      return { action: 'send', nonce, fees: firstAttemptFees(market, kind), replaces };
    }
    if (ours.kind !== kind) continue;
    const fees = replacementFees(ours.fees, market, kind);
    if (isReplacementRefusal(fees)) {
      // Same kind by record, so only the cap refuses (a record's fees always have its kind's shape).
      if (fees.reason === 'kindMismatch') continue;
      return { action: 'refuse', nonce, replaces: ours, required: fees.required };
    }
    return { action: 'send', nonce, fees, replaces: ours };
  }
  throw new Error(`unreachable: more than L1_TRACKED_TXS_MAX (${L1_TRACKED_TXS_MAX}) tracked transactions`);
}

/** What a publisher needs from its L1 binding to send one request. */
export interface L1TxSendOperations {
  readonly kind: L1TxKind;
  /** For messages: 'propose', 'submitEpochProof'. */
  readonly what: string;
  readNonces(): Promise<L1AccountNonces>;
  readFeeMarket(): Promise<L1FeeMarket>;
  /** Signs and sends at this nonce and fees; an underpriced replacement throws L1Error('L1_TX_UNDERPRICED'). */
  send(nonce: number, fees: L1TxFees): Promise<Hex>;
}

/** Why a refused attempt was refused, as the tracker learns from it. */
export type L1SendRefusal = 'underpriced' | 'kindMismatch';

/**
 * The account's transactions in flight, kept by one publisher instance, and its sends, one at a time (so the
 * sequencer and a prover sharing the account never plan the same nonce). A restarted node starts empty and learns
 * the rest from the chain's nonces.
 */
export class L1TxTracker {
  private txs: TrackedL1Tx[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly logger?: LoggerPort,
    /** Told of every transaction the L1 node accepted, with its fees; absent: nothing is counted. */
    private readonly metrics?: MetricsPort,
  ) {}

  /** The transactions we know of that were not mined at the last send (tests, status). */
  inFlight(): readonly TrackedL1Tx[] {
    return this.txs;
  }

  /** Sends one request through `operations`, after every earlier send of this tracker has settled. */
  send(operations: L1TxSendOperations): Promise<{ readonly txHash: Hex }> {
    const result = this.queue.then(() => this.sendNow(operations));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Plans from the account's nonces and the market (forgetting what L1 has mined). */
  plan(nonces: L1AccountNonces, market: L1FeeMarket, kind: L1TxKind): L1TxPlan {
    this.txs = this.txs.filter((tx) => tx.nonce >= nonces.minedNonce);
    return planL1Tx(this.txs, nonces, market, kind);
  }

  /** Records a transaction the L1 node accepted. */
  recordSent(nonce: number, kind: L1TxKind, fees: L1TxFees, txHash: Hex): void {
    this.upsert({ nonce, kind, fees, txHash });
  }

  /** Records an attempt the L1 node refused at a nonce it holds another transaction at. */
  recordRefused(nonce: number, kind: L1TxKind, fees: L1TxFees, refusal: L1SendRefusal): void {
    const other: L1TxKind = kind === 'blob' ? 'plain' : 'blob';
    const held = this.txs.find((tx) => tx.nonce === nonce);
    // Underpriced: whatever is there pays at least about what we offered, so the next attempt bumps above it.
    // Wrong kind: the nonce holds the other kind, so sends of this kind pass it by.
    const floor =
      refusal === 'underpriced'
        ? { nonce, kind, fees, txHash: held?.txHash }
        : { nonce, kind: other, fees: asKind(fees, other), txHash: undefined };
    this.upsert(floor);
  }

  private upsert(tx: TrackedL1Tx): void {
    const others = this.txs.filter((t) => t.nonce !== tx.nonce);
    // Oldest nonces go first when full: they are the likeliest mined meanwhile.
    this.txs = [...others, tx].sort((a, b) => a.nonce - b.nonce).slice(-L1_TRACKED_TXS_MAX);
  }

  private async sendNow(operations: L1TxSendOperations): Promise<{ readonly txHash: Hex }> {
    const { kind, what } = operations;
    const [nonces, market] = await Promise.all([operations.readNonces(), operations.readFeeMarket()]);
    const plan = this.plan(nonces, market, kind);
    if (plan.action === 'refuse') {
      const fields = {
        nonce: plan.nonce,
        pendingTx: plan.replaces.txHash,
        required: feesForLog(plan.required),
        baseFeePerGas: market.baseFeePerGas.toString(),
      };
      this.logger?.warn(`${what} not sent: replacing the pending transaction would exceed the L1 fee cap`, fields);
      throw new L1Error(
        'L1_FEE_CAP_EXCEEDED',
        `${what} not sent: replacing the transaction pending at nonce ${plan.nonce} needs fees above the L1 fee cap`,
      );
    }
    try {
      const txHash = await operations.send(plan.nonce, plan.fees);
      this.recordSent(plan.nonce, kind, plan.fees, txHash);
      this.metrics?.report(sentEvent(what, plan.replaces !== undefined, plan.fees));
      if (plan.replaces !== undefined) {
        const replaced = plan.replaces === 'unknown' ? 'unknown' : plan.replaces.txHash;
        this.logger?.info(`${what} replaced the transaction pending at its nonce`, {
          nonce: plan.nonce,
          txHash,
          replaced,
          fees: feesForLog(plan.fees),
        });
      }
      return { txHash };
    } catch (error) {
      if (plan.replaces !== undefined && error instanceof L1Error && error.code === 'L1_TX_UNDERPRICED') {
        this.recordRefused(plan.nonce, kind, plan.fees, 'underpriced');
      } else if (plan.replaces !== undefined && error instanceof L1Error && error.code === 'L1_TX_KIND_CONFLICT') {
        this.recordRefused(plan.nonce, kind, plan.fees, 'kindMismatch');
      }
      throw error;
    }
  }
}

/** Fees reshaped to a kind: a blob transaction's with a blob price (0 when unknown), a plain one's without. */
function asKind(fees: L1TxFees, kind: L1TxKind): L1TxFees {
  const { maxFeePerGas, maxPriorityFeePerGas } = fees;
  return kind === 'blob'
    ? { maxFeePerGas, maxPriorityFeePerGas, maxFeePerBlobGas: fees.maxFeePerBlobGas ?? 0n }
    : { maxFeePerGas, maxPriorityFeePerGas };
}

/** What the metrics port is told of a transaction the L1 node accepted. */
function sentEvent(what: string, replaced: boolean, fees: L1TxFees): MetricsEvent {
  return {
    kind: 'l1TxSent',
    what,
    replaced,
    maxFeePerGasWei: fees.maxFeePerGas,
    maxPriorityFeePerGasWei: fees.maxPriorityFeePerGas,
    ...(fees.maxFeePerBlobGas !== undefined ? { maxFeePerBlobGasWei: fees.maxFeePerBlobGas } : {}),
  };
}

/** Fees as decimal strings, for logs. */
export function feesForLog(fees: L1TxFees): Record<string, string> {
  const out: Record<string, string> = {
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
  };
  if (fees.maxFeePerBlobGas !== undefined) out.maxFeePerBlobGas = fees.maxFeePerBlobGas.toString();
  return out;
}
