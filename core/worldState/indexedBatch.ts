import type { Hex } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { assert } from '../assert.js';
import type { SortedKeyIndex } from '../merkle/sortedKeyIndex.js';
import type { PublicDataWrite, TxStateEffects } from './blockEffects.js';
import { WorldStateError } from './worldStateError.js';

const ZERO = zeroHex(32);

/** A leaf of an indexed tree that a block changes. Fields left undefined keep what the leaf holds. */
export interface IndexedLeafChange {
  readonly index: number;
  readonly key: Hex;
  /** True for a leaf the block inserts (it has no stored preimage to start from). */
  readonly inserted: boolean;
  value?: Hex;
  next?: { readonly key: Hex; readonly index: number };
}

/** Every leaf change of one indexed tree in one block, and the tree's size after it. */
export interface IndexedBatch {
  readonly changes: Map<number, IndexedLeafChange>;
  /** Keys the block inserts, with their leaf index. */
  readonly inserted: readonly { readonly key: Hex; readonly leafIndex: number }[];
  readonly sizeAfter: number;
}

interface Insertion {
  readonly key: Hex;
  readonly leafIndex: number;
  readonly value?: Hex;
}

/**
 * The nullifier tree's changes: tx t's nullifiers take leaves [sizeBefore + t * subtreeLeaves, ...), the rest of its
 * subtree stays empty and unlinked. WORLD_STATE_DUPLICATE_NULLIFIER when a nullifier is in the tree or twice in the
 * block. `keys` holds the tree's keys as of the latest block.
 */
export function planNullifiers(
  keys: SortedKeyIndex,
  txs: readonly TxStateEffects[],
  sizeBefore: number,
  subtreeLeaves: number,
): IndexedBatch {
  const insertions: Insertion[] = [];
  const seen = new Set<Hex>();
  txs.forEach((tx, t) => {
    tx.nullifiers.forEach((key, i) => {
      if (seen.has(key) || keys.get(key) !== undefined) {
        throw new WorldStateError(
          'WORLD_STATE_DUPLICATE_NULLIFIER',
          `nullifier ${key} of tx ${t} is already ${seen.has(key) ? 'in this block' : 'in the tree'}`,
          { nullifier: key, txIndex: t },
        );
      }
      seen.add(key);
      insertions.push({ key, leafIndex: sizeBefore + t * subtreeLeaves + i });
    });
  });
  const changes = new Map<number, IndexedLeafChange>();
  linkInsertions(keys, insertions, changes);
  return { changes, inserted: insertions, sizeAfter: sizeBefore + txs.length * subtreeLeaves };
}

/**
 * The public data tree's changes: writes apply in order, the last write of a slot wins; a slot already in the tree
 * has its value updated in place, a new slot takes the next leaf (in the order slots are first written).
 */
export function planPublicDataWrites(
  keys: SortedKeyIndex,
  writes: readonly PublicDataWrite[],
  sizeBefore: number,
): IndexedBatch {
  const finalValues = new Map<Hex, Hex>();
  for (const write of writes) finalValues.set(write.leafSlot, write.value);
  const changes = new Map<number, IndexedLeafChange>();
  const insertions: Insertion[] = [];
  for (const [key, value] of finalValues) {
    const existing = keys.get(key);
    if (existing === undefined) insertions.push({ key, leafIndex: sizeBefore + insertions.length, value });
    else changes.set(existing.leafIndex, { index: existing.leafIndex, key, inserted: false, value });
  }
  linkInsertions(keys, insertions, changes);
  return { changes, inserted: insertions, sizeAfter: sizeBefore + insertions.length };
}

/**
 * Links new keys into the sorted list. The result does not depend on the order of insertion: each new key points to
 * the next new key with the same predecessor, the last of them to the predecessor's old successor, and the
 * predecessor (the low leaf) to the first of them.
 */
function linkInsertions(
  keys: SortedKeyIndex,
  insertions: readonly Insertion[],
  changes: Map<number, IndexedLeafChange>,
): void {
  const sorted = [...insertions].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let group: Insertion[] = [];
  let low: [Hex, { leafIndex: number }] | undefined;
  const closeGroup = (): void => {
    if (low === undefined) return;
    const [lowKey, lowPlacement] = low;
    const after = keys.successor(lowKey);
    const tail = after === undefined ? { key: ZERO, index: 0 } : { key: after[0], index: after[1].leafIndex };
    changeOf(changes, lowPlacement.leafIndex, lowKey).next = { key: group[0]!.key, index: group[0]!.leafIndex };
    group.forEach((insertion, i) => {
      const following = group[i + 1];
      changes.set(insertion.leafIndex, {
        index: insertion.leafIndex,
        key: insertion.key,
        inserted: true,
        value: insertion.value ?? ZERO,
        next: following === undefined ? tail : { key: following.key, index: following.leafIndex },
      });
    });
  };
  for (const insertion of sorted) {
    const predecessor = keys.predecessor(insertion.key);
    assert(predecessor !== undefined, 'genesis leaves give every key a low leaf');
    if (low === undefined || predecessor[0] !== low[0]) {
      closeGroup();
      low = predecessor;
      group = [];
    }
    group.push(insertion);
  }
  closeGroup();
}

function changeOf(changes: Map<number, IndexedLeafChange>, index: number, key: Hex): IndexedLeafChange {
  let change = changes.get(index);
  if (change === undefined) {
    change = { index, key, inserted: false };
    changes.set(index, change);
  }
  return change;
}
