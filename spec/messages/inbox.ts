/**
 * L1-to-L2 messages (contracts/Inbox.sol is the L1 side; the node follows its events).
 *
 * Anyone sends a message to the inbox with an L2 recipient, a content and a secret hash. The inbox fills numbered
 * trees of at most L1_TO_L2_MESSAGES_PER_CHECKPOINT messages: tree n is consumed by checkpoint n. Tree 1 is empty
 * and sealed from deployment; tree n + 1 is sealed when checkpoint n is proposed (a lag of one checkpoint), and a
 * full tree is sealed early (the next message opens the next tree). A message's global index is its leaf in the
 * L2 L1-to-L2 message tree: (tree - 1) x L1_TO_L2_MESSAGES_PER_CHECKPOINT + its position in the tree, because the
 * first block of checkpoint n inserts exactly that many leaves (tree n's messages, then zeros).
 *
 * Leaf: hashToField(sender || recipient || content || secretHash || index), each 32 bytes big-endian (the sender, a
 * 20-byte L1 address, left-padded). A tree's hash (the checkpoint header's `inHash`) is a running hash over its
 * leaves in order: h0 = 0, h(i+1) = hashToField(h(i) || leaf(i)); an empty tree's hash is zero. The rollup
 * contract checks a proposed checkpoint's inHash against the inbox; nodes check it against the messages they synced.
 */
import type { Hex } from '../chain.js';
import { bigintToBytes, hexToBytes, zeroHex } from '../codec/bytes.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../constants.js';
import { hashPair, hashToField } from '../hash.js';

const WORD_BYTES = 32;

/** The inbox's first tree: consumed by checkpoint 1, empty. */
export const INBOX_FIRST_TREE = 1;

export interface L1ToL2MessageInput {
  /** L1 address of the sender (20 bytes). */
  readonly sender: Hex;
  /** L2 address of the recipient (a field). */
  readonly recipient: Hex;
  readonly content: Hex;
  readonly secretHash: Hex;
  /** Global index: the message's leaf in the L1-to-L2 message tree. */
  readonly index: bigint;
}

/** The message's leaf in the L1-to-L2 message tree. */
export function l1ToL2MessageLeaf(message: L1ToL2MessageInput): Hex {
  const buf = new Uint8Array(5 * WORD_BYTES);
  const sender = hexToBytes(message.sender, 20);
  buf.set(sender, WORD_BYTES - sender.length);
  buf.set(hexToBytes(message.recipient, WORD_BYTES), WORD_BYTES);
  buf.set(hexToBytes(message.content, WORD_BYTES), 2 * WORD_BYTES);
  buf.set(hexToBytes(message.secretHash, WORD_BYTES), 3 * WORD_BYTES);
  buf.set(bigintToBytes(message.index, WORD_BYTES), 4 * WORD_BYTES);
  return hashToField(buf);
}

/** The running hash of a tree's leaves, in order (zero for none): the checkpoint header's inHash. */
export function inboxTreeHash(leaves: readonly Hex[]): Hex {
  let running = zeroHex(WORD_BYTES);
  for (const leaf of leaves) running = hashPair(running, leaf);
  return running;
}

/** Global index of the first leaf of checkpoint `checkpointNumber`'s subtree (>= 1). */
export function firstMessageIndexOfCheckpoint(checkpointNumber: number): bigint {
  return BigInt(checkpointNumber - INBOX_FIRST_TREE) * BigInt(L1_TO_L2_MESSAGES_PER_CHECKPOINT);
}

/** The checkpoint that consumes the message with this global index (the inbox tree it went into). */
export function checkpointOfMessageIndex(index: bigint): number {
  return Number(index / BigInt(L1_TO_L2_MESSAGES_PER_CHECKPOINT)) + INBOX_FIRST_TREE;
}

/**
 * The leaves the first block of a checkpoint inserts: the checkpoint's messages (leaves in index order, starting at
 * the subtree's first index, no gaps) then zeros, L1_TO_L2_MESSAGES_PER_CHECKPOINT in all.
 */
export function checkpointMessageSubtree(leaves: readonly Hex[]): Hex[] {
  if (leaves.length > L1_TO_L2_MESSAGES_PER_CHECKPOINT) {
    throw new RangeError(
      `a checkpoint consumes at most ${L1_TO_L2_MESSAGES_PER_CHECKPOINT} L1-to-L2 messages, got ${leaves.length}`,
    );
  }
  const subtree = [...leaves];
  while (subtree.length < L1_TO_L2_MESSAGES_PER_CHECKPOINT) subtree.push(zeroHex(WORD_BYTES));
  return subtree;
}
