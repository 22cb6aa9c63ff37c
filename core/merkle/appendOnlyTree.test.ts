import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../../spec/codec/bytes.js';
import { hashPair } from '../../spec/hash.js';
import { appendLeaves, createAppendOnlyTree, forgetTreeRootsByContent, treeRoot } from './appendOnlyTree.js';
import { emptyRoot } from './emptyRoots.js';

/** Reference: the root recomputed from all 2^height leaves, level by level. */
function naiveRoot(height: number, leaves: readonly Hex[]): Hex {
  let level: Hex[] = Array.from({ length: 2 ** height }, (_, i) => leaves[i] ?? emptyRoot(0));
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hashPair(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}

const leaf = (n: number): Hex => bytesToHex(bigintToBytes(BigInt(n) + 1n, 32));

describe('appendOnlyTree', () => {
  beforeEach(forgetTreeRootsByContent);

  it('an empty tree has the empty root of its height', () => {
    expect(treeRoot(createAppendOnlyTree(30))).toBe(emptyRoot(30));
  });

  it('matches a from-scratch recomputation for every size and batching', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 8 }),
        (height, batches) => {
          let tree = createAppendOnlyTree(height);
          const all: Hex[] = [];
          for (const count of batches) {
            if (all.length + count > 2 ** height) break;
            const leaves = Array.from({ length: count }, (_, i) => leaf(all.length + i));
            tree = appendLeaves(tree, leaves);
            all.push(...leaves);
            expect(treeRoot(tree)).toBe(naiveRoot(height, all));
          }
        },
      ),
    );
  });

  it('gives a tree read back as a new value (the root memo by content) the root of its own leaves', () => {
    const leafArbitrary = fc.bigInt({ min: 0n, max: 2n ** 248n }).map((n) => bytesToHex(bigintToBytes(n, 32)));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(leafArbitrary, { maxLength: 32 }), (height, leaves) => {
        const kept = leaves.slice(0, 2 ** height);
        const tree = appendLeaves(createAppendOnlyTree(height), kept);
        const readBack = JSON.parse(JSON.stringify(tree)) as typeof tree;
        expect(treeRoot(readBack)).toBe(naiveRoot(height, kept));
        expect(treeRoot(tree)).toBe(naiveRoot(height, kept));
      }),
    );
  });

  it('refuses to grow past its capacity', () => {
    const full = appendLeaves(createAppendOnlyTree(2), [leaf(0), leaf(1), leaf(2), leaf(3)]);
    expect(treeRoot(full)).toBe(naiveRoot(2, [leaf(0), leaf(1), leaf(2), leaf(3)]));
    expect(() => appendLeaves(full, [leaf(4)])).toThrow(/full/);
  });
});
