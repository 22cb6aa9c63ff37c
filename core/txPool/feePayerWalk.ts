/**
 * The fee payer balance walk: a payer's pending txs, highest priority first, each kept only if the balance still
 * covers it after the kept txs ranked above it. A tx that does not fit is left out and does not use up balance, so
 * a cheaper tx ranked lower may still fit. The kept txs together never cost more than the balance.
 *
 * Max costs are non-negative, so when all of a payer's txs together fit the balance the walk keeps every one of them
 * (each running sum is at most the total): `coversAll` answers that from the pool's per-payer total without walking.
 */
import type { Hex } from '../../spec/chain.js';
import { assert, AssertionError } from '../assert.js';
import { TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import { placeInOrder } from './priorityList.js';
import type { PooledTx } from './txPriority.js';

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

export interface WalkAdjustments {
  /** Txs of `ordered` left out of the walk (those a decision removes anyway). */
  readonly excluded?: ReadonlySet<Hex>;
  /** A tx walked at its place among `ordered` (a newcomer, not pooled yet). */
  readonly newcomer?: PooledTx;
}

/**
 * Walks `ordered` (one payer's txs, strictly in pool order, as the pool keeps them: txPool.ts, `feePayerTxsView`)
 * against `balance`, without the excluded txs and with the newcomer.
 */
export function walkFeePayerTxs(
  feePayer: Hex,
  ordered: readonly PooledTx[],
  balance: bigint,
  adjustments: WalkAdjustments = {},
): FeePayerWalk {
  assert(ordered.length <= TX_POOL_CAPACITY_MAX, 'a walk covers at most one pool and a newcomer');
  const { excluded, newcomer } = adjustments;
  const newcomerPlace = newcomer === undefined ? -1 : placeInOrder(ordered, newcomer);
  const uncovered: UncoveredTx[] = [];
  let committed = 0n;
  const visit = (pooled: PooledTx): void => {
    // Checked without building the message per tx: this loop is the walk's whole cost.
    if (pooled.tx.feePayer !== feePayer) throw new AssertionError(`tx ${pooled.txHash} is paid by ${feePayer}`);
    const needed = committed + pooled.maxCost;
    if (needed <= balance) committed = needed;
    else uncovered.push({ pooled, needed });
  };
  for (let index = 0; index < ordered.length; index++) {
    if (index === newcomerPlace) visit(newcomer!);
    const pooled = ordered[index]!;
    if (excluded === undefined || !excluded.has(pooled.txHash)) visit(pooled);
  }
  if (newcomerPlace === ordered.length) visit(newcomer!);
  return { feePayer, balance, uncovered, committed };
}
