/**
 * The fees of the node's L1 transactions (checkpoint proposals, epoch proofs): what a first attempt offers, and what
 * a replacement of a pending transaction at the same nonce must offer so that an L1 node's mempool takes it. Pure:
 * the fee market as the L1 node reports it in, the fees out. Both publishers (adapters/l1/viemL1Publisher.ts and the
 * simulator's) price through here, so the simulated L1 exercises the same policy that production runs.
 *
 * Replacement rules follow geth's pools. The ordinary pool (legacypool) takes a replacement whose fee cap and tip
 * both exceed the old ones and reach at least old x (100 + 10) / 100. The blob pool takes a blob transaction only
 * in place of a blob transaction, and applies its own 100% bump to all three prices (fee cap, tip and blob fee cap),
 * so a blob replacement at least doubles each. Fees never exceed L1_MAX_FEE_PER_GAS_CAP_WEI and
 * L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI: a replacement that would need more is not sent.
 */

import { L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI, L1_MAX_FEE_PER_GAS_CAP_WEI } from '../../spec/constants.js';
import { assert } from '../assert.js';

/**
 * Headroom of a first attempt over the pending block's base fee: maxFeePerGas = 2 x base fee + tip. A base fee rises
 * by at most 12.5% per full block, so doubling keeps the transaction includable through about six full blocks.
 */
export const L1_BASE_FEE_HEADROOM_MULTIPLIER = 2n;
/** Headroom of a first attempt over the blob base fee: maxFeePerBlobGas = 2 x blob base fee. */
export const L1_BLOB_BASE_FEE_HEADROOM_MULTIPLIER = 2n;
/** Least raise, in percent, of both the fee cap and the tip of a replacement of an ordinary transaction (geth). */
export const L1_REPLACEMENT_BUMP_PERCENT = 10n;
/** Least raise, in percent, of the fee cap, the tip and the blob fee cap of a replacement of a blob transaction. */
export const L1_BLOB_REPLACEMENT_BUMP_PERCENT = 100n;
/** An L1 transaction's type as the mempool's rules see it. */
export type L1TxKind = 'blob' | 'plain';

/** The fee market of the block a transaction would go in, as the L1 node reports it (wei). */
export interface L1FeeMarket {
  /** The pending block's base fee per gas. */
  readonly baseFeePerGas: bigint;
  /** The blob base fee (only blob transactions pay it). */
  readonly blobBaseFeePerGas: bigint;
  /** The node's estimate of the tip that gets a transaction included (eth_maxPriorityFeePerGas). */
  readonly priorityFeePerGas: bigint;
}

/** The prices a transaction offers (wei); maxFeePerBlobGas is present exactly on blob transactions. */
export interface L1TxFees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
  readonly maxFeePerBlobGas?: bigint;
}

/** Why a replacement cannot be priced. */
export type L1ReplacementRefusal =
  /** The least fees the mempool would take exceed the node's cap. */
  | { readonly reason: 'feeCapExceeded'; readonly required: L1TxFees }
  /** A blob transaction only replaces a blob transaction, and an ordinary one only an ordinary one. */
  | { readonly reason: 'kindMismatch' };

