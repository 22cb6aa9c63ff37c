import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import { hashPair } from '../../spec/hash.js';
import { appendLeaves, createAppendOnlyTree, treeRoot } from './appendOnlyTree.js';
import { CountingHasher } from './countingHasher.js';
import { emptyRoot } from './emptyRoots.js';
import type { PageEntry } from './pagedTreeDraft.js';
import { leafFromPages, PagedTreeDraft, preimageFromPages, siblingPathFromPages } from './pagedTreeDraft.js';
import { createTreeGeometry, nodeLocation, pagesOfPaths, pathPages } from './treeGeometry.js';

const leafOf = (n: number): Hex => bytesToHex(bigintToBytes(BigInt(n) + 1n, 32));

/** Applies each batch as a draft over the previous one's pages, like the engine does block by block. */
function pagedRoots(height: number, pageHeight: number, batches: readonly number[]): Hex[] {
  const geometry = createTreeGeometry(height, pageHeight, 0);
  const pages = new Map<number, PageEntry>();
  const roots: Hex[] = [];
  let size = 0;
  for (const count of batches) {
    const indices = Array.from({ length: count }, (_, i) => size + i);
    for (const ref of pagesOfPaths(geometry, indices))
      if (!pages.has(ref.pageId)) pages.set(ref.pageId, { version: -1, bytes: geometry.bands[ref.band]!.emptyPage });
    const draft = new PagedTreeDraft(geometry, pages, new CountingHasher());
    for (const index of indices) draft.setLeaf(index, hexToBytes(leafOf(index), 32));
    roots.push(count === 0 ? (roots.at(-1) ?? emptyRoot(height)) : bytesToHex(draft.rehash(indices)));
    for (const [pageId, bytes] of draft.writtenPages) pages.set(pageId, { version: 0, bytes });
    size += count;
  }
  return roots;
}

describe('PagedTreeDraft', () => {
  it('gives the frontier tree’s root for any height, page height and batching', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }),
        (height, pageHeight, wanted) => {
          const batches: number[] = [];
          let size = 0;
          for (const count of wanted) {
            if (size + count > 2 ** height) break;
            batches.push(count);
            size += count;
          }
          let frontier = createAppendOnlyTree(height);
          let total = 0;
          const expected = batches.map((count) => {
            frontier = appendLeaves(
              frontier,
              Array.from({ length: count }, (_, i) => leafOf(total + i)),
            );
            total += count;
            return treeRoot(frontier);
          });
          expect(pagedRoots(height, pageHeight, batches)).toEqual(expected);
        },
      ),
    );
  });

  it('hashes each changed node once: paths that meet share their upper nodes', () => {
    const geometry = createTreeGeometry(10, 3, 0);
    const indices = [0, 1, 2, 3];
    const pages = new Map(
      pagesOfPaths(geometry, indices).map((ref) => [
        ref.pageId,
        { version: -1, bytes: geometry.bands[ref.band]!.emptyPage },
      ]),
    );
    const hasher = new CountingHasher();
    const draft = new PagedTreeDraft(geometry, pages, hasher);
    for (const index of indices) draft.setLeaf(index, hexToBytes(leafOf(index), 32));
    draft.rehash(indices);
    // 2 + 1 nodes over the four leaves, then one per level up to the root.
    expect(hasher.count).toBe(3 + (10 - 2));
  });

  it('lays out pages so that a node and its sibling share one, and a path touches one page per band', () => {
    const geometry = createTreeGeometry(42, 3, 72);
    expect(geometry.bands).toHaveLength(14);
    for (const index of [0, 1, 5, 2 ** 41 + 3, 2 ** 42 - 1]) {
      for (let level = 0; level < 42; level++) {
        const at = Math.floor(index / 2 ** level);
        const left = nodeLocation(geometry, level, at - (at % 2));
        const right = nodeLocation(geometry, level, at - (at % 2) + 1);
        expect(right.pageId).toBe(left.pageId);
        expect(right.offset).toBe(left.offset + 32);
      }
      const refs = pathPages(geometry, index);
      const pages = new Map(refs.map((ref) => [ref.pageId, geometry.bands[ref.band]!.emptyPage]));
      const path = siblingPathFromPages(geometry, index, (pageId) => pages.get(pageId)!);
      expect(path.map((node) => bytesToHex(node))).toEqual(Array.from({ length: 42 }, (_, level) => emptyRoot(level)));
    }
  });
});

