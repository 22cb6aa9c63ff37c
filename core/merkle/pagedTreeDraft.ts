import { assert } from '../assert.js';
import type { CountingHasher } from './countingHasher.js';
import type { TreeGeometry } from './treeGeometry.js';
import { NODE_BYTES, nodeLocation, preimageOffset } from './treeGeometry.js';

/** A stored page: its bytes and the block that wrote them (-1: never written, every node empty). */
export interface PageEntry {
  readonly version: number;
  readonly bytes: Uint8Array;
}

/**
 * The next version of one tree, built on pages of the latest committed version. Pages are copied on first write, so
 * the committed pages stay untouched until the caller swaps the written pages in. Every page on the path of a leaf
 * that changes must be in `base`.
 *
 * The copies share one buffer sized for every page of `base` (a draft writes only pages it loaded): one allocation
 * per tree and block instead of one per page. Whoever keeps written pages keeps that buffer alive, and must copy
 * out the survivors once most of it is dead (core/worldState/pageStore.ts does).
 */
export class PagedTreeDraft {
  private readonly written = new Map<number, Uint8Array>();
  /** The base version of each written page, in the order of `written`. */
  private readonly writtenBaseVersions: number[] = [];
  private slab: ArrayBuffer | undefined;
  private slabUsedBytes = 0;

  constructor(
    private readonly geometry: TreeGeometry,
    private readonly base: ReadonlyMap<number, PageEntry>,
    private readonly hasher: CountingHasher,
  ) {}

  /** Pages this draft changed, by page id. */
  get writtenPages(): ReadonlyMap<number, Uint8Array> {
    return this.written;
  }

  /** The base version of each page of `writtenPages`, in its order (-1: the page was never written). */
  get baseVersionsOfWritten(): readonly number[] {
    return this.writtenBaseVersions;
  }

  node(level: number, index: number): Uint8Array {
    const { pageId, offset } = nodeLocation(this.geometry, level, index);
    return this.readable(pageId).subarray(offset, offset + NODE_BYTES);
  }

  setLeaf(index: number, leaf: Uint8Array): void {
    const { pageId, offset } = nodeLocation(this.geometry, 0, index);
    this.writable(pageId).set(leaf, offset);
  }

  preimage(index: number): Uint8Array {
    const { pageId } = nodeLocation(this.geometry, 0, index);
    const offset = preimageOffset(this.geometry, index);
    return this.readable(pageId).subarray(offset, offset + this.geometry.preimageBytes);
  }

  setPreimage(index: number, preimage: Uint8Array): void {
    assert(preimage.length === this.geometry.preimageBytes, 'preimage size matches the tree');
    const { pageId } = nodeLocation(this.geometry, 0, index);
    this.writable(pageId).set(preimage, preimageOffset(this.geometry, index));
  }

  /** Leaf `index`'s preimage in its page, to be written in place (indexed trees; the page is copied on first write). */
  writablePreimage(index: number): Uint8Array {
    const { pageId } = nodeLocation(this.geometry, 0, index);
    const offset = preimageOffset(this.geometry, index);
    return this.writable(pageId).subarray(offset, offset + this.geometry.preimageBytes);
  }