function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function maxBigint(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function checkMarket(market: L1FeeMarket): void {
  const { baseFeePerGas, blobBaseFeePerGas, priorityFeePerGas } = market;
  assert(
    baseFeePerGas >= 0n && blobBaseFeePerGas >= 0n && priorityFeePerGas >= 0n,
    `an L1 fee market has no negative price (${baseFeePerGas}, ${blobBaseFeePerGas}, ${priorityFeePerGas})`,
  );
}

/** The kind of a transaction offering these fees. */
export function l1TxKindOf(fees: L1TxFees): L1TxKind {
  return fees.maxFeePerBlobGas === undefined ? 'plain' : 'blob';
}

/**
 * The fees of a first attempt: tip = the estimate, maxFeePerGas = headroom x base fee + tip, and for a blob
 * transaction maxFeePerBlobGas = headroom x blob base fee; each capped (and the tip never above the fee cap).
 */
export function firstAttemptFees(market: L1FeeMarket, kind: L1TxKind): L1TxFees {
  checkMarket(market);
  const maxFeePerGas = minBigint(
    L1_MAX_FEE_PER_GAS_CAP_WEI,
    market.baseFeePerGas * L1_BASE_FEE_HEADROOM_MULTIPLIER + market.priorityFeePerGas,
  );
  const maxPriorityFeePerGas = minBigint(maxFeePerGas, market.priorityFeePerGas);
  if (kind === 'plain') return { maxFeePerGas, maxPriorityFeePerGas };
  const maxFeePerBlobGas = minBigint(
    L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI,
    market.blobBaseFeePerGas * L1_BLOB_BASE_FEE_HEADROOM_MULTIPLIER,
  );
  return { maxFeePerGas, maxPriorityFeePerGas, maxFeePerBlobGas };
}

/** The least price above `old` that a bump of `percent` accepts: more than old, and at least old x (100 + percent) / 100. */
function bumped(old: bigint, percent: bigint): bigint {
  const scaled = old * (100n + percent);
  const ceiling = scaled / 100n + (scaled % 100n === 0n ? 0n : 1n);
  return maxBigint(old + 1n, ceiling);
}

/** The replacement bump of a transaction kind, in percent. */
export function replacementBumpPercent(kind: L1TxKind): bigint {
  return kind === 'blob' ? L1_BLOB_REPLACEMENT_BUMP_PERCENT : L1_REPLACEMENT_BUMP_PERCENT;
}

/** The least fees a mempool takes in place of a pending transaction offering `old` (uncapped). */
export function minimumReplacementFees(old: L1TxFees): L1TxFees {
  const percent = replacementBumpPercent(l1TxKindOf(old));
  const least = {
    maxFeePerGas: bumped(old.maxFeePerGas, percent),
    maxPriorityFeePerGas: bumped(old.maxPriorityFeePerGas, percent),
  };
  return old.maxFeePerBlobGas === undefined
    ? least
    : { ...least, maxFeePerBlobGas: bumped(old.maxFeePerBlobGas, percent) };
}

/** Whether a mempool holding a transaction offering `old` takes one offering `next` at the same nonce in its place. */
export function satisfiesReplacementRule(old: L1TxFees, next: L1TxFees): boolean {
  if (l1TxKindOf(old) !== l1TxKindOf(next)) return false;
  const least = minimumReplacementFees(old);
  return (
    next.maxFeePerGas >= least.maxFeePerGas &&
    next.maxPriorityFeePerGas >= least.maxPriorityFeePerGas &&
    (least.maxFeePerBlobGas === undefined || next.maxFeePerBlobGas! >= least.maxFeePerBlobGas)
  );
}

/** Whether any price exceeds the node's caps. */
export function exceedsFeeCaps(fees: L1TxFees): boolean {
  return (
    fees.maxFeePerGas > L1_MAX_FEE_PER_GAS_CAP_WEI || (fees.maxFeePerBlobGas ?? 0n) > L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI
  );
}

/**
 * The fees of a replacement of a pending transaction that offered `old`: each price is the larger of a first
 * attempt's at today's market and the least the replacement rule takes, capped. Refused when the rule needs more
 * than the cap, or when the kinds differ.
 */
export function replacementFees(old: L1TxFees, market: L1FeeMarket, kind: L1TxKind): L1TxFees | L1ReplacementRefusal {
  if (l1TxKindOf(old) !== kind) return { reason: 'kindMismatch' };
  const least = minimumReplacementFees(old);
  if (exceedsFeeCaps(least)) return { reason: 'feeCapExceeded', required: least };
  const fresh = firstAttemptFees(market, kind);
  const maxFeePerGas = minBigint(L1_MAX_FEE_PER_GAS_CAP_WEI, maxBigint(fresh.maxFeePerGas, least.maxFeePerGas));
  // The least tip is at most the least fee cap (it bumps a tip no larger than the old cap), so it fits under it.
  const maxPriorityFeePerGas = minBigint(
    maxFeePerGas,
    maxBigint(fresh.maxPriorityFeePerGas, least.maxPriorityFeePerGas),
  );
  if (least.maxFeePerBlobGas === undefined) return { maxFeePerGas, maxPriorityFeePerGas };
  const maxFeePerBlobGas = minBigint(
    L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI,
    maxBigint(fresh.maxFeePerBlobGas!, least.maxFeePerBlobGas),
  );
  return { maxFeePerGas, maxPriorityFeePerGas, maxFeePerBlobGas };
}

/** Whether these fees get a transaction into a block with this market: the fee caps cover the base fees. */
export function coversBaseFees(
  fees: L1TxFees,
  market: Pick<L1FeeMarket, 'baseFeePerGas' | 'blobBaseFeePerGas'>,
): boolean {
  return (
    fees.maxFeePerGas >= market.baseFeePerGas &&
    (fees.maxFeePerBlobGas === undefined || fees.maxFeePerBlobGas >= market.blobBaseFeePerGas)
  );
}

/** Whether a replacement answer is a refusal. */
export function isReplacementRefusal(value: L1TxFees | L1ReplacementRefusal): value is L1ReplacementRefusal {
  return 'reason' in value;
}
