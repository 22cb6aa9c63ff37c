import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../chain.js';
import { zeroHex } from '../codec/bytes.js';
import { hashPair } from '../hash.js';
import {
  blockOutHash,
  checkpointOutHash,
  epochOutHash,
  outMessageWitness,
  outTreeHeight,
  outTreeNode,
  outTreeRoot,
  outTreeRootFromPath,
  outTreeSiblingPath,
  txOutHash,
  type EpochMessages,
} from './outbox.js';

const ZERO = zeroHex(32);
const leaf = (n: number): Hex => `0x00${n.toString(16).padStart(62, '0')}`;

/** Every message of an epoch, with its position, in nesting order. */
function positions(epoch: EpochMessages) {
  return epoch.flatMap((blocks, checkpointIndex) =>
    blocks.flatMap((txs, blockIndex) =>
      txs.flatMap((messages, txIndex) =>
        messages.map((message, messageIndex) => ({
          message,
          at: { checkpointIndex, blockIndex, txIndex, messageIndex },
        })),
      ),
    ),
  );
}

/** Epoch layouts: up to 4 checkpoints of up to 3 blocks of up to 4 txs of up to 8 messages (empty levels included). */
const epochArb = fc
  .array(fc.array(fc.array(fc.nat({ max: 8 }), { maxLength: 4 }), { minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((shape) => {
    let next = 1;
    return shape.map((blocks) =>
      blocks.map((txs) => txs.map((count) => Array.from({ length: count }, () => leaf(next++)))),
    );
  });

describe('out trees (spec/messages/outbox.ts)', () => {
  it('pads to a power of two; an empty list and all-zero subtrees are zero', () => {
    expect(outTreeRoot([])).toBe(ZERO);
    expect(outTreeRoot([leaf(7)])).toBe(leaf(7));
    expect(outTreeRoot([leaf(1), leaf(2), leaf(3)])).toBe(
      hashPair(hashPair(leaf(1), leaf(2)), hashPair(leaf(3), ZERO)),
    );
    expect(outTreeRoot([ZERO, ZERO, ZERO])).toBe(ZERO);
    expect(outTreeNode(ZERO, ZERO)).toBe(ZERO);
    expect(outTreeNode(leaf(1), ZERO)).toBe(hashPair(leaf(1), ZERO));
    expect([0, 1, 2, 3, 4, 5, 8, 9].map(outTreeHeight)).toEqual([0, 0, 1, 2, 2, 3, 3, 4]);
  });

  it('the levels nest: tx, block, checkpoint, epoch', () => {
    const epoch = [[[[leaf(1), leaf(2)], []], [[leaf(3)]]], [[[]]]];
    const block0 = outTreeRoot([txOutHash([leaf(1), leaf(2)]), ZERO]);
    const checkpoint0 = outTreeRoot([block0, blockOutHash([[leaf(3)]])]);
    expect(checkpointOutHash(epoch[0]!)).toBe(checkpoint0);
    expect(epochOutHash(epoch)).toBe(outTreeRoot([checkpoint0, ZERO]));
  });

  it('every sibling path leads back to its root', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 1_000 }).map(leaf), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        (leaves, pick) => {
          const index = pick % leaves.length;
          const path = outTreeSiblingPath(leaves, index);
          expect(path).toHaveLength(outTreeHeight(leaves.length));
          expect(outTreeRootFromPath(leaves[index]!, BigInt(index), path)).toBe(outTreeRoot(leaves));
        },
      ),
      { seed: 61, numRuns: 200 },
    );
  });

  it("for every message layout, each message's witness verifies against the epoch root, and distinct messages have distinct positions", () => {
    fc.assert(
      fc.property(epochArb, (epoch) => {
        const root = epochOutHash(epoch);
        const seen = new Set<string>();
        for (const { message, at } of positions(epoch)) {
          const witness = outMessageWitness(epoch, at);
          expect(witness.root).toBe(root);
          expect(outTreeRootFromPath(message, witness.leafIndex, witness.siblingPath)).toBe(root);
          const position = `${witness.leafIndex}:${witness.siblingPath.length}`;
          expect(seen.has(position)).toBe(false);
          seen.add(position);
        }
      }),
      { seed: 62, numRuns: 40 },
    );
  });

  it("a witness against the root over a prefix of the epoch's checkpoints verifies against that root only", () => {
    fc.assert(
      fc.property(epochArb, fc.nat(), (epoch, pick) => {
        const all = positions(epoch);
        if (all.length === 0) return;
        const { message, at } = all[pick % all.length]!;
        const prefix = epoch.slice(0, at.checkpointIndex + 1);
        const witness = outMessageWitness(prefix, at);
        expect(witness.root).toBe(epochOutHash(prefix));
        expect(outTreeRootFromPath(message, witness.leafIndex, witness.siblingPath)).toBe(witness.root);
      }),
      { seed: 63, numRuns: 60 },
    );
  });

  it('a wrong leaf, index or sibling does not verify', () => {
    const epoch = [[[[leaf(1), leaf(2), leaf(3)]], [[leaf(4)]]]];
    const witness = outMessageWitness(epoch, { checkpointIndex: 0, blockIndex: 0, txIndex: 0, messageIndex: 1 });
    expect(outTreeRootFromPath(leaf(2), witness.leafIndex, witness.siblingPath)).toBe(witness.root);
    expect(outTreeRootFromPath(leaf(9), witness.leafIndex, witness.siblingPath)).not.toBe(witness.root);
    expect(outTreeRootFromPath(leaf(2), witness.leafIndex ^ 1n, witness.siblingPath)).not.toBe(witness.root);
    expect(outTreeRootFromPath(leaf(2), witness.leafIndex, [leaf(5), ...witness.siblingPath.slice(1)])).not.toBe(
      witness.root,
    );
    expect(() => outMessageWitness(epoch, { checkpointIndex: 0, blockIndex: 1, txIndex: 0, messageIndex: 1 })).toThrow(
      RangeError,
    );
  });
});
