/**
 * How the pool ranks txs and prices replacements (docs/protocol.md, Priority and replacement).
 *
 * - Priority fee = min(maxFeesPerGas.feePerL2Gas, maxPriorityFeesPerGas.feePerL2Gas).
 * - Order: higher priority fee first; equal fees by arrival in the pool (earlier first); then by tx hash, so the
 *   order is total and the same on every node that saw the same arrivals.
 * - Outbidding a pooled tx (replacement, or eviction from a full pool) needs a priority fee of at least
 *   old + max(1, floor(old * bump / 100)): with bump 0 a strictly higher fee is still required.
 * - A tx's maximum cost = gasLimits.daGas * maxFeesPerGas.feePerDaGas + gasLimits.l2Gas * maxFeesPerGas.feePerL2Gas.
 */
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { assert } from '../assert.js';

/** A tx held by the pool, with the figures the pool ranks and prices it by. */
export interface PooledTx {
  readonly tx: TxValue;
  readonly txHash: Hex;
  /** Position in the pool's arrival order: unique within a pool, never reused. */
  readonly arrivalSequence: number;
  readonly priorityFee: bigint;
  /** The most the tx can charge its fee payer, in fee-asset units. */
  readonly maxCost: bigint;
}

const PERCENT = 100n;

export function txPriorityFee(tx: TxValue): bigint {
  const { maxFeesPerGas, maxPriorityFeesPerGas } = tx.gasSettings;
  return minBigint(maxFeesPerGas.feePerL2Gas, maxPriorityFeesPerGas.feePerL2Gas);
}

export function txMaxCost(tx: TxValue): bigint {
  const { gasLimits, maxFeesPerGas } = tx.gasSettings;
  return BigInt(gasLimits.daGas) * maxFeesPerGas.feePerDaGas + BigInt(gasLimits.l2Gas) * maxFeesPerGas.feePerL2Gas;
}

export function toPooledTx(tx: TxValue, arrivalSequence: number): PooledTx {
  assert(
    Number.isSafeInteger(arrivalSequence) && arrivalSequence >= 0,
    `arrival sequence ${arrivalSequence} is a safe non-negative integer`,
  );
  return { tx, txHash: tx.txHash, arrivalSequence, priorityFee: txPriorityFee(tx), maxCost: txMaxCost(tx) };
}

/** The least priority fee that outbids a pooled tx paying `pooledPriorityFee`, with `bumpPercentage` (>= 0). */
export function minimumOutbiddingFee(pooledPriorityFee: bigint, bumpPercentage: number): bigint {
  assert(
    Number.isSafeInteger(bumpPercentage) && bumpPercentage >= 0,
    `price bump ${bumpPercentage}% is a non-negative integer`,
  );
  assert(pooledPriorityFee >= 0n, 'priority fees are non-negative');
  const bump = (pooledPriorityFee * BigInt(bumpPercentage)) / PERCENT;
  return pooledPriorityFee + (bump > 1n ? bump : 1n);
}

/** Pool order: negative when `a` ranks above (is served before) `b`. Zero only for the same tx. */
export function comparePooledTxs(a: PooledTx, b: PooledTx): number {
  if (a.priorityFee !== b.priorityFee) return a.priorityFee > b.priorityFee ? -1 : 1;
  if (a.arrivalSequence !== b.arrivalSequence) return a.arrivalSequence - b.arrivalSequence;
  if (a.txHash === b.txHash) return 0;
  return a.txHash < b.txHash ? -1 : 1;
}

export function ranksAbove(a: PooledTx, b: PooledTx): boolean {
  return comparePooledTxs(a, b) < 0;
}

function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
