import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HISTORICAL_PAGE_ENTRY_OVERHEAD_BYTES, HistoricalPageCache } from './historicalPageCache.js';

const PAGE_BYTES = 64;

/** A page's versions: which blocks wrote it (ascending); a read as of block b finds the last one at or before b. */
const versionAt = (writes: readonly number[], block: number): number =>
  writes.filter((version) => version <= block).at(-1) ?? -1;

const pageOf = (pageId: number, version: number): Uint8Array =>
  new Uint8Array(PAGE_BYTES).fill((pageId * 7 + version) & 0xff);

describe('HistoricalPageCache', () => {
  it('answers a read only with the version storage would give, and stays within its byte bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.record({ page: fc.nat(), block: fc.integer({ min: 0, max: 30 }) }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 12 }),
        (pageWrites, reads, entriesMax) => {
          const writes = pageWrites.map((versions) => [...versions].sort((a, b) => a - b));
          const bytesMax = entriesMax * (PAGE_BYTES + HISTORICAL_PAGE_ENTRY_OVERHEAD_BYTES);
          const cache = new HistoricalPageCache(bytesMax);
          for (const read of reads) {
            const pageId = read.page % writes.length;
            const expected = versionAt(writes[pageId]!, read.block);
            const found = cache.find(1, pageId, read.block);
            if (found !== undefined) {
              expect(found.version).toBe(expected);
              expect(found.bytes).toEqual(pageOf(pageId, expected));
            } else {
              cache.remember(1, pageId, read.block, { version: expected, bytes: pageOf(pageId, expected) });
            }
            expect(cache.bytes).toBeLessThanOrEqual(bytesMax);
          }
        },
      ),
    );
  });

  it('keeps the trees apart, and a cleared cache answers nothing', () => {
    const cache = new HistoricalPageCache(1 << 20);
    cache.remember(0, 5, 10, { version: 3, bytes: pageOf(5, 3) });
    expect(cache.find(0, 5, 7)?.version).toBe(3);
    expect(cache.find(1, 5, 7)).toBeUndefined();
    // Known only up to the block it was read at: a later block may read a newer version.
    expect(cache.find(0, 5, 11)).toBeUndefined();
    expect(cache.find(0, 5, 2)).toBeUndefined();
    cache.clear();
    expect(cache.find(0, 5, 7)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('answers every block from a version through the last block it was found at, one entry per version', () => {
    const cache = new HistoricalPageCache(1 << 20);
    cache.remember(0, 5, 4, { version: 3, bytes: pageOf(5, 3) });
    cache.remember(0, 5, 10, { version: 3, bytes: pageOf(5, 3) });
    expect([cache.entryCount, cache.bytes]).toEqual([1, PAGE_BYTES + HISTORICAL_PAGE_ENTRY_OVERHEAD_BYTES]);
    for (const block of [3, 4, 10]) expect(cache.find(0, 5, block)?.version).toBe(3);
    expect(cache.find(0, 5, 11)).toBeUndefined();
  });

  it('holds entries up to exactly its bound, dropping the least recently used version of a page alone', () => {
    const entryBytes = PAGE_BYTES + HISTORICAL_PAGE_ENTRY_OVERHEAD_BYTES;
    const cache = new HistoricalPageCache(2 * entryBytes);
    cache.remember(0, 5, 4, { version: 3, bytes: pageOf(5, 3) });
    cache.remember(0, 5, 9, { version: 6, bytes: pageOf(5, 6) });
    expect([cache.entryCount, cache.bytes]).toEqual([2, 2 * entryBytes]);
    cache.remember(0, 5, 20, { version: 12, bytes: pageOf(5, 12) });
    expect([cache.entryCount, cache.bytes]).toEqual([2, 2 * entryBytes]);
    expect(cache.find(0, 5, 4)).toBeUndefined();
    expect(cache.find(0, 5, 9)?.bytes).toEqual(pageOf(5, 6));
    expect(cache.find(0, 5, 20)?.bytes).toEqual(pageOf(5, 12));
  });
});
