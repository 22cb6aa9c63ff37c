import type { PageEntry } from '../merkle/pagedTreeDraft.js';
import type { PageRef, TreeGeometry } from '../merkle/treeGeometry.js';
import type { StoragePort } from '../ports.js';
import { decodePage, blockOfKey, worldStateKeys } from './storageLayout.js';

/** The page entry of a page nobody wrote, for a band. */
const emptyEntry = (geometry: TreeGeometry, band: number): PageEntry => ({
  version: -1,
  bytes: geometry.bands[band]!.emptyPage,
});

/**
 * The pages of one tree: the latest committed version of recently used pages in memory, every version in storage.
 * A cached page is the newest version there is, so it also answers for any block at or after its version; older
 * blocks read storage, where the newest version at or before the block is one reverse seek away.
 */
export class PageStore {
  /** Latest committed pages by id, least recently written first. Bytes are never mutated in place. */
  private readonly cache = new Map<number, PageEntry>();

  constructor(
    readonly treeId: number,
    readonly geometry: TreeGeometry,
    private readonly storage: StoragePort,
    private readonly cachePagesMax: number,
  ) {}

  get cachedPageCount(): number {
    return this.cache.size;
  }

  /**
   * The pages `refs` as of `block`, when the tree had `sizeAtBlock` leaves. A page entirely at or past that size is
   * empty without a read. `isLatest(block)` says whether a page read now may be cached as the latest version.
   */
  async load(
    refs: readonly PageRef[],
    block: number,
    sizeAtBlock: number,
    isLatest: (block: number) => boolean,
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
      reads.push(
        this.read(ref, block).then((entry) => {
          pages.set(ref.pageId, entry);
          if (isLatest(block) && !this.cache.has(ref.pageId)) this.cache.set(ref.pageId, entry);
        }),
      );
    }
    await Promise.all(reads);
    return pages;
  }

  /** Makes pages written by committed block `version` the latest, then trims the cache to its bound. */
  commit(written: ReadonlyMap<number, Uint8Array>, version: number): void {
    for (const [pageId, bytes] of written) {
      this.cache.delete(pageId);
      this.cache.set(pageId, { version, bytes });
    }
    const excess = this.cache.size - this.cachePagesMax;
    if (excess <= 0) return;
    let evicted = 0;
    for (const pageId of this.cache.keys()) {
      if (evicted++ >= excess) break;
      this.cache.delete(pageId);
    }
  }

  /** Forgets pages (after an unwind removed their latest versions). */
  evict(pageIds: Iterable<number>): void {
    for (const pageId of pageIds) this.cache.delete(pageId);
  }

  clearCache(): void {
    this.cache.clear();
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
