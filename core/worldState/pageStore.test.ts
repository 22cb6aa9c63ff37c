import fc from 'fast-check';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { CountingHasher } from '../merkle/countingHasher.js';
import { PagedTreeDraft } from '../merkle/pagedTreeDraft.js';
import { createTreeGeometry, pagesOfPaths, pathPages, type PageRef } from '../merkle/treeGeometry.js';
import { HistoricalPageCache } from './historicalPageCache.js';
import { type PageCacheGuard, PageStore } from './pageStore.js';
import { encodePage, worldStateKeys } from './storageLayout.js';

const HEIGHT = 6;
const geometry = createTreeGeometry(HEIGHT, 2, 0);

describe('PageStore', () => {
  it('caches the latest pages of each block, in buffers of at most twice their bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 2 ** HEIGHT - 1 }), { minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (cachePagesMax, blocks) => {
          const storage = new MemoryLevel<string, string>();
          const store = new PageStore(0, geometry, storage, cachePagesMax, new HistoricalPageCache(0));
          const latest = new Map<number, Uint8Array>();
          for (const [block, leaves] of blocks.entries()) {
            const indices = [...leaves].sort((a, b) => a - b);
            const refs = pagesOfPaths(geometry, indices);
            const pages = await store.load(refs, block - 1, 2 ** HEIGHT, {
              isLatest: () => true,
              isCurrent: () => true,
            });
            const draft = new PagedTreeDraft(geometry, pages, new CountingHasher());
            for (const index of indices) draft.setLeaf(index, new Uint8Array(32).fill((block * 31 + index) % 255));
            draft.rehash(indices);
            store.commit(draft.writtenPages, block);
            for (const [pageId, bytes] of draft.writtenPages) latest.set(pageId, bytes.slice());
            const { pages: pageBytes, buffers } = store.cachedBytes;
            expect(buffers).toBeLessThanOrEqual(2 * pageBytes);
            expect(store.cachedPageCount).toBeLessThanOrEqual(cachePagesMax);
            const cached = await store.load(refs, block, 2 ** HEIGHT, {
              isLatest: () => false,
              isCurrent: () => false,
            });
            for (const ref of refs) {
              const entry = cached.get(ref.pageId)!;
              // Pages evicted already come back from storage, which this test never writes: empty.
              if (entry.version === block) expect(entry.bytes).toEqual(latest.get(ref.pageId));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

const PAGE_BYTES = geometry.bands[0]!.pageBytes;
/** Bottom-band pages: one per leaf index below. */
const pageRef = (leaf: number): PageRef => pathPages(geometry, leaf)[0]!;
const TREE_SIZE = 2 ** HEIGHT;

const latestGuard = (block: number): PageCacheGuard => ({ isLatest: (read) => read === block, isCurrent: () => true });
const pastGuard: PageCacheGuard = { isLatest: () => false, isCurrent: () => true };
const staleGuard: PageCacheGuard = { isLatest: () => false, isCurrent: () => false };

const pageFilled = (fill: number): Uint8Array => new Uint8Array(PAGE_BYTES).fill(fill);

/** `count` pages cut from one buffer of `bufferPages` pages, as a draft writes them. */
function slabPages(count: number, bufferPages: number, fill: number): Uint8Array[] {
  const buffer = new Uint8Array(bufferPages * PAGE_BYTES).fill(fill);
  return Array.from({ length: count }, (_, i) => buffer.subarray(i * PAGE_BYTES, (i + 1) * PAGE_BYTES));
}

function newStore(cachePagesMax = 16) {
  const storage = new MemoryLevel<string, string>();
  const history = new HistoricalPageCache(1 << 20);
  return { storage, history, store: new PageStore(0, geometry, storage, cachePagesMax, history) };
}

const committed = (pages: readonly Uint8Array[], firstPage = 0): Map<number, Uint8Array> =>
  new Map(pages.map((bytes, i) => [pageRef(firstPage + i * 4).pageId, bytes]));

async function loadOne(store: PageStore, leaf: number, block: number, guard: PageCacheGuard = pastGuard) {
  return (await store.load([pageRef(leaf)], block, TREE_SIZE, guard)).get(pageRef(leaf).pageId)!;
}

describe('PageStore reads', () => {
  it('answers a committed page for its block and later ones from memory, and older blocks from storage', async () => {
    const { store } = newStore();
    store.commit(committed([pageFilled(7)]), 5);
    expect(await loadOne(store, 0, 5)).toMatchObject({ version: 5, bytes: pageFilled(7) });
    expect(await loadOne(store, 0, 9)).toMatchObject({ version: 5, bytes: pageFilled(7) });
    expect((await loadOne(store, 0, 4)).version).toBe(-1);
  });

  it('answers a past block from the historical cache when it holds the version', async () => {
    const { store, history } = newStore();
    history.remember(0, pageRef(0).pageId, 3, { version: 2, bytes: pageFilled(9) });
    expect(await loadOne(store, 0, 3)).toMatchObject({ version: 2, bytes: pageFilled(9) });
  });

  it('keeps a page read from storage as the latest, as a past version while current, or not at all', async () => {
    const cases = [
      { guard: latestGuard(2), latest: 1, past: 0 },
      { guard: pastGuard, latest: 0, past: 1 },
      { guard: staleGuard, latest: 0, past: 0 },
    ];
    for (const { guard, latest, past } of cases) {
      const { store, storage, history } = newStore();
      await storage.put(worldStateKeys.page(0, pageRef(0).pageId, 2), encodePage(pageFilled(4)));
      expect(await loadOne(store, 0, 2, guard)).toMatchObject({ version: 2, bytes: pageFilled(4) });
      expect([store.cachedPageCount, history.entryCount]).toEqual([latest, past]);
    }
  });

  it('keeps a read page as the latest only once: a later read at the latest block finds it in memory', async () => {
    const { store, storage } = newStore();
    const key = worldStateKeys.page(0, pageRef(0).pageId, 2);
    await storage.put(key, encodePage(pageFilled(4)));
    await loadOne(store, 0, 2, latestGuard(2));
    await storage.del(key);
    expect(await loadOne(store, 0, 2, latestGuard(2))).toMatchObject({ version: 2, bytes: pageFilled(4) });
  });
});

describe('PageStore memory', () => {
  it('shares a buffer a block wrote at least half of, and copies the pages out of one it wrote less of', () => {
    const cases = [
      { written: 3, bufferPages: 4, buffers: 4 },
      { written: 2, bufferPages: 4, buffers: 4 },
      { written: 1, bufferPages: 4, buffers: 1 },
    ];
    for (const { written, bufferPages, buffers } of cases) {
      const { store } = newStore();
      store.commit(committed(slabPages(written, bufferPages, 3)), 1);
      expect(store.cachedBytes).toEqual({ pages: written * PAGE_BYTES, buffers: buffers * PAGE_BYTES });
    }
  });

  it('copies the remaining pages out of a shared buffer once less than half of it is cached', async () => {
    const { store } = newStore();
    const pages = committed(slabPages(4, 4, 6));
    store.commit(pages, 1);
    const ids = [...pages.keys()];
    const buffersAfterEach = [4, 4, 1, 0].map((held) => held * PAGE_BYTES);
    for (const [i, pageId] of ids.entries()) {
      store.evict([pageId]);
      expect(store.cachedBytes).toEqual({ pages: (3 - i) * PAGE_BYTES, buffers: buffersAfterEach[i] });
    }
    // A page rewritten by a later block leaves the buffer of its earlier version the same way.
    const again = committed(slabPages(4, 4, 8));
    store.commit(again, 2);
    store.commit(new Map([[ids[0]!, pageFilled(1)]]), 3);
    expect(store.cachedBytes).toEqual({ pages: 4 * PAGE_BYTES, buffers: 5 * PAGE_BYTES });
    expect(await loadOne(store, 4, 3)).toMatchObject({ version: 2, bytes: pageFilled(8) });
  });

  it('keeps at most its bound of pages, dropping the least recently written first', async () => {
    const { store } = newStore(3);
    store.commit(committed([pageFilled(1), pageFilled(2)]), 1);
    expect(store.cachedPageCount).toBe(2);
    store.commit(committed([pageFilled(3), pageFilled(4), pageFilled(5)], 8), 2);
    expect(store.cachedPageCount).toBe(3);
    // Pages 0 and 4 were evicted: storage (never written here) has no version of them.
    expect((await loadOne(store, 0, 2)).version).toBe(-1);
    expect((await loadOne(store, 4, 2)).version).toBe(-1);
    for (const [i, leaf] of [8, 12, 16].entries()) {
      expect(await loadOne(store, leaf, 2)).toMatchObject({ version: 2, bytes: pageFilled(3 + i) });
    }
  });
});
