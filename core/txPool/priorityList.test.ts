import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeTx } from '../../test/txPool/txFixtures.js';
import { placeInOrder, PriorityList } from './priorityList.js';
import { comparePooledTxs, toPooledTx, type PooledTx } from './txPriority.js';

/** Txs with few distinct fees and arrival sequences, so that ties fall through to the tx hash. */
const pooledArbitrary = (hash: number) =>
  fc
    .record({
      fee: fc.bigInt({ min: 0n, max: 3n }),
      arrival: fc.integer({ min: 0, max: 3 }),
      l2Gas: fc.integer({ min: 0, max: 5 }),
    })
    .map(({ fee, arrival, l2Gas }): PooledTx => toPooledTx(makeTx({ hash, priorityFee: fee, l2Gas }), arrival));

const operationsArbitrary = fc
  .array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 12 })), { maxLength: 60 })
  .chain((steps) =>
    fc.tuple(...steps.map(([insert, hash]) => pooledArbitrary(hash).map((pooled) => ({ insert, pooled })))),
  );

describe('PriorityList', () => {
  it('after any inserts and removals holds its txs in pool order, with their cost total', () => {
    fc.assert(
      fc.property(operationsArbitrary, (operations) => {
        const list = PriorityList.empty();
        const held = new Map<string, PooledTx>();
        for (const { insert, pooled } of operations) {
          const listed = held.get(pooled.txHash);
          if (insert && listed === undefined) {
            list.insert(pooled);
            held.set(pooled.txHash, pooled);
          } else if (!insert && listed !== undefined) {
            list.remove(listed);
            held.delete(pooled.txHash);
          }
          const expected = [...held.values()].sort(comparePooledTxs);
          expect(list.slice()).toEqual(expected);
          expect(list.maxCostTotal).toBe(expected.reduce((sum, p) => sum + p.maxCost, 0n));
          expect(list.isStrictlyOrdered() && list.isTotalExact()).toBe(true);
          for (const [index, p] of expected.entries()) expect(list.indexOf(p)).toBe(index);
        }
      }),
    );
  });

  it('places a tx before the first one it ranks above, and refuses a duplicate or a missing tx', () => {
    const [high, middle, low] = [3n, 2n, 1n].map((fee, i) =>
      toPooledTx(makeTx({ hash: i + 1, priorityFee: fee }), i),
    ) as [PooledTx, PooledTx, PooledTx];
    const list = PriorityList.fromOrdered([high, low]);
    expect(placeInOrder(list.view(), middle)).toBe(1);
    list.insert(middle);
    expect(list.slice().map((p) => p.txHash)).toEqual([high, middle, low].map((p) => p.txHash));
    expect(list.lowest(new Set([low.txHash]))).toBe(middle);
    expect(() => list.insert(middle)).toThrow(/listed once/);
    list.remove(middle);
    expect(() => list.remove(middle)).toThrow(/is listed/);
    expect(() => PriorityList.fromOrdered([low, high])).toThrow(/strict pool order/);
  });
});
