import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import { appendLeaves, createAppendOnlyTree, treeRoot } from './appendOnlyTree.js';
import { CountingHasher } from './countingHasher.js';
import { emptyRoot } from './emptyRoots.js';
import type { PageEntry } from './pagedTreeDraft.js';
import { PagedTreeDraft, siblingPathFromPages } from './pagedTreeDraft.js';
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
