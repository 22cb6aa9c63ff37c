import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../chain.js';
import { zeroHex } from '../codec/bytes.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../constants.js';
import { hashPair, hashToField } from '../hash.js';
import {
  checkpointMessageSubtree,
  checkpointOfMessageIndex,
  firstMessageIndexOfCheckpoint,
  inboxTreeHash,
  l1ToL2MessageLeaf,
} from './inbox.js';

const word = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

describe('L1-to-L2 messages (spec/messages/inbox.ts)', () => {
  it('a leaf hashes sender (left-padded), recipient, content, secret hash and index, 32 bytes each', () => {
    const sender: Hex = '0x1111111111111111111111111111111111111111';
    const bytes = Buffer.concat([
      Buffer.alloc(12),
      Buffer.from(sender.slice(2), 'hex'),
      ...[2, 3, 4, 5].map((n) => Buffer.from(word(n).slice(2), 'hex')),
    ]);
    expect(l1ToL2MessageLeaf({ sender, recipient: word(2), content: word(3), secretHash: word(4), index: 5n })).toBe(
      hashToField(bytes),
    );
  });

  it('the tree hash is a running hash, zero when empty', () => {
    expect(inboxTreeHash([])).toBe(zeroHex(32));
    expect(inboxTreeHash([word(1), word(2)])).toBe(hashPair(hashPair(zeroHex(32), word(1)), word(2)));
  });

  it('checkpoint n consumes the global indices of its subtree, and only those', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.nat({ max: L1_TO_L2_MESSAGES_PER_CHECKPOINT - 1 }),
        (checkpoint, offset) => {
          const index = firstMessageIndexOfCheckpoint(checkpoint) + BigInt(offset);
          expect(checkpointOfMessageIndex(index)).toBe(checkpoint);
        },
      ),
      { seed: 64 },
    );
    expect(firstMessageIndexOfCheckpoint(1)).toBe(0n);
  });

  it('a checkpoint inserts its messages padded with zeros to the subtree, never more than fit', () => {
    const subtree = checkpointMessageSubtree([word(1), word(2)]);
    expect(subtree).toHaveLength(L1_TO_L2_MESSAGES_PER_CHECKPOINT);
    expect(subtree.slice(0, 3)).toEqual([word(1), word(2), zeroHex(32)]);
    expect(() =>
      checkpointMessageSubtree(Array.from({ length: L1_TO_L2_MESSAGES_PER_CHECKPOINT + 1 }, (_, i) => word(i))),
    ).toThrow(RangeError);
  });
});
