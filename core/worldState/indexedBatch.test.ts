import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { SortedKeyIndex } from '../merkle/sortedKeyIndex.js';
import type { TxStateEffects } from './blockEffects.js';
import { type IndexedBatch, planNullifiers, planPublicDataWrites } from './indexedBatch.js';
import { thrownWorldStateError } from '../../test/worldState/thrownWorldStateError.js';

const fieldHex = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const SUBTREE_LEAVES = 4;

/** An index holding `keys`, key i at leaf i (key 0 stands for the genesis low leaf of every other key). */
function indexOf(keys: readonly number[]): SortedKeyIndex {
  const index = new SortedKeyIndex();
  keys.forEach((key, leafIndex) => index.insert(fieldHex(key), { leafIndex, blockNumber: 0 }));
  return index;
}

const txWith = (nullifiers: readonly number[]): TxStateEffects => ({
  noteHashes: [],
  nullifiers: nullifiers.map(fieldHex),
  publicDataWrites: [],
});

/** Every `next` the batch sets points to the smallest key above its leaf's key (0/0 past the largest). */
function expectLinkedInOrder(batch: IndexedBatch, existing: readonly number[]): void {
  const leafOf = new Map<Hex, number>(existing.map((key, leafIndex) => [fieldHex(key), leafIndex]));
  for (const { key, leafIndex } of batch.inserted) leafOf.set(key, leafIndex);
  const sorted = [...leafOf.keys()].sort();
  for (const change of batch.changes.values()) {
    if (change.next === undefined) continue;
    const following = sorted[sorted.indexOf(change.key) + 1];
    const expected =
      following === undefined ? { key: zeroHex(32), index: 0 } : { key: following, index: leafOf.get(following) };
    expect(change.next).toEqual(expected);
  }
}

describe('planNullifiers', () => {
  it('refuses a nullifier already in the tree or twice in the block, naming it and its tx', () => {
    const keys = indexOf([0, 1, 2]);
    const inTree = thrownWorldStateError(() => planNullifiers(keys, [txWith([5]), txWith([9, 2])], 3, SUBTREE_LEAVES));
    expect(inTree).toMatchObject({
      code: 'WORLD_STATE_DUPLICATE_NULLIFIER',
      message: `nullifier ${fieldHex(2)} of tx 1 is already in the tree`,
      details: { nullifier: fieldHex(2), txIndex: 1 },
    });
    const twice = thrownWorldStateError(() => planNullifiers(keys, [txWith([5]), txWith([7, 5])], 3, SUBTREE_LEAVES));
    expect(twice).toMatchObject({
      code: 'WORLD_STATE_DUPLICATE_NULLIFIER',
      message: `nullifier ${fieldHex(5)} of tx 1 is already in this block`,
      details: { nullifier: fieldHex(5), txIndex: 1 },
    });
  });

  it('places each tx in its subtree and links the new keys in key order, whatever order they come in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 12 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 6 }),
        (nullifiers, extra) => {
          const existing = [0, ...extra.filter((key) => !nullifiers.includes(key))];
          const txs = [
            txWith(nullifiers.slice(0, SUBTREE_LEAVES)),
            txWith(nullifiers.slice(SUBTREE_LEAVES, 8)),
            txWith(nullifiers.slice(8)),
          ];
          const batch = planNullifiers(indexOf(existing), txs, existing.length, SUBTREE_LEAVES);
          expect(batch.sizeAfter).toBe(existing.length + 3 * SUBTREE_LEAVES);
          expect(batch.inserted.map(({ leafIndex }) => leafIndex)).toEqual(
            nullifiers.map(
              (_, i) => existing.length + Math.floor(i / SUBTREE_LEAVES) * SUBTREE_LEAVES + (i % SUBTREE_LEAVES),
            ),
          );
          expectLinkedInOrder(batch, existing);
        },
      ),
    );
  });

  it('needs a low leaf below every key (the genesis leaves)', () => {
    expect(() => planNullifiers(new SortedKeyIndex(), [txWith([5])], 0, SUBTREE_LEAVES)).toThrow(
      'assertion failed: genesis leaves give every key a low leaf',
    );
  });
});

describe('planPublicDataWrites', () => {
  it('links new slots in key order, whatever order they are written in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 12 }), (slots) => {
        const writes = slots.map((slot) => ({ leafSlot: fieldHex(slot), value: fieldHex(slot + 1) }));
        const batch = planPublicDataWrites(indexOf([0]), writes, 1);
        expect(batch.sizeAfter).toBe(1 + slots.length);
        expectLinkedInOrder(batch, [0]);
      }),
    );
  });
});
