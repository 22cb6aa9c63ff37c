import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CONTRACT_KEY_BLOCK_NUMBER_DIGITS } from './contractConstants.js';
import { firstEntryAtOrAfter, type ContractIndexStore } from './indexSeek.js';

/** The chain store's two index reads over a map, counting reads. */
function mapStore(entries: ReadonlyMap<string, string>): ContractIndexStore & { reads: number } {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const store = {
    reads: 0,
    async getIndexEntry(key: string) {
      store.reads += 1;
      return entries.get(key);
    },
    async getIndexEntries(prefix: string, limit: number) {
      store.reads += 1;
      return sorted.filter(([key]) => key.startsWith(prefix)).slice(0, limit);
    },
  };
  return store;
}

const PREFIX = 'p:a:';
const suffix = (n: number) => n.toString().padStart(CONTRACT_KEY_BLOCK_NUMBER_DIGITS, '0');
const READS_MAX = 2 + CONTRACT_KEY_BLOCK_NUMBER_DIGITS * 9;

describe('firstEntryAtOrAfter', () => {
  test('equals a scan of the sorted keys, within its read bound', async () => {
    const number = fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 10 ** CONTRACT_KEY_BLOCK_NUMBER_DIGITS - 1 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(number, { maxLength: 30 }), number, async (numbers, target) => {
        // Neighbours under other prefixes must never be returned.
        const entries = new Map([
          ...numbers.map((n): [string, string] => [`${PREFIX}${suffix(n)}`, String(n)]),
          ['p:9:000000000000', 'x'],
          ['p:b:999999999999', 'y'],
        ]);
        const store = mapStore(entries);
        const expected = numbers.filter((n) => n >= target).sort((a, b) => a - b)[0];
        const found = await firstEntryAtOrAfter(store, PREFIX, suffix(target));
        expect(found?.[1]).toBe(expected === undefined ? undefined : String(expected));
        expect(store.reads).toBeLessThanOrEqual(READS_MAX);
      }),
      { numRuns: 300 },
    );
  });

  test('one read when the first entry qualifies', async () => {
    const store = mapStore(
      new Map([
        [`${PREFIX}${suffix(7)}`, '7'],
        [`${PREFIX}${suffix(9)}`, '9'],
      ]),
    );
    expect(await firstEntryAtOrAfter(store, PREFIX, suffix(5))).toEqual([`${PREFIX}${suffix(7)}`, '7']);
    expect(store.reads).toBe(1);
  });

  test('a suffix that is not the key width is a bug', async () => {
    await expect(firstEntryAtOrAfter(mapStore(new Map()), PREFIX, '12')).rejects.toThrow(/assertion failed/);
  });
});
