import type { PageEntry } from '../merkle/pagedTreeDraft.js';

/**
 * Memory one cached page costs beside its bytes: the entry object, its place in the recency set and in its page's
 * list (an estimate, counted against the cache's byte bound).
 */
export const HISTORICAL_PAGE_ENTRY_OVERHEAD_BYTES = 160;

/** Tree ids are below this (MerkleTreeId), so `pageId * TREE_ID_SPAN + treeId` names a page of any tree. */
const TREE_ID_SPAN = 8;

/**
 * A page version read from storage and the blocks it is known to answer: every block in [version, knownThrough]
 * reads this version, because a read as of `knownThrough` found it as the newest version at or before that block.
 */
interface HistoricalPage {
  readonly key: number;
  readonly version: number;
  knownThrough: number;
  readonly bytes: Uint8Array;
}

/**
 * Page versions read from storage for past blocks, shared by the trees of one world state. A version of a page
 * never changes once its block is committed, and the blocks it answers only grow as reads find it again, so a
 * cached version stays right until an unwind drops blocks (the engine clears the cache then). The least recently
 * used versions go first once the cache holds more than `bytesMax` (page bytes plus a fixed overhead per entry).
 */
export class HistoricalPageCache {
  /** Each page's cached versions, by ascending version; their block ranges never overlap. */
  private readonly byPage = new Map<number, HistoricalPage[]>();
  /** Every entry, least recently used first. */
  private readonly recency = new Set<HistoricalPage>();
  private heldBytes = 0;

  constructor(readonly bytesMax: number) {}

  /** Bytes held, as counted against `bytesMax`. */
  get bytes(): number {
    return this.heldBytes;
  }

  get entryCount(): number {
    return this.recency.size;
  }

  /** The version of a page that block `block` reads, when cached. */
  find(treeId: number, pageId: number, block: number): PageEntry | undefined {
    const versions = this.byPage.get(pageId * TREE_ID_SPAN + treeId);
    if (versions === undefined) return undefined;
    const entry = versions[lastAtOrBefore(versions, block)];
    if (entry === undefined || block > entry.knownThrough) return undefined;
    this.recency.delete(entry);
    this.recency.add(entry);
    return entry;
  }

  /** Records that a read as of `block` found `entry` as the page's newest version at or before it. */
  remember(treeId: number, pageId: number, block: number, entry: PageEntry): void {
    const key = pageId * TREE_ID_SPAN + treeId;
    let versions = this.byPage.get(key);
    if (versions === undefined) {
      versions = [];
      this.byPage.set(key, versions);
    }
    const at = lastAtOrBefore(versions, entry.version);
    const known = versions[at];
    if (known !== undefined && known.version === entry.version) {
      known.knownThrough = Math.max(known.knownThrough, block);
      return;
    }
    const added: HistoricalPage = { key, version: entry.version, knownThrough: block, bytes: entry.bytes };
    versions.splice(at + 1, 0, added);
    this.recency.add(added);
    this.heldBytes += costOf(added);
    this.trim();
  }

  clear(): void {
    this.byPage.clear();
    this.recency.clear();
    this.heldBytes = 0;
  }

  private trim(): void {
    for (const entry of this.recency) {
      if (this.heldBytes <= this.bytesMax) return;
      this.recency.delete(entry);
      this.heldBytes -= costOf(entry);
      const versions = this.byPage.get(entry.key)!;
      if (versions.length === 1) this.byPage.delete(entry.key);
      else versions.splice(versions.indexOf(entry), 1);
    }
  }
}

const costOf = (entry: HistoricalPage): number => entry.bytes.byteLength + HISTORICAL_PAGE_ENTRY_OVERHEAD_BYTES;

/** Index of the last entry whose version is at or before `block` (-1: none). */
function lastAtOrBefore(versions: readonly HistoricalPage[], block: number): number {
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (versions[middle]!.version <= block) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
