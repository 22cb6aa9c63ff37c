/**
 * The fee payer balance walk: a payer's pending txs, highest priority first, each kept only if the balance still
 * covers it after the kept txs ranked above it. A tx that does not fit is left out and does not use up balance, so
 * a cheaper tx ranked lower may still fit. The kept txs together never cost more than the balance.
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

/** Walks `txs` (one payer's, any order) against `balance`. */
export function walkFeePayerTxs(feePayer: Hex, txs: readonly PooledTx[], balance: bigint): FeePayerWalk {
  assert(txs.length <= TX_POOL_CAPACITY_MAX + 1, 'a walk covers at most one pool and a newcomer');
  const uncovered: UncoveredTx[] = [];
  let committed = 0n;
  for (const pooled of [...txs].sort(comparePooledTxs)) {
    assert(pooled.tx.feePayer === feePayer, `tx ${pooled.txHash} is paid by ${feePayer}`);
    const needed = committed + pooled.maxCost;
    if (needed <= balance) committed = needed;
    else uncovered.push({ pooled, needed });
  }
  return { feePayer, balance, uncovered, committed };
}
