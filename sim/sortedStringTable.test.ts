import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SORTED_TABLE_CHUNK_KEYS_MAX, SortedStringTable, type KeyRange } from './sortedStringTable.js';

/** What a range read must give: the model's keys filtered and ordered by plain comparisons. */
function modelEntries(model: Map<string, string>, range: KeyRange): [string, string][] {
  const inRange = [...model.keys()]
    .filter(
      (key) =>
        (range.gte === undefined ? range.gt === undefined || key > range.gt : key >= range.gte) &&
        (range.lte === undefined ? range.lt === undefined || key < range.lt : key <= range.lte),
    )
    .sort();
  if (range.reverse === true) inRange.reverse();
  return inRange.slice(0, range.limit).map((key) => [key, model.get(key)!]);
}

const KEY = fc.integer({ min: 0, max: 5_000 }).map((n) => `k${n}`);

const RANGE: fc.Arbitrary<KeyRange> = fc
  .record(
    { gt: KEY, gte: KEY, lt: KEY, lte: KEY, reverse: fc.boolean(), limit: fc.constantFrom(0, 1, 7, Infinity) },
    { requiredKeys: ['limit'] },
  )
  .map((range) => range);

describe('sorted string table', () => {
  it('reads every range as a sorted model does, across chunk splits and emptied chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), KEY), { minLength: SORTED_TABLE_CHUNK_KEYS_MAX * 3, maxLength: 6_000 }),
        fc.array(RANGE, { minLength: 1, maxLength: 20 }),
        (writes, ranges) => {
          const table = new SortedStringTable();
          const model = new Map<string, string>();
          writes.forEach(([put, key], i) => {
            if (put) {
              table.put(key, String(i));
              model.set(key, String(i));
            } else {
              table.del(key);
              model.delete(key);
            }
          });
          expect(table.size).toBe(model.size);
          expect(table.sortedKeys()).toEqual([...model.keys()].sort());
          for (const range of ranges) expect(table.entries(range)).toEqual(modelEntries(model, range));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps a copy as it was when taken', () => {
    const table = new SortedStringTable();
    for (let i = 0; i < 2 * SORTED_TABLE_CHUNK_KEYS_MAX; i++) table.put(`k${i}`, 'before');
    const copy = table.copy();
    for (let i = 0; i < 2 * SORTED_TABLE_CHUNK_KEYS_MAX; i += 2) table.del(`k${i}`);
    table.put('k1', 'after');
    expect(copy.size).toBe(2 * SORTED_TABLE_CHUNK_KEYS_MAX);
    expect(copy.get('k1')).toBe('before');
    const copied = copy.entries({ limit: Infinity });
    expect(copied).toHaveLength(2 * SORTED_TABLE_CHUNK_KEYS_MAX);
    expect(copied.every(([, value]) => value === 'before')).toBe(true);
    expect(table.entries({ limit: Infinity })).toHaveLength(SORTED_TABLE_CHUNK_KEYS_MAX);
  });
});
