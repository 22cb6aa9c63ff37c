import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../../spec/codec/bytes.js';
import { SORTED_INDEX_CHUNK_KEYS_MAX } from '../../spec/constants.js';
import { SortedKeyIndex } from './sortedKeyIndex.js';

const keyOf = (n: number): Hex => bytesToHex(bigintToBytes(BigInt(n), 32));

describe('SortedKeyIndex', () => {
  it('answers get, predecessor and successor like a sorted array, across chunk splits and deletes', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), key: fc.integer({ min: 0, max: 5_000 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 5_000 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 1_500 }),
        fc.array(fc.integer({ min: 0, max: 5_001 }), { maxLength: 20 }),
        (operations, probes) => {
          const index = new SortedKeyIndex();
          const model = new Map<number, number>();
          operations.forEach((op, i) => {
            if (op.kind === 'insert' && !model.has(op.key)) {
              index.insert(keyOf(op.key), { leafIndex: i, blockNumber: 0 });
              model.set(op.key, i);
            } else if (op.kind === 'delete') {
              index.delete(keyOf(op.key));
              model.delete(op.key);
            }
          });
          const sorted = [...model.keys()].sort((a, b) => a - b);
          expect(index.size).toBe(sorted.length);
          for (const probe of probes) {
            const below = sorted.filter((k) => k < probe).at(-1);
            const above = sorted.find((k) => k > probe);
            expect(index.get(keyOf(probe))?.leafIndex).toBe(model.get(probe));
            expect(index.predecessor(keyOf(probe))?.[0]).toBe(below === undefined ? undefined : keyOf(below));
            expect(index.successor(keyOf(probe))?.[0]).toBe(above === undefined ? undefined : keyOf(above));
            const evenBelow = sorted.filter((k) => k < probe && model.get(k)! % 2 === 0).at(-1);
            expect(index.predecessor(keyOf(probe), (p) => p.leafIndex % 2 === 0)?.[0]).toBe(
              evenBelow === undefined ? undefined : keyOf(evenBelow),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('SortedKeyIndex over many chunks', () => {
  /** Enough keys to split chunks several times over (SORTED_INDEX_CHUNK_KEYS_MAX keys each). */
  const manyKeys = fc.uniqueArray(fc.integer({ min: 1, max: 40_000 }), {
    minLength: 3 * SORTED_INDEX_CHUNK_KEYS_MAX,
    maxLength: 5 * SORTED_INDEX_CHUNK_KEYS_MAX,
  });

  it('answers neighbours of present and absent keys like a sorted array, after inserts and deletes in any order', () => {
    fc.assert(
      fc.property(
        manyKeys,
        fc.nat(),
        fc.array(fc.integer({ min: 0, max: 40_001 }), { maxLength: 30 }),
        (keys, cut, extra) => {
          const index = new SortedKeyIndex();
          keys.forEach((key, i) => index.insert(keyOf(key), { leafIndex: i, blockNumber: key % 3 }));
          // Delete a run of the smallest keys (emptying whole chunks) and every third other key.
          const sorted = [...keys].sort((a, b) => a - b);
          const runEnd = cut % sorted.length;
          const deleted = new Set([...sorted.slice(0, runEnd), ...keys.filter((_, i) => i % 3 === 0)]);
          for (const key of deleted) index.delete(keyOf(key));
          index.delete(keyOf(0));
          const kept = sorted.filter((key) => !deleted.has(key));
          expect(index.size).toBe(kept.length);
          for (const probe of [...extra, ...kept.filter((_, i) => i % 97 === 0), sorted[0]!, sorted.at(-1)!]) {
            const below = kept.filter((key) => key < probe).at(-1);
            const above = kept.find((key) => key > probe);
            expect(index.predecessor(keyOf(probe))?.[0]).toBe(below === undefined ? undefined : keyOf(below));
            expect(index.successor(keyOf(probe))?.[0]).toBe(above === undefined ? undefined : keyOf(above));
            const inBlockZero = (key: number): boolean => key % 3 === 0;
            const zeroAbove = kept.find((key) => key > probe && inBlockZero(key));
            expect(index.successor(keyOf(probe), (p) => p.blockNumber === 0)?.[0]).toBe(
              zeroAbove === undefined ? undefined : keyOf(zeroAbove),
            );
            expect(index.get(keyOf(probe)) !== undefined).toBe(kept.includes(probe));
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('walks down at most the given number of keys for a predecessor', () => {
    fc.assert(
      fc.property(manyKeys, fc.integer({ min: 1, max: 3 * SORTED_INDEX_CHUNK_KEYS_MAX }), (keys, stepsMax) => {
        const index = new SortedKeyIndex();
        keys.forEach((key, i) => index.insert(keyOf(key), { leafIndex: i, blockNumber: key % 1_000 === 0 ? 1 : 0 }));
        const probe = 40_001;
        const below = [...keys].sort((a, b) => b - a).slice(0, stepsMax);
        const found = below.find((key) => key % 1_000 === 0);
        expect(index.predecessor(keyOf(probe), (p) => p.blockNumber === 1, stepsMax)?.[0]).toBe(
          found === undefined ? undefined : keyOf(found),
        );
      }),
      { numRuns: 15 },
    );
  });

  it('refuses a key inserted twice', () => {
    const index = new SortedKeyIndex();
    index.insert(keyOf(7), { leafIndex: 0, blockNumber: 0 });
    expect(() => index.insert(keyOf(7), { leafIndex: 1, blockNumber: 1 })).toThrow(/is not in the index yet/);
    expect(index.get(keyOf(7))).toEqual({ leafIndex: 0, blockNumber: 0 });
  });

  it('works again after its last key is deleted', () => {
    const index = new SortedKeyIndex();
    index.insert(keyOf(7), { leafIndex: 0, blockNumber: 0 });
    index.delete(keyOf(7));
    expect(index.size).toBe(0);
    expect(index.predecessor(keyOf(9))).toBeUndefined();
    expect(index.successor(keyOf(1))).toBeUndefined();
    index.insert(keyOf(8), { leafIndex: 1, blockNumber: 0 });
    expect(index.predecessor(keyOf(9))?.[0]).toBe(keyOf(8));
    expect(index.successor(keyOf(1))?.[0]).toBe(keyOf(8));
  });
});
