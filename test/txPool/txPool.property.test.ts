/**
 * The pool's rules, stated for all histories (docs/protocol.md, Priority and replacement; Pool): replacement needs
 * the bump, no two pooled txs share a nullifier, the pool stays within its capacity, an admission leaves its payer's
 * txs covered, no tx is evicted for a lower-priority one, maintenance leaves only includable txs, a prune accounts
 * for every returning tx, and paging visits every pending tx once in priority order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAdmission } from '../../core/txPool/admitTx.js';
import { TxPool } from '../../core/txPool/txPool.js';
import { pendingTxPage } from '../../core/txPool/txPoolQueries.js';
import type { PooledTx } from '../../core/txPool/txPriority.js';
import type { Hex } from '../../spec/chain.js';
import { fixtureMaxCost, makeTx, txSpecArbitrary } from './txFixtures.js';
import { poolHistoryArbitrary, runOperations, type PoolStep } from './poolOperations.js';

const RUNS = 200;

/** The bump rule restated: new - old >= 1 and (new - old) * 100 >= old * bump rounded down to a multiple of 100. */
function outbids(newFee: bigint, oldFee: bigint, bump: number): boolean {
  const scaled = oldFee * BigInt(bump);
  return newFee - oldFee >= 1n && (newFee - oldFee) * 100n >= scaled - (scaled % 100n);
}

/** Runs random histories and checks `check` after every step. */
async function forAllHistories(check: (step: PoolStep, pool: TxPool) => void, runs = RUNS): Promise<void> {
  await fc.assert(
    fc.asyncProperty(poolHistoryArbitrary, async ({ capacity, operations }) => {
      await runOperations(TxPool.empty(capacity), operations, { onStep: check });
    }),
    { numRuns: runs },
  );
}

describe('replacement', () => {
  it('is accepted if and only if the fee meets the bump over the pooled tx', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.integer({ min: 0, max: 500 }),
        (oldFee, newFee, bump) => {
          const pool = TxPool.empty(2);
          const first = decideAdmission(pool, makeTx({ hash: 1, priorityFee: oldFee, nullifiers: [1] }), {
            feePayerBalance: 10n ** 30n,
            priceBumpPercentage: bump,
          });
          if (first.kind !== 'accepted') throw new Error('first tx accepted');
          pool.apply(first.change);
          const second = decideAdmission(pool, makeTx({ hash: 2, priorityFee: newFee, nullifiers: [1, 2] }), {
            feePayerBalance: 10n ** 30n,
            priceBumpPercentage: bump,
          });
          expect(second.kind === 'accepted').toBe(outbids(newFee, oldFee, bump));
          if (second.kind === 'rejected')
            expect(second.rejection).toMatchObject({
              code: 'NULLIFIER_CONFLICT',
              details: { conflictingPriorityFee: oldFee },
            });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('with a 0% bump needs strictly more: an equal fee is refused, one more is enough', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), (fee) => {
        const pool = TxPool.empty();
        const context = { feePayerBalance: 10n ** 40n, priceBumpPercentage: 0 };
        const first = decideAdmission(pool, makeTx({ hash: 1, priorityFee: fee, nullifiers: [1] }), context);
        if (first.kind !== 'accepted') throw new Error('first tx accepted');
        pool.apply(first.change);
        expect(decideAdmission(pool, makeTx({ hash: 2, priorityFee: fee, nullifiers: [1] }), context)).toMatchObject({
          rejection: { code: 'NULLIFIER_CONFLICT', details: { minimumPriorityFee: fee + 1n } },
        });
        expect(decideAdmission(pool, makeTx({ hash: 2, priorityFee: fee + 1n, nullifiers: [1] }), context).kind).toBe(
          'accepted',
        );
      }),
    );
  });

  it('in any pool, a nullifier conflict is refused exactly when some conflicting tx is not outbid', async () => {
    await forAllHistories((step) => {
      if (step.kind !== 'admit' || step.decision.kind === 'alreadyPooled') return;
      const { decision } = step;
      const replaced = decision.kind === 'accepted' ? decision.removed.filter((r) => r.reason === 'replaced') : [];
      for (const removal of replaced)
        expect(outbids(removal.replacementPriorityFee, removal.priorityFee, step.bump)).toBe(true);
      if (decision.kind === 'rejected' && decision.rejection.code === 'NULLIFIER_CONFLICT') {
        const { details } = decision.rejection;
        expect(outbids(details.priorityFee, details.conflictingPriorityFee, step.bump)).toBe(false);
        expect(outbids(details.minimumPriorityFee, details.conflictingPriorityFee, step.bump)).toBe(true);
        expect(outbids(details.minimumPriorityFee - 1n, details.conflictingPriorityFee, step.bump)).toBe(false);
      }
    });
  });
});

