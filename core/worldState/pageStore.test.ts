import fc from 'fast-check';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import { CountingHasher } from '../merkle/countingHasher.js';
import { PagedTreeDraft } from '../merkle/pagedTreeDraft.js';
import { createTreeGeometry, pagesOfPaths } from '../merkle/treeGeometry.js';
import { HistoricalPageCache } from './historicalPageCache.js';
import { PageStore } from './pageStore.js';

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
