import { describe, expect, it } from 'vitest';
import { feePayerOf, makeTx, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import { coversAll, walkFeePayerTxs } from './feePayerWalk.js';
import { toPooledTx, type PooledTx } from './txPriority.js';

const PAYER = feePayerOf(1);
/** With no DA gas, a fixture tx costs l2Gas x priorityFee. */
const pooled = (spec: TxSpec, arrivalSequence: number): PooledTx =>
  toPooledTx(makeTx({ feePayer: 1, daGas: 0, ...spec }), arrivalSequence);

// Pool order A (fee 30, costs 30), B (fee 20, costs 40), C (fee 10, costs 30).
const a = pooled({ hash: 1, priorityFee: 30n, l2Gas: 1 }, 0);
const b = pooled({ hash: 2, priorityFee: 20n, l2Gas: 2 }, 1);
const c = pooled({ hash: 3, priorityFee: 10n, l2Gas: 3 }, 2);

describe('walkFeePayerTxs', () => {
  it('keeps each tx the balance still covers, skipping one that does not without using up balance', () => {
    const walk = walkFeePayerTxs(PAYER, [a, b, c], 65n);
    expect(walk.uncovered.map((entry) => [entry.pooled.txHash, entry.needed])).toEqual([[txHashOf(2), 70n]]);
    expect(walk.committed).toBe(60n);
  });

  it('walks a newcomer at its place in the order and leaves the excluded txs out', () => {
    const newcomer = pooled({ hash: 4, priorityFee: 25n, l2Gas: 2 }, 3); // costs 50, ranks between A and B
    const walk = walkFeePayerTxs(PAYER, [a, b, c], 100n, { newcomer, excluded: new Set([a.txHash]) });
    expect(walk.uncovered.map((entry) => [entry.pooled.txHash, entry.needed])).toEqual([[txHashOf(3), 120n]]);
    expect(walk.committed).toBe(90n);
    const withA = walkFeePayerTxs(PAYER, [a, b, c], 100n, { newcomer });
    expect(withA.uncovered.map((entry) => [entry.pooled.txHash, entry.needed])).toEqual([
      [txHashOf(2), 120n],
      [txHashOf(3), 110n],
    ]);
  });

  it('walks a newcomer ranked below every pooled tx last', () => {
    const newcomer = pooled({ hash: 4, priorityFee: 5n, l2Gas: 1 }, 3);
    const walk = walkFeePayerTxs(PAYER, [a, b, c], 100n, { newcomer });
    expect(walk.uncovered.map((entry) => [entry.pooled.txHash, entry.needed])).toEqual([[txHashOf(4), 105n]]);
  });

  it('coversAll holds exactly when the total is at most the balance', () => {
    expect(coversAll(100n, 100n)).toBe(true);
    expect(coversAll(101n, 100n)).toBe(false);
    expect(coversAll(0n, 0n)).toBe(true);
  });
});
