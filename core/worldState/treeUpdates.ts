import type { Hex } from '../../spec/chain.js';
import { bytesToHex, writeHexInto } from '../../spec/codec/bytes.js';
import type { CountingHasher } from '../merkle/countingHasher.js';
import type { IndexedTreeKind } from '../merkle/indexedLeaf.js';
import { hashPreimage, patchPreimageInPlace, preimageHasKey, writePreimage } from '../merkle/indexedLeaf.js';
import type { PageEntry } from '../merkle/pagedTreeDraft.js';
import { PagedTreeDraft } from '../merkle/pagedTreeDraft.js';
import type { TreeGeometry } from '../merkle/treeGeometry.js';
import { NODE_BYTES } from '../merkle/treeGeometry.js';
import { assert } from '../assert.js';
import type { IndexedBatch, IndexedLeafChange } from './indexedBatch.js';

/** A tree as of one block. */
export interface TreeState {
  readonly root: Hex;
  readonly size: number;
}

/** A leaf an append-only tree gets. */
export interface LeafWrite {
  readonly index: number;
  readonly value: Hex;
}

/** One tree's next version: its state and the pages it rewrote. */
export interface TreeUpdate {
  readonly state: TreeState;
  readonly draft: PagedTreeDraft;
}

/** Appends leaves (ascending indices, zero values left out: an empty leaf is zero already). */
export function updateAppendOnly(
  geometry: TreeGeometry,
  pages: ReadonlyMap<number, PageEntry>,
  hasher: CountingHasher,
  writes: readonly LeafWrite[],
  sizeAfter: number,
  before: TreeState,
): TreeUpdate {
  const draft = new PagedTreeDraft(geometry, pages, hasher);
  if (writes.length === 0) return { state: { root: before.root, size: sizeAfter }, draft };
  const indices: number[] = [];
  for (const write of writes) {
    writeHexInto(leafBytes, 0, write.value, NODE_BYTES);
    draft.setLeaf(write.index, leafBytes);
    indices.push(write.index);
  }
  const root = draft.rehash(indices);
  return { state: { root: bytesToHex(root), size: sizeAfter }, draft };
}

/** Where a leaf value is decoded before it is copied into its page. */
const leafBytes = Buffer.alloc(NODE_BYTES);

/** Writes an indexed tree's changed leaves (preimage and leaf hash) and rehashes above them. */
export function updateIndexed(
  kind: IndexedTreeKind,
  geometry: TreeGeometry,
  pages: ReadonlyMap<number, PageEntry>,
  hasher: CountingHasher,
  batch: IndexedBatch,
  before: TreeState,
): TreeUpdate {
  const draft = new PagedTreeDraft(geometry, pages, hasher);
  if (batch.changes.size === 0) return { state: { root: before.root, size: batch.sizeAfter }, draft };
  // A typed array sorts numerically without a comparator call per step.
  const indices = Float64Array.from(batch.changes.keys()).sort();
  for (const index of indices) {
    const preimage = draft.writablePreimage(index);
    changePreimage(kind, batch.changes.get(index)!, preimage);
    draft.setLeaf(index, hashPreimage(hasher, preimage));
  }
  const root = draft.rehash(indices);
  return { state: { root: bytesToHex(root), size: batch.sizeAfter }, draft };
}

/** Writes the leaf's preimage after the change: a new leaf from the change alone, an existing one patched. */
function changePreimage(kind: IndexedTreeKind, change: IndexedLeafChange, preimage: Uint8Array): void {
  if (change.inserted) {
    assert(change.value !== undefined && change.next !== undefined, 'an inserted leaf has its value and next pointer');
    writePreimage(kind, preimage, {
      key: change.key,
      value: change.value,
      nextKey: change.next.key,
      nextIndex: change.next.index,
    });
    return;
  }
  assert(preimageHasKey(preimage, change.key), `leaf ${change.index} holds key ${change.key}`);
  patchPreimageInPlace(kind, preimage, change.value, change.next);
}
