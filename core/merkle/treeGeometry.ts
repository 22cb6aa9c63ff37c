import { hexToBytes } from '../../spec/codec/bytes.js';
import { assert } from '../assert.js';
import { emptyRoot } from './emptyRoots.js';

/** Bytes of one node (a field element). */
export const NODE_BYTES = 32;
/** Page ids and leaf indices stay below this (storage keys write page ids in 12 hex digits). */
const PAGE_ID_LIMIT = 2 ** 48;

/**
 * How a tree of `height` levels is cut into storage pages.
 *
 * Levels are counted from the leaves (0) to the root (`height`). They are grouped in bands of `pageHeight` levels
 * from the bottom; band j spans levels [j * pageHeight, rootLevel) with rootLevel = min((j + 1) * pageHeight, height).
 * A page is one band of one subtree: the nodes at depths 1..depth below a node at the band's root level, in breadth
 * first order (depth 1: 2 nodes, depth 2: 4 nodes...). A node and its sibling always share a page, so a sibling path
 * touches exactly one page per band, and a node's parent is in the same page or (at the band's top) in the page of
 * the band above. The tree root is in no page. Bottom-band pages of an indexed tree also hold the leaf preimages.
 *
 * Page ids number page roots as a heap: id = 2^(height - rootLevel) + pageIndex (the tree root is 1).
 */
export interface BandGeometry {
  readonly bottomLevel: number;
  readonly rootLevel: number;
  readonly depth: number;
  /** 2^rootLevel: leaves under one page root. */
  readonly leavesPerPage: number;
  /** 2^(height - rootLevel): the id of the band's first page. */
  readonly idBase: number;
  readonly nodesBytes: number;
  readonly pageBytes: number;
  /** A page of this band with every node empty (never mutate: copy). */
  readonly emptyPage: Uint8Array;
}

/** Where the nodes of one level sit: pageId = idBase + floor(index / span), slot = rowStart + index mod span. */
export interface LevelGeometry {
  readonly band: number;
  readonly span: number;
  readonly idBase: number;
  readonly rowStart: number;
}

export interface TreeGeometry {
  readonly height: number;
  readonly pageHeight: number;
  /** Bytes of one leaf preimage in bottom pages (0 for append-only trees). */
  readonly preimageBytes: number;
  readonly bands: readonly BandGeometry[];
  /** One entry per level below the root. */
  readonly levels: readonly LevelGeometry[];
}

/** Geometries made so far, by their parameters: they are immutable, and every engine opened makes the same few. */
const knownGeometries = new Map<string, TreeGeometry>();
/** Distinct geometries kept (a node has five; tests try a few dozen). */
const KNOWN_GEOMETRIES_MAX = 256;

export function createTreeGeometry(height: number, pageHeight: number, preimageBytes: number): TreeGeometry {
  const id = `${height}:${pageHeight}:${preimageBytes}`;
  const known = knownGeometries.get(id);
  if (known !== undefined) return known;
  const geometry = buildTreeGeometry(height, pageHeight, preimageBytes);
  if (knownGeometries.size < KNOWN_GEOMETRIES_MAX) knownGeometries.set(id, geometry);
  return geometry;
}

function buildTreeGeometry(height: number, pageHeight: number, preimageBytes: number): TreeGeometry {
  assert(Number.isInteger(height) && height >= 1 && 2 ** height <= PAGE_ID_LIMIT, `tree height ${height} out of range`);
  assert(Number.isInteger(pageHeight) && pageHeight >= 1, `page height ${pageHeight} out of range`);
  const bands: BandGeometry[] = [];
  for (let bottomLevel = 0; bottomLevel < height; bottomLevel += pageHeight) {
    bands.push(
      bandGeometry(
        height,
        bottomLevel,
        Math.min(bottomLevel + pageHeight, height),
        bottomLevel === 0 ? preimageBytes : 0,
      ),
    );
  }
  const levels: LevelGeometry[] = [];
  for (let level = 0; level < height; level++) {
    const band = Math.floor(level / pageHeight);
    const span = 2 ** (bands[band]!.rootLevel - level);
    levels.push({ band, span, idBase: bands[band]!.idBase, rowStart: span - 2 });
  }
  return { height, pageHeight, preimageBytes, bands, levels };
}

function bandGeometry(height: number, bottomLevel: number, rootLevel: number, preimageBytes: number): BandGeometry {
  const depth = rootLevel - bottomLevel;
  const nodesBytes = (2 ** (depth + 1) - 2) * NODE_BYTES;
  const pageBytes = nodesBytes + (preimageBytes > 0 ? 2 ** depth * preimageBytes : 0);
  const emptyPage = new Uint8Array(pageBytes);
  for (let d = 1; d <= depth; d++) {
    const empty = hexToBytes(emptyRoot(rootLevel - d), NODE_BYTES);
    for (let i = 0; i < 2 ** d; i++) emptyPage.set(empty, (2 ** d - 2 + i) * NODE_BYTES);
  }
  return {
    bottomLevel,
    rootLevel,
    depth,
    leavesPerPage: 2 ** rootLevel,
    idBase: 2 ** (height - rootLevel),
    nodesBytes,
    pageBytes,
    emptyPage,
  };
}

/** The page holding node (level, index) and the node's byte offset in it. */
export function nodeLocation(geometry: TreeGeometry, level: number, index: number): { pageId: number; offset: number } {
  const at = geometry.levels[level]!;
  const pageIndex = Math.floor(index / at.span);
  return { pageId: at.idBase + pageIndex, offset: (at.rowStart + index - pageIndex * at.span) * NODE_BYTES };
}

/** Byte offset of leaf `index`'s preimage in its bottom page. */
export function preimageOffset(geometry: TreeGeometry, index: number): number {
  const bottom = geometry.bands[0]!;
  return bottom.nodesBytes + (index % 2 ** bottom.depth) * geometry.preimageBytes;
}

/** A page on the path of some leaf: its id, band and the first leaf under it. */
export interface PageRef {
  readonly pageId: number;
  readonly band: number;
  readonly firstLeaf: number;
}

/** The pages on the path from leaf `index` to the root, bottom band first. */
export function pathPages(geometry: TreeGeometry, index: number): PageRef[] {
  return geometry.bands.map((band, b) => pageRefOf(band, b, Math.floor(index / band.leavesPerPage)));
}

/** The distinct pages on the paths of all `indices`. */
export function pagesOfPaths(geometry: TreeGeometry, indices: Iterable<number>): PageRef[] {
  const seen = new Set<number>();
  const refs: PageRef[] = [];
  for (const index of indices) {
    for (let b = 0; b < geometry.bands.length; b++) {
      const band = geometry.bands[b]!;
      const pageIndex = Math.floor(index / band.leavesPerPage);
      const pageId = band.idBase + pageIndex;
      // Paths of nearby leaves share their upper pages: once a page is seen, every page above it is too.
      if (seen.has(pageId)) break;
      seen.add(pageId);
      refs.push(pageRefOf(band, b, pageIndex));
    }
  }
  return refs;
}

function pageRefOf(band: BandGeometry, b: number, pageIndex: number): PageRef {
  return { pageId: band.idBase + pageIndex, band: b, firstLeaf: pageIndex * band.leavesPerPage };
}
