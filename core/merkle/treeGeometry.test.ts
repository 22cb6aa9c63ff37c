import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { hashPair } from '../../spec/hash.js';
import { emptyRoot, emptyRootBytes } from './emptyRoots.js';
import { createTreeGeometry, nodeLocation, pagesOfPaths, pathPages, preimageOffset } from './treeGeometry.js';

/** Leaf indices and page ids stay below 2^48 (storage keys write page ids in 12 hex digits). */
const HEIGHT_MAX = 48;

const geometryArb = fc
  .record({ height: fc.integer({ min: 1, max: 12 }), pageHeight: fc.integer({ min: 1, max: 5 }) })
  .chain(({ height, pageHeight }) =>
    fc.record({
      height: fc.constant(height),
      pageHeight: fc.constant(pageHeight),
      preimageBytes: fc.constantFrom(0, 72, 104),
      indices: fc.array(fc.integer({ min: 0, max: 2 ** height - 1 }), { minLength: 1, maxLength: 12 }),
    }),
  );

describe('empty subtree roots', () => {
  it('are zero at the leaves and the hash of two empty children above, as hex or bytes', () => {
    expect(emptyRoot(0)).toBe(`0x${'00'.repeat(32)}`);
    for (let height = 1; height <= 64; height++) {
      expect(emptyRoot(height)).toBe(hashPair(emptyRoot(height - 1), emptyRoot(height - 1)));
      expect(bytesToHex(emptyRootBytes(height))).toBe(emptyRoot(height));
    }
    expect(bytesToHex(emptyRootBytes(0))).toBe(emptyRoot(0));
  });

  it('exist only for heights 0 to 64', () => {
    expect(() => emptyRoot(-1)).toThrow(/height -1 out of range/);
    expect(() => emptyRoot(65)).toThrow(/height 65 out of range/);
  });
});

describe('tree geometry', () => {
  it('refuses trees without levels, taller than page ids allow, and pages without levels', () => {
    expect(() => createTreeGeometry(0, 3, 0)).toThrow(/height 0/);
    expect(() => createTreeGeometry(HEIGHT_MAX + 1, 3, 0)).toThrow(/height 49/);
    expect(() => createTreeGeometry(2.5, 3, 0)).toThrow(/height 2.5/);
    expect(() => createTreeGeometry(10, 0, 0)).toThrow(/page height 0/);
    expect(() => createTreeGeometry(10, 1.5, 0)).toThrow(/page height 1.5/);
    expect(createTreeGeometry(HEIGHT_MAX, 8, 0).bands).toHaveLength(6);
  });

  it('cuts the levels into bands of the page height from the leaves, the top band shorter', () => {
    const geometry = createTreeGeometry(10, 4, 72);
    expect(geometry.bands.map((band) => [band.bottomLevel, band.rootLevel, band.depth])).toEqual([
      [0, 4, 4],
      [4, 8, 4],
      [8, 10, 2],
    ]);
    // Bottom pages hold 30 nodes and 16 preimages; upper pages only nodes.
    expect(geometry.bands.map((band) => band.pageBytes)).toEqual([30 * 32 + 16 * 72, 30 * 32, 6 * 32]);
    expect(createTreeGeometry(10, 4, 0).bands[0]!.pageBytes).toBe(30 * 32);
  });

  it("an empty page holds each level's empty root at every node", () => {
    fc.assert(
      fc.property(geometryArb, ({ height, pageHeight, preimageBytes, indices }) => {
        const geometry = createTreeGeometry(height, pageHeight, preimageBytes);
        for (const index of indices) {
          for (let level = 0; level < height; level++) {
            const { pageId, offset } = nodeLocation(geometry, level, Math.floor(index / 2 ** level));
            const band = geometry.bands.find((ref) => ref.bottomLevel <= level && level < ref.rootLevel)!;
            const page = pathPages(geometry, index).find((ref) => ref.pageId === pageId)!;
            expect(geometry.bands[page.band]).toBe(band);
            expect(bytesToHex(band.emptyPage.subarray(offset, offset + 32))).toBe(emptyRoot(level));
          }
          const preimageAt = preimageOffset(geometry, index);
          const bottom = geometry.bands[0]!;
          expect(preimageAt).toBeGreaterThanOrEqual(bottom.nodesBytes);
          expect(preimageAt + preimageBytes).toBeLessThanOrEqual(bottom.pageBytes);
          expect(bottom.emptyPage.subarray(preimageAt, preimageAt + preimageBytes).every((byte) => byte === 0)).toBe(
            true,
          );
        }
      }),
    );
  });

  it("a leaf's path has one page per band, each over the leaf, numbered as a heap", () => {
    fc.assert(
      fc.property(geometryArb, ({ height, pageHeight, preimageBytes, indices }) => {
        const geometry = createTreeGeometry(height, pageHeight, preimageBytes);
        for (const index of indices) {
          const refs = pathPages(geometry, index);
          expect(refs.map((ref) => ref.band)).toEqual(geometry.bands.map((_, b) => b));
          for (const ref of refs) {
            const band = geometry.bands[ref.band]!;
            expect(index - ref.firstLeaf).toBeGreaterThanOrEqual(0);
            expect(index - ref.firstLeaf).toBeLessThan(band.leavesPerPage);
            expect(ref.pageId).toBe(2 ** (height - band.rootLevel) + ref.firstLeaf / band.leavesPerPage);
          }
        }
      }),
    );
  });

  it('the pages of several paths are the distinct pages of each path', () => {
    fc.assert(
      fc.property(geometryArb, ({ height, pageHeight, preimageBytes, indices }) => {
        const geometry = createTreeGeometry(height, pageHeight, preimageBytes);
        const expected = new Map(
          indices.flatMap((index) => pathPages(geometry, index)).map((ref) => [ref.pageId, ref]),
        );
        const refs = pagesOfPaths(geometry, indices);
        expect(new Set(refs.map((ref) => ref.pageId)).size).toBe(refs.length);
        expect(new Map(refs.map((ref) => [ref.pageId, ref]))).toEqual(expected);
      }),
    );
  });

  it('gives each leaf of a bottom page its own preimage slot', () => {
    const geometry = createTreeGeometry(6, 3, 104);
    const offsets = Array.from({ length: 8 }, (_, index) => preimageOffset(geometry, index));
    expect(offsets).toEqual(offsets.map((_, i) => geometry.bands[0]!.nodesBytes + i * 104));
    expect(preimageOffset(geometry, 9)).toBe(offsets[1]);
  });
});
