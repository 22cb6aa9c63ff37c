/**
 * L2-to-L1 message trees (contracts/Outbox.sol is the L1 side).
 *
 * One shape at every level: `outTreeRoot(leaves)` pads the list with zeros to the next power of two (a single leaf
 * is its own root, an empty list's root is zero) and hashes pairs, where two zero children give zero (so an
 * all-empty subtree is zero at any height) and any other pair gives hashToField(left || right). The levels nest:
 *
 *   tx out hash         = outTreeRoot(the tx's message leaves, l2ToL1MessageHash(recipient, content))
 *   block out hash      = outTreeRoot(its txs' out hashes)        (the block header's contentCommitment.outHash)
 *   checkpoint out hash = outTreeRoot(its blocks' out hashes)     (the checkpoint header's outHash)
 *   epoch root over k   = outTreeRoot(out hashes of the epoch's first k checkpoints)
 *
 * An epoch proof commits to the root over the checkpoints it proves; L1 hands it to the outbox, keyed by the epoch and
 * by k. A witness against a root is one sibling path through all four levels, nearest the leaf first; its leaf index
 * is the positions at each level concatenated as bit fields (tx level lowest), so the usual index-bit walk verifies
 * it. Heights per level are ceil(log2(count)), so a tree of one leaf adds no path element.
 */
import type { Hex } from '../chain.js';
import { zeroHex } from '../codec/bytes.js';
import { hashPair } from '../hash.js';

const ZERO: Hex = zeroHex(32);

const isZero = (value: Hex): boolean => /^0x0*$/.test(value);

/** A node of an out tree: zero over two zero children, else hashToField(left || right). */
export function outTreeNode(left: Hex, right: Hex): Hex {
  return isZero(left) && isZero(right) ? ZERO : hashPair(left, right);
}

/** ceil(log2(count)); 0 for zero or one leaf. */
export function outTreeHeight(count: number): number {
  let height = 0;
  while (2 ** height < count) height++;
  return height;
}

function paddedLevel(leaves: readonly Hex[]): Hex[] {
  const level = leaves.map((leaf) => leaf.toLowerCase() as Hex);
  const width = 2 ** outTreeHeight(leaves.length);
  while (level.length < width) level.push(ZERO);
  return level;
}

function parentLevel(level: readonly Hex[]): Hex[] {
  const parents: Hex[] = [];
  for (let i = 0; i < level.length; i += 2) parents.push(outTreeNode(level[i]!, level[i + 1]!));
  return parents;
}

export function outTreeRoot(leaves: readonly Hex[]): Hex {
  if (leaves.length === 0) return ZERO;
  let level = paddedLevel(leaves);
  while (level.length > 1) level = parentLevel(level);
  return level[0]!;
}

/** Siblings of leaf `index` from the leaf up (outTreeHeight(leaves.length) of them). */
export function outTreeSiblingPath(leaves: readonly Hex[], index: number): Hex[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError(`leaf ${index} is not among ${leaves.length}`);
  const path: Hex[] = [];
  let level = paddedLevel(leaves);
  let position = index;
  while (level.length > 1) {
    path.push(level[position ^ 1]!);
    level = parentLevel(level);
    position >>= 1;
  }
  return path;
}

/** The root a leaf and its sibling path lead to, walking the bits of `leafIndex` (lowest first). */
export function outTreeRootFromPath(leaf: Hex, leafIndex: bigint, siblingPath: readonly Hex[]): Hex {
  let node = leaf.toLowerCase() as Hex;
  let index = leafIndex;
  for (const sibling of siblingPath) {
    node = (index & 1n) === 0n ? outTreeNode(node, sibling) : outTreeNode(sibling, node);
    index >>= 1n;
  }
  return node;
}

/** An epoch's messages: per checkpoint, per block, per tx, the message leaves (svc_getL2ToL1Messages' nesting). */
export type EpochMessages = readonly (readonly (readonly (readonly Hex[])[])[])[];

export const txOutHash = (messages: readonly Hex[]): Hex => outTreeRoot(messages);
export const blockOutHash = (txs: readonly (readonly Hex[])[]): Hex => outTreeRoot(txs.map(txOutHash));
export const checkpointOutHash = (blocks: readonly (readonly (readonly Hex[])[])[]): Hex =>
  outTreeRoot(blocks.map(blockOutHash));
/** The root over the first `checkpoints.length` checkpoints of an epoch. */
export const epochOutHash = (checkpoints: EpochMessages): Hex => outTreeRoot(checkpoints.map(checkpointOutHash));

/** Where a message sits in an epoch's nesting. */
export interface OutMessagePosition {
  readonly checkpointIndex: number;
  readonly blockIndex: number;
  readonly txIndex: number;
  readonly messageIndex: number;
}

export interface OutMessageWitness {
  readonly root: Hex;
  readonly leafIndex: bigint;
  readonly siblingPath: Hex[];
}

/** The witness of one message against the root over all of `checkpoints`. */
export function outMessageWitness(checkpoints: EpochMessages, at: OutMessagePosition): OutMessageWitness {
  const blocks = checkpoints[at.checkpointIndex];
  const txs = blocks?.[at.blockIndex];
  const messages = txs?.[at.txIndex];
  if (messages === undefined || at.messageIndex >= messages.length)
    throw new RangeError('the position is not a message of the epoch');
  const levels: [readonly Hex[], number][] = [
    [messages, at.messageIndex],
    [txs!.map(txOutHash), at.txIndex],
    [blocks!.map(blockOutHash), at.blockIndex],
    [checkpoints.map(checkpointOutHash), at.checkpointIndex],
  ];
  const siblingPath: Hex[] = [];
  let leafIndex = 0n;
  let shift = 0n;
  for (const [leaves, index] of levels) {
    siblingPath.push(...outTreeSiblingPath(leaves, index));
    leafIndex |= BigInt(index) << shift;
    shift += BigInt(outTreeHeight(leaves.length));
  }
  return { root: epochOutHash(checkpoints), leafIndex, siblingPath };
}
