import type { PageEntry } from '../merkle/pagedTreeDraft.js';
import type { PageRef, TreeGeometry } from '../merkle/treeGeometry.js';
import type { StoragePort } from '../ports.js';
import type { HistoricalPageCache } from './historicalPageCache.js';
import { decodePage, blockOfKey, worldStateKeys } from './storageLayout.js';

/** The page entry of a page nobody wrote, for a band. */
const emptyEntry = (geometry: TreeGeometry, band: number): PageEntry => ({
  version: -1,
  bytes: geometry.bands[band]!.emptyPage,
});

/**
 * Pages a draft wrote share one buffer (core/merkle/pagedTreeDraft.ts). The cache counts the bytes of it that are
 * still cached pages, and once they are less than half of the buffer it copies them out, so the memory the cache
 * holds is at most twice its pages' bytes.
 */
interface Slab {
  liveBytes: number;
  readonly totalBytes: number;
  readonly pageIds: readonly number[];
}

/** May pages read now be cached? As the latest versions, or (nothing was unwound since the read began) as past ones. */
export interface PageCacheGuard {
  isLatest(block: number): boolean;
  isCurrent(): boolean;
}

interface CachedPage extends PageEntry {
  readonly slab: Slab | undefined;
}

/**
 * The pages of one tree: the latest committed version of recently used pages in memory, every version in storage.
 * A cached page is the newest version there is, so it also answers for any block at or after its version; older
 * blocks read the versions cached for past blocks (`history`, shared by the trees), else storage, where the newest
 * version at or before the block is one reverse seek away.
 */
export class PageStore {
  /** Latest committed pages by id, least recently written first. Bytes are never mutated in place. */
  private readonly cache = new Map<number, CachedPage>();

  constructor(
    readonly treeId: number,
    readonly geometry: TreeGeometry,
    private readonly storage: StoragePort,
    private readonly cachePagesMax: number,
    private readonly history: HistoricalPageCache,
  ) {}

  get cachedPageCount(): number {
    return this.cache.size;
  }

  /** Bytes of the cached pages, and of the buffers that hold them (at most twice as many). O(cached pages). */
  get cachedBytes(): { readonly pages: number; readonly buffers: number } {
    const buffers = new Set<ArrayBufferLike>();
    let pages = 0;
    for (const entry of this.cache.values()) {
      pages += entry.bytes.length;
      buffers.add(entry.bytes.buffer);
    }
    let held = 0;
    for (const buffer of buffers) held += buffer.byteLength;
    return { pages, buffers: held };
  }

  /**
   * The pages `refs` as of `block`, when the tree had `sizeAtBlock` leaves. A page entirely at or past that size is
   * empty without a read. `guard` says whether a page read from storage may be cached, and as what.
   */
  async load(
    refs: readonly PageRef[],
    block: number,
    sizeAtBlock: number,
    guard: PageCacheGuard,
  ): Promise<Map<number, PageEntry>> {
    const pages = new Map<number, PageEntry>();
    const reads: Promise<void>[] = [];
    for (const ref of refs) {
      if (ref.firstLeaf >= sizeAtBlock) {
        pages.set(ref.pageId, emptyEntry(this.geometry, ref.band));
        continue;
      }
      const cached = this.cache.get(ref.pageId);
      if (cached !== undefined && cached.version <= block) {
        pages.set(ref.pageId, cached);
        continue;
      }
      const past = this.history.find(this.treeId, ref.pageId, block);
      if (past !== undefined) {
        pages.set(ref.pageId, past);
        continue;
      }
      reads.push(this.read(ref, block).then((entry) => this.keep(pages, ref.pageId, block, entry, guard)));
    }
    await Promise.all(reads);
    return pages;
  }

  private keep(pages: Map<number, PageEntry>, pageId: number, block: number, entry: PageEntry, guard: PageCacheGuard) {
    pages.set(pageId, entry);
    if (guard.isLatest(block)) {
      if (!this.cache.has(pageId))
        this.cache.set(pageId, { version: entry.version, bytes: entry.bytes, slab: undefined });
    } else if (guard.isCurrent()) this.history.remember(this.treeId, pageId, block, entry);
  }

  /** Makes pages written by committed block `version` the latest, then trims the cache to its bound. */
  commit(written: ReadonlyMap<number, Uint8Array>, version: number): void {
    const slabs = slabsOf(written);
    for (const [pageId, bytes] of written) {
      this.drop(pageId);
      this.cache.set(pageId, { version, bytes, slab: slabs.get(bytes.buffer) });
    }
    // A draft that wrote less than half of what it loaded leaves a mostly empty buffer.
    for (const slab of slabs.values()) if (slab.liveBytes * 2 < slab.totalBytes) this.copyOut(slab);
    const excess = this.cache.size - this.cachePagesMax;
    if (excess <= 0) return;
    const evicted: number[] = [];
    for (const pageId of this.cache.keys()) {
      if (evicted.length >= excess) break;
      evicted.push(pageId);
    }
    this.evict(evicted);
  }

  /** Forgets pages (after an unwind removed their latest versions). */
  evict(pageIds: Iterable<number>): void {
    for (const pageId of pageIds) this.drop(pageId);
  }

  clearCache(): void {
    this.cache.clear();
  }

  private drop(pageId: number): void {
    const entry = this.cache.get(pageId);
    if (entry === undefined) return;
    this.cache.delete(pageId);
    const slab = entry.slab;
    if (slab === undefined) return;
    slab.liveBytes -= entry.bytes.length;
    if (slab.liveBytes > 0 && slab.liveBytes * 2 < slab.totalBytes) this.copyOut(slab);
  }

  /** Gives the pages still cached from `slab` their own buffers (the cache order stays as it is). */
  private copyOut(slab: Slab): void {
    for (const pageId of slab.pageIds) {
      const entry = this.cache.get(pageId);
      if (entry?.slab === slab)
        this.cache.set(pageId, { version: entry.version, bytes: entry.bytes.slice(), slab: undefined });
    }
    slab.liveBytes = 0;
  }

  private async read(ref: PageRef, block: number): Promise<PageEntry> {
    const prefix = worldStateKeys.pagePrefix(this.treeId, ref.pageId);
    const found = await this.storage
      .iterator({ gte: prefix, lte: worldStateKeys.page(this.treeId, ref.pageId, block), reverse: true, limit: 1 })
      .all();
    const record = found[0];
    if (record === undefined) return emptyEntry(this.geometry, ref.band);
    const pageBytes = this.geometry.bands[ref.band]!.pageBytes;
    return { version: blockOfKey(record[0]), bytes: decodePage(record[1], pageBytes) };
  }
}

/** The shared buffers among `written`'s pages, each with the pages in it. */
function slabsOf(written: ReadonlyMap<number, Uint8Array>): Map<ArrayBufferLike, Slab> {
  const slabs = new Map<ArrayBufferLike, Slab>();
  for (const [pageId, bytes] of written) {
    if (bytes.byteLength === bytes.buffer.byteLength) continue;
    let slab = slabs.get(bytes.buffer);
    if (slab === undefined) {
      slab = { liveBytes: 0, totalBytes: bytes.buffer.byteLength, pageIds: [] };
      slabs.set(bytes.buffer, slab);
    }
    slab.liveBytes += bytes.length;
    (slab.pageIds as number[]).push(pageId);
  }
  return slabs;
}
