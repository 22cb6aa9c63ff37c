import { describe, expect, it } from 'vitest';
import { feePayerOf, makeTx, nullifierOf, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import { decideAdmission, type AdmissionDecision } from './admitTx.js';
import { TxPool } from './txPool.js';
import { txRejectedError } from './txRejection.js';

const RICH = 10n ** 30n;

/** Decides and, when accepted, applies; the pool is verified after every step. */
function admit(pool: TxPool, spec: TxSpec, options: { balance?: bigint; bump?: number } = {}): AdmissionDecision {
  const decision = decideAdmission(pool, makeTx(spec), {
    feePayerBalance: options.balance ?? RICH,
    priceBumpPercentage: options.bump ?? 10,
  });
  if (decision.kind === 'accepted') pool.apply(decision.change);
  pool.verify();
  return decision;
}

describe('decideAdmission', () => {
  it('accepts a tx into an empty pool', () => {
    const pool = TxPool.empty();
    const decision = admit(pool, { hash: 1 });
    expect(decision).toMatchObject({ kind: 'accepted', txHash: txHashOf(1), removed: [] });
    expect(pool.count).toBe(1);
    expect(pool.get(txHashOf(1))?.arrivalSequence).toBe(0);
  });

  it('answers a tx already pooled as such, changing nothing', () => {
    const pool = TxPool.empty();
    admit(pool, { hash: 1 });
    const revision = pool.revision;
    expect(admit(pool, { hash: 1, priorityFee: 999n })).toEqual({ kind: 'alreadyPooled', txHash: txHashOf(1) });
    expect(pool.revision).toBe(revision);
  });

  describe('NULLIFIER_CONFLICT', () => {
    it('names the conflicting tx, the shared nullifier and the least fee that replaces it', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, nullifiers: [7, 8], priorityFee: 100n });
      const decision = admit(pool, { hash: 2, nullifiers: [9, 8], priorityFee: 109n });
      expect(decision).toEqual({
        kind: 'rejected',
        txHash: txHashOf(2),
        rejection: {
          code: 'NULLIFIER_CONFLICT',
          details: {
            txHash: txHashOf(2),
            priorityFee: 109n,
            nullifier: nullifierOf(8),
            conflictingTxHash: txHashOf(1),
            conflictingPriorityFee: 100n,
            conflictingTxCount: 1,
            minimumPriorityFee: 110n,
            priceBumpPercentage: 10,
          },
        },
      });
      expect(pool.count).toBe(1);
    });

    it('replaces the conflicting tx at exactly the bump', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, priorityFee: 100n, nullifiers: [7] });
      const decision = admit(pool, { hash: 2, priorityFee: 110n, nullifiers: [7] });
      expect(decision).toMatchObject({
        kind: 'accepted',
        removed: [
          {
            txHash: txHashOf(1),
            reason: 'replaced',
            byTxHash: txHashOf(2),
            priorityFee: 100n,
            replacementPriorityFee: 110n,
          },
        ],
      });
      expect(pool.ordered().map((p) => p.txHash)).toEqual([txHashOf(2)]);
    });

    it('must outbid every conflicting tx; the figures name the one that demands most', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, priorityFee: 50n, nullifiers: [1] });
      admit(pool, { hash: 2, priorityFee: 200n, nullifiers: [2] });
      const rejected = admit(pool, { hash: 3, priorityFee: 219n, nullifiers: [1, 2] });
      expect(rejected).toMatchObject({
        kind: 'rejected',
        rejection: {
          code: 'NULLIFIER_CONFLICT',
          details: {
            conflictingTxHash: txHashOf(2),
            conflictingTxCount: 2,
            minimumPriorityFee: 220n,
            nullifier: nullifierOf(2),
          },
        },
      });
      const accepted = admit(pool, { hash: 3, priorityFee: 220n, nullifiers: [1, 2] });
      expect(accepted.kind === 'accepted' && accepted.removed.map((r) => r.txHash)).toEqual([txHashOf(2), txHashOf(1)]);
      expect(pool.count).toBe(1);
    });

    it('with a 0% bump still needs a strictly higher fee', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, priorityFee: 100n, nullifiers: [7] }, { bump: 0 });
      expect(admit(pool, { hash: 2, priorityFee: 100n, nullifiers: [7] }, { bump: 0 })).toMatchObject({
        rejection: { details: { minimumPriorityFee: 101n, priceBumpPercentage: 0 } },
      });
      expect(admit(pool, { hash: 2, priorityFee: 101n, nullifiers: [7] }, { bump: 0 }).kind).toBe('accepted');
    });

    it('asks at least one more when the percentage rounds down to nothing, and outbids a zero fee with one', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, priorityFee: 5n, nullifiers: [1] });
      admit(pool, { hash: 2, priorityFee: 0n, nullifiers: [2] });
      expect(admit(pool, { hash: 3, priorityFee: 5n, nullifiers: [1] })).toMatchObject({
        rejection: { details: { minimumPriorityFee: 6n } },
      });
      expect(admit(pool, { hash: 4, priorityFee: 0n, nullifiers: [2] })).toMatchObject({
        rejection: { details: { minimumPriorityFee: 1n } },
      });
      expect(admit(pool, { hash: 4, priorityFee: 1n, nullifiers: [2] }).kind).toBe('accepted');
    });
  });

  describe('LOW_PRIORITY_FEE', () => {
    it('refuses a newcomer to a full pool that does not outbid the lowest tx by the bump', () => {
      const pool = TxPool.empty(2);
      admit(pool, { hash: 1, priorityFee: 50n });
      admit(pool, { hash: 2, priorityFee: 20n });
      expect(admit(pool, { hash: 3, priorityFee: 21n })).toEqual({
        kind: 'rejected',
        txHash: txHashOf(3),
        rejection: {
          code: 'LOW_PRIORITY_FEE',
          details: {
            txHash: txHashOf(3),
            priorityFee: 21n,
            lowestTxHash: txHashOf(2),
            lowestPriorityFee: 20n,
            minimumPriorityFee: 22n,
            priceBumpPercentage: 10,
            capacity: 2,
          },
        },
      });
    });

    it('evicts the lowest tx for a newcomer that outbids it', () => {
      const pool = TxPool.empty(2);
      admit(pool, { hash: 1, priorityFee: 50n });
      admit(pool, { hash: 2, priorityFee: 20n });
      expect(admit(pool, { hash: 3, priorityFee: 22n })).toMatchObject({
        kind: 'accepted',
        removed: [
          {
            txHash: txHashOf(2),
            reason: 'poolFull',
            byTxHash: txHashOf(3),
            priorityFee: 20n,
            newcomerPriorityFee: 22n,
          },
        ],
      });
      expect(pool.ordered().map((p) => p.txHash)).toEqual([txHashOf(1), txHashOf(3)]);
    });

    it('needs no eviction when a replacement frees the room', () => {
      const pool = TxPool.empty(1);
      admit(pool, { hash: 1, priorityFee: 10n, nullifiers: [1] });
      expect(admit(pool, { hash: 2, priorityFee: 11n, nullifiers: [1] })).toMatchObject({
        kind: 'accepted',
        removed: [{ reason: 'replaced' }],
      });
    });
  });

  describe('INSUFFICIENT_FEE_PAYER_BALANCE', () => {
    // Cost = daGas * 1 + l2Gas * priorityFee with the fixture's fees.
    it('refuses a tx its payer cannot cover after its higher-priority txs, with balance and amount needed', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, feePayer: 1, priorityFee: 20n, daGas: 0, l2Gas: 3 }, { balance: 100n }); // costs 60
      expect(admit(pool, { hash: 2, feePayer: 1, priorityFee: 10n, daGas: 0, l2Gas: 5 }, { balance: 100n })).toEqual({
        kind: 'rejected',
        txHash: txHashOf(2),
        rejection: {
          code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
          details: { txHash: txHashOf(2), feePayer: feePayerOf(1), balance: 100n, needed: 110n, txMaxCost: 50n },
        },
      });
    });

    it('counts the DA dimension of the max cost', () => {
      const pool = TxPool.empty();
      const decision = admit(
        pool,
        { hash: 1, priorityFee: 2n, l2Gas: 10, daGas: 7, maxFeePerDaGas: 3n },
        { balance: 40n },
      );
      expect(decision).toMatchObject({
        rejection: { code: 'INSUFFICIENT_FEE_PAYER_BALANCE', details: { needed: 41n, txMaxCost: 41n } },
      });
    });

    it('accepts a higher-priority tx and evicts the payer txs it leaves uncovered', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, feePayer: 1, priorityFee: 10n, daGas: 0, l2Gas: 6 }, { balance: 100n }); // costs 60
      const decision = admit(pool, { hash: 2, feePayer: 1, priorityFee: 20n, daGas: 0, l2Gas: 3 }, { balance: 100n }); // costs 60
      expect(decision).toMatchObject({
        kind: 'accepted',
        removed: [
          { txHash: txHashOf(1), reason: 'feePayerBalance', feePayer: feePayerOf(1), balance: 100n, needed: 120n },
        ],
      });
    });

    it('does not count the txs a replacement removes', () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, feePayer: 1, priorityFee: 10n, daGas: 0, l2Gas: 9, nullifiers: [1] }, { balance: 100n }); // costs 90
      expect(
        admit(pool, { hash: 2, feePayer: 1, priorityFee: 11n, daGas: 0, l2Gas: 9, nullifiers: [1] }, { balance: 100n }),
      ).toMatchObject({
        kind: 'accepted',
        removed: [{ reason: 'replaced' }],
      });
    });

    it("leaves other payers' txs out of the walk", () => {
      const pool = TxPool.empty();
      admit(pool, { hash: 1, feePayer: 1, priorityFee: 10n, daGas: 0, l2Gas: 9 }, { balance: 90n });
      expect(admit(pool, { hash: 2, feePayer: 2, priorityFee: 10n, daGas: 0, l2Gas: 9 }, { balance: 90n }).kind).toBe(
        'accepted',
      );
    });
  });

  it('turns a rejection into an error carrying the code and figures', () => {
    const pool = TxPool.empty(1);
    admit(pool, { hash: 1, priorityFee: 10n });
    const decision = admit(pool, { hash: 2, priorityFee: 10n });
    if (decision.kind !== 'rejected') throw new Error('expected a rejection');
    const error = txRejectedError(decision.rejection);
    expect(error.code).toBe('LOW_PRIORITY_FEE');
    expect(error.details).toMatchObject({ minimumPriorityFee: 11n });
    expect(error.shortMessage).toContain('at least 11');
  });

  it('refuses to apply a decision computed against an older revision', () => {
    const pool = TxPool.empty();
    const first = decideAdmission(pool, makeTx({ hash: 1 }), { feePayerBalance: RICH, priceBumpPercentage: 10 });
    const second = decideAdmission(pool, makeTx({ hash: 2 }), { feePayerBalance: RICH, priceBumpPercentage: 10 });
    if (first.kind !== 'accepted' || second.kind !== 'accepted') throw new Error('expected acceptances');
    pool.apply(first.change);
    expect(() => pool.apply(second.change)).toThrow(/revision/);
  });
});