/** Pages of the paths of `indices`, every one empty and never written. */
function emptyPages(
  geometry: ReturnType<typeof createTreeGeometry>,
  indices: readonly number[],
): Map<number, PageEntry> {
  return new Map(
    pagesOfPaths(geometry, indices).map((ref) => [
      ref.pageId,
      { version: -1, bytes: geometry.bands[ref.band]!.emptyPage.slice() },
    ]),
  );
}

/** The root a leaf and its sibling path prove. */
function provedRoot(leaf: Uint8Array, index: number, siblings: readonly Uint8Array[]): Hex {
  let node = bytesToHex(leaf);
  siblings.forEach((sibling, level) => {
    const other = bytesToHex(sibling);
    node = Math.floor(index / 2 ** level) % 2 === 0 ? hashPair(node, other) : hashPair(other, node);
  });
  return node;
}

describe('PagedTreeDraft pages', () => {
  it('every changed leaf reads back, and its sibling path proves the new root', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 10 }),
        (height, pageHeight, raw) => {
          const geometry = createTreeGeometry(height, pageHeight, 0);
          const indices = [...new Set(raw.map((n) => n % 2 ** height))].sort((a, b) => a - b);
          const pages = emptyPages(geometry, indices);
          const draft = new PagedTreeDraft(geometry, pages, new CountingHasher());
          for (const index of indices) draft.setLeaf(index, hexToBytes(leafOf(index), 32));
          const root = bytesToHex(draft.rehash(indices));
          const pageOf = (pageId: number): Uint8Array => draft.writtenPages.get(pageId) ?? pages.get(pageId)!.bytes;
          for (const index of indices) {
            const leaf = leafFromPages(geometry, index, pageOf);
            expect(bytesToHex(leaf)).toBe(leafOf(index));
            expect(bytesToHex(draft.node(0, index))).toBe(leafOf(index));
            expect(provedRoot(leaf, index, siblingPathFromPages(geometry, index, pageOf))).toBe(root);
          }
        },
      ),
    );
  });

  it('keeps preimages per leaf, writes copies of the base pages and tells their base versions', () => {
    const geometry = createTreeGeometry(6, 2, 72);
    const pages = emptyPages(geometry, [0, 1, 5, 63]);
    pages.set(pathPages(geometry, 5)[0]!.pageId, {
      version: 7,
      bytes: pages.get(pathPages(geometry, 5)[0]!.pageId)!.bytes,
    });
    const before = new Map([...pages].map(([pageId, entry]) => [pageId, entry.bytes.slice()]));
    const draft = new PagedTreeDraft(geometry, pages, new CountingHasher());
    const preimage = (fill: number): Uint8Array => new Uint8Array(72).fill(fill);
    draft.setPreimage(0, preimage(1));
    draft.setPreimage(1, preimage(2));
    draft.writablePreimage(5).set(preimage(3));
    draft.writablePreimage(63)[0] = 4;
    expect([...draft.preimage(0)]).toEqual([...preimage(1)]);
    expect([...draft.preimage(1)]).toEqual([...preimage(2)]);
    expect([...draft.preimage(5)]).toEqual([...preimage(3)]);
    expect(draft.preimage(63)[0]).toBe(4);
    expect(draft.preimage(4).every((byte) => byte === 0)).toBe(true);
    const pageOf = (pageId: number): Uint8Array => draft.writtenPages.get(pageId) ?? pages.get(pageId)!.bytes;
    expect([...preimageFromPages(geometry, 5, pageOf)]).toEqual([...preimage(3)]);
    // Leaves 0, 1 share a bottom page; 5 and 63 have their own: three pages written, the base left as it was.
    expect([...draft.writtenPages.keys()]).toEqual([0, 5, 63].map((index) => pathPages(geometry, index)[0]!.pageId));
    expect(draft.baseVersionsOfWritten).toEqual([-1, 7, -1]);
    for (const [pageId, entry] of pages) expect(entry.bytes).toEqual(before.get(pageId));
    expect(() => draft.setPreimage(2, new Uint8Array(71))).toThrow(/preimage size/);
  });

  it('refuses pages it was not given, and a rehash of nothing', () => {
    const geometry = createTreeGeometry(6, 2, 0);
    const draft = new PagedTreeDraft(geometry, emptyPages(geometry, [0]), new CountingHasher());
    expect(() => draft.node(0, 63)).toThrow(/was loaded/);
    expect(() => draft.setLeaf(63, new Uint8Array(32))).toThrow(/was loaded/);
    expect(() => draft.rehash([])).toThrow(/changed leaf/);
  });
});
