import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../../spec/codec/bytes.js';
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