  /**
   * Recomputes every node above the changed leaves, level by level, each once: paths that meet share their upper
   * nodes. `changedLeaves` must be sorted ascending without repeats, each one written in this draft. Returns the new
   * root.
   */
  rehash(changedLeaves: ArrayLike<number> & Iterable<number>): Uint8Array {
    assert(changedLeaves.length > 0, 'rehash needs a changed leaf');
    const { height, levels } = this.geometry;
    let dirty: Iterable<number> = changedLeaves;
    let root: Uint8Array | undefined;
    for (let level = 0; level < height; level++) {
      const at = levels[level]!;
      const up = level + 1 < height ? levels[level + 1] : undefined;
      const parents: number[] = [];
      // Sorted parents walk pages in order: look a page up only when the walk enters it.
      let readId = -1;
      let readPage: Uint8Array | undefined;
      let writeId = -1;
      let writePage: Uint8Array | undefined;
      for (const index of dirty) {
        const parent = Math.floor(index / 2);
        if (parents.length > 0 && parents[parents.length - 1] === parent) continue;
        parents.push(parent);
        const left = parent * 2;
        const pageIndex = Math.floor(left / at.span);
        if (at.idBase + pageIndex !== readId) {
          readId = at.idBase + pageIndex;
          // Every dirty node was written (a leaf, or a parent in the pass below): its page is this draft's copy.
          readPage = this.readable(readId);
        }
        const offset = (at.rowStart + left - pageIndex * at.span) * NODE_BYTES;
        // A left child and its sibling are adjacent in one page: hash the 64 bytes in place.
        if (up === undefined) {
          root = this.hasher.hash(readPage!.subarray(offset, offset + 2 * NODE_BYTES));
          continue;
        }
        const upIndex = Math.floor(parent / up.span);
        if (up.idBase + upIndex !== writeId) {
          writeId = up.idBase + upIndex;
          writePage = this.writable(writeId);
        }
        this.hasher.hashPairInto(
          readPage!,
          offset,
          writePage!,
          (up.rowStart + parent - upIndex * up.span) * NODE_BYTES,
        );
      }
      dirty = parents;
    }
    assert(root !== undefined, 'rehash reached the root');
    return root;
  }

  private readable(pageId: number): Uint8Array {
    const page = this.written.get(pageId) ?? this.base.get(pageId)?.bytes;
    assert(page !== undefined, `page ${pageId} was loaded before the draft used it`);
    return page;
  }

  private writable(pageId: number): Uint8Array {
    let page = this.written.get(pageId);
    if (page === undefined) {
      const baseEntry = this.base.get(pageId);
      assert(baseEntry !== undefined, `page ${pageId} was loaded before the draft changed it`);
      page = this.allocate(baseEntry.bytes.length);
      page.set(baseEntry.bytes);
      this.written.set(pageId, page);
      this.writtenBaseVersions.push(baseEntry.version);
    }
    return page;
  }

  private allocate(bytes: number): Uint8Array {
    if (this.slab === undefined) {
      let baseBytes = 0;
      for (const entry of this.base.values()) baseBytes += entry.bytes.length;
      this.slab = new ArrayBuffer(baseBytes);
    }
    assert(this.slabUsedBytes + bytes <= this.slab.byteLength, 'a draft writes only pages it loaded');
    const page = new Uint8Array(this.slab, this.slabUsedBytes, bytes);
    this.slabUsedBytes += bytes;
    return page;
  }
}

/** The siblings of leaf `index`, nearest the leaf first, read through `pageOf` (which must know every path page). */
export function siblingPathFromPages(
  geometry: TreeGeometry,
  index: number,
  pageOf: (pageId: number) => Uint8Array,
): Uint8Array[] {
  const siblings: Uint8Array[] = [];
  let at = index;
  for (let level = 0; level < geometry.height; level++) {
    const { pageId, offset } = nodeLocation(geometry, level, at % 2 === 0 ? at + 1 : at - 1);
    siblings.push(pageOf(pageId).subarray(offset, offset + NODE_BYTES));
    at = Math.floor(at / 2);
  }
  return siblings;
}

/** Leaf `index` (level 0 node) read through `pageOf`. */
export function leafFromPages(
  geometry: TreeGeometry,
  index: number,
  pageOf: (pageId: number) => Uint8Array,
): Uint8Array {
  const { pageId, offset } = nodeLocation(geometry, 0, index);
  return pageOf(pageId).subarray(offset, offset + NODE_BYTES);
}

/** Leaf `index`'s preimage read through `pageOf` (indexed trees). */
export function preimageFromPages(
  geometry: TreeGeometry,
  index: number,
  pageOf: (pageId: number) => Uint8Array,
): Uint8Array {
  const { pageId } = nodeLocation(geometry, 0, index);
  const offset = preimageOffset(geometry, index);
  return pageOf(pageId).subarray(offset, offset + geometry.preimageBytes);
}
