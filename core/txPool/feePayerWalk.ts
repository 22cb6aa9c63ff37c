/**
 * The fee payer balance walk: a payer's pending txs, highest priority first, each kept only if the balance still
 * covers it after the kept txs ranked above it. A tx that does not fit is left out and does not use up balance, so
 * a cheaper tx ranked lower may still fit. The kept txs together never cost more than the balance.
 *
 * Max costs are non-negative, so when all of a payer's txs together fit the balance the walk keeps every one of them
 * (each running sum is at most the total): `coversAll` answers that from the pool's per-payer total without walking.
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import { comparePooledTxs, type PooledTx } from './txPriority.js';

export interface UncoveredTx {
  readonly pooled: PooledTx;
  /** What the kept txs ranked above it and this tx cost together (above the balance). */
  readonly needed: bigint;
}

export interface FeePayerWalk {
  readonly feePayer: Hex;
  readonly balance: bigint;
  readonly uncovered: readonly UncoveredTx[];
  /** What the kept txs may cost together (at most the balance). */
  readonly committed: bigint;
}

/** Whether txs costing `maxCostTotal` together all fit `balance`, so that a walk over them would keep every one. */
export function coversAll(maxCostTotal: bigint, balance: bigint): boolean {
  assert(maxCostTotal >= 0n, 'a max cost total is non-negative');
  return maxCostTotal <= balance;
}

/** Walks `txs` (one payer's, in pool order: the pool keeps each payer's txs so) against `balance`. */
export function walkFeePayerTxs(feePayer: Hex, txs: readonly PooledTx[], balance: bigint): FeePayerWalk {
  assert(txs.length <= TX_POOL_CAPACITY_MAX + 1, 'a walk covers at most one pool and a newcomer');
  const uncovered: UncoveredTx[] = [];
  let committed = 0n;
  let previous: PooledTx | undefined;
  for (const pooled of txs) {
    assert(pooled.tx.feePayer === feePayer, `tx ${pooled.txHash} is paid by ${feePayer}`);
    assert(previous === undefined || comparePooledTxs(previous, pooled) < 0, `walked txs are in pool order at ${pooled.txHash}`);
    previous = pooled;
    const needed = committed + pooled.maxCost;
    if (needed <= balance) committed = needed;
    else uncovered.push({ pooled, needed });
  }
  return { feePayer, balance, uncovered, committed };
}
