import type { Hex, StateReference } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import {
  L1_TO_L2_MSG_TREE_HEIGHT,
  NOTE_HASH_TREE_HEIGHT,
  NULLIFIER_TREE_HEIGHT,
  PUBLIC_DATA_TREE_HEIGHT,
  PUBLIC_DATA_TREE_PREFILL_LEAVES,
  TX_SUBTREE_HEIGHT,
} from '../../spec/constants.js';
import { genesisPublicData } from '../../spec/genesis.js';
import { assert } from '../assert.js';
import { appendLeaves, createAppendOnlyTree, treeSnapshot } from '../merkle/appendOnlyTree.js';
import { CountingHasher } from '../merkle/countingHasher.js';
import { emptyRoot } from '../merkle/emptyRoots.js';
import type { IndexedLeaf, IndexedTreeKind } from '../merkle/indexedLeaf.js';
import { encodePreimage, hashPreimage } from '../merkle/indexedLeaf.js';

const ZERO = zeroHex(32);
const fieldOf = (n: number): Hex => bytesToHex(bigintToBytes(BigInt(n), 32));

/**
 * The nullifier tree's genesis leaves: nullifiers 0..count-1 in leaves 0..count-1, each pointing to the next, the last
 * to 0/0 (count = NULLIFIER_TREE_PREFILL_LEAVES, one per-tx subtree, for the protocol).
 */
export function nullifierGenesisLeaves(count = 2 ** TX_SUBTREE_HEIGHT): IndexedLeaf[] {
  return Array.from({ length: count }, (_, i) => ({
    key: fieldOf(i),
    value: ZERO,
    nextKey: i + 1 < count ? fieldOf(i + 1) : ZERO,
    nextIndex: i + 1 < count ? i + 1 : 0,
  }));
}

/**
 * The public data tree's genesis leaves: slot 0 with value 0, then the funded test accounts' balances
 * (spec/genesis.ts) in slot order, each pointing to the next, the last to 0/0.
 */
export function publicDataGenesisLeaves(): IndexedLeaf[] {
  const entries = [
    { key: ZERO, value: ZERO },
    ...genesisPublicData().map(({ leafSlot, value }) => ({ key: leafSlot, value })),
  ];
  const leaves = entries.map((entry, i) => ({
    ...entry,
    nextKey: i + 1 < entries.length ? entries[i + 1]!.key : ZERO,
    nextIndex: i + 1 < entries.length ? i + 1 : 0,
  }));
  assert(leaves.length === PUBLIC_DATA_TREE_PREFILL_LEAVES, 'the public data genesis leaves match their count');
  return leaves;
}

export interface StateTreeHeights {
  readonly nullifier: number;
  readonly noteHash: number;
  readonly publicData: number;
  readonly l1ToL2Message: number;
}

export const PROTOCOL_STATE_TREE_HEIGHTS: StateTreeHeights = {
  nullifier: NULLIFIER_TREE_HEIGHT,
  noteHash: NOTE_HASH_TREE_HEIGHT,
  publicData: PUBLIC_DATA_TREE_HEIGHT,
  l1ToL2Message: L1_TO_L2_MSG_TREE_HEIGHT,
};

function prefilledSnapshot(kind: IndexedTreeKind, height: number, leaves: readonly IndexedLeaf[]) {
  const hasher = new CountingHasher();
  const hashes = leaves.map((leaf) => bytesToHex(hashPreimage(hasher, encodePreimage(kind, leaf))));
  return treeSnapshot(appendLeaves(createAppendOnlyTree(height), hashes));
}

/**
 * The state before any block, computed on its own (with the frontier tree, not the world-state engine): the indexed
 * trees hold their genesis leaves, the append-only trees are empty.
 */
export function prefilledStateReference(
  heights: StateTreeHeights = PROTOCOL_STATE_TREE_HEIGHTS,
  txSubtreeHeight = TX_SUBTREE_HEIGHT,
): StateReference {
  return {
    l1ToL2MessageTree: { root: emptyRoot(heights.l1ToL2Message), nextAvailableLeafIndex: 0 },
    noteHashTree: { root: emptyRoot(heights.noteHash), nextAvailableLeafIndex: 0 },
    nullifierTree: prefilledSnapshot('nullifier', heights.nullifier, nullifierGenesisLeaves(2 ** txSubtreeHeight)),
    publicDataTree: prefilledSnapshot('publicData', heights.publicData, publicDataGenesisLeaves()),
  };
}