describe('pool invariants over random histories', () => {
  it('never holds two txs sharing a nullifier', async () => {
    await forAllHistories((_step, pool) => {
      const nullifiers = pool.ordered().flatMap((p) => [...new Set(p.tx.sideEffects.nullifiers)]);
      expect(new Set(nullifiers).size).toBe(nullifiers.length);
    });
  });

  it('never exceeds its capacity', async () => {
    await forAllHistories((_step, pool) => expect(pool.count).toBeLessThanOrEqual(pool.capacity));
  });

  it("after an admission, the payer's pending txs are covered by the balance it used", async () => {
    await forAllHistories((step, pool) => {
      if (step.kind !== 'admit' || step.decision.kind !== 'accepted') return;
      const payerTxs = pool.feePayerTxs(step.tx.feePayer);
      expect(payerTxs.some((p) => p.txHash === step.tx.txHash)).toBe(true);
      expect(payerTxs.reduce((sum, p) => sum + fixtureMaxCost(p.tx), 0n)).toBeLessThanOrEqual(step.balance);
    });
  });

  it('never evicts a tx for a lower-priority one', async () => {
    await forAllHistories((step) => {
      if (step.kind !== 'admit' || step.decision.kind !== 'accepted') return;
      for (const removal of step.decision.removed) {
        if (removal.reason === 'poolFull')
          expect(outbids(removal.newcomerPriorityFee, removal.priorityFee, step.bump)).toBe(true);
        if (removal.reason === 'replaced') expect(removal.replacementPriorityFee).toBeGreaterThan(removal.priorityFee);
      }
    });
  });

  it('a rejection or a repeat leaves the pool as it was', async () => {
    await forAllHistories((step, pool) => {
      if (step.kind !== 'admit' || step.decision.kind === 'accepted') return;
      expect(pool.ordered().map((p) => p.txHash)).toEqual(step.before);
    });
  });

  it('after blocks, every pooled tx is includable, and payers given a balance are covered', async () => {
    await forAllHistories((step, pool) => {
      if (step.kind !== 'blocks') return;
      const { input } = step;
      for (const { tx, txHash } of pool.ordered()) {
        expect(input.minedTxHashes).not.toContain(txHash);
        expect(tx.sideEffects.nullifiers.some((n) => input.minedNullifiers.has(n))).toBe(false);
        expect(input.unavailableAnchorBlockHashes.has(tx.anchorBlockHash)).toBe(false);
        expect(tx.expirationTimestamp).toBeGreaterThanOrEqual(input.nextSlotTimestamp);
        expect(tx.gasSettings.maxFeesPerGas.feePerL2Gas).toBeGreaterThanOrEqual(input.minFeesPerGas.feePerL2Gas);
        expect(tx.gasSettings.maxFeesPerGas.feePerDaGas).toBeGreaterThanOrEqual(input.minFeesPerGas.feePerDaGas);
      }
      for (const [payer, balance] of input.feePayerBalances) {
        expect(pool.feePayerTxs(payer).reduce((sum, p) => sum + p.maxCost, 0n)).toBeLessThanOrEqual(balance);
      }
    });
  });

  it('after a prune, every returning tx is pending or left out with a reason', async () => {
    await forAllHistories((step, pool) => {
      if (step.kind !== 'prune') return;
      // A returning tx that was pooled already and now leaves is reported among `removed`.
      const leftOut = new Set([...step.outcome.notReturned, ...step.outcome.removed].map((r) => r.txHash));
      for (const tx of step.input.returningTxs) expect(pool.has(tx.txHash) !== leftOut.has(tx.txHash)).toBe(true);
      for (const txHash of step.outcome.returnedTxHashes) expect(pool.has(txHash)).toBe(true);
    });
  });
});

describe('paging', () => {
  /** The order restated: fee descending, then arrival, then hash. */
  const naiveOrder = (txs: readonly PooledTx[]): Hex[] =>
    [...txs]
      .sort((a, b) =>
        a.priorityFee === b.priorityFee
          ? a.arrivalSequence - b.arrivalSequence || (a.txHash < b.txHash ? -1 : 1)
          : a.priorityFee > b.priorityFee
            ? -1
            : 1,
      )
      .map((p) => p.txHash);

  it('with `after` visits every pending tx exactly once, in priority order', () => {
    fc.assert(
      fc.property(fc.array(txSpecArbitrary, { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), (specs, pageSize) => {
        const pool = TxPool.empty(100);
        specs.forEach((spec, index) => {
          const decision = decideAdmission(pool, makeTx({ ...spec, hash: index + 1 }), {
            feePayerBalance: 10n ** 9n,
            priceBumpPercentage: 10,
          });
          if (decision.kind === 'accepted') pool.apply(decision.change);
        });
        const visited: Hex[] = [];
        let after: Hex | undefined;
        for (let pageIndex = 0; pageIndex <= pool.count; pageIndex++) {
          const page = pendingTxPage(pool, { limit: pageSize, after });
          expect(page.afterFound).toBe(true);
          if (page.txs.length === 0) break;
          expect(page.txs.length).toBeLessThanOrEqual(pageSize);
          visited.push(...page.txs.map((p) => p.txHash));
          after = page.txs.at(-1)!.txHash;
        }
        expect(visited).toEqual(naiveOrder(pool.ordered()));
        expect(new Set(visited).size).toBe(pool.count);
      }),
      { numRuns: RUNS },
    );
  });
});
