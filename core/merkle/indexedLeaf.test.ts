import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import { hashToField } from '../../spec/hash.js';
import { CountingHasher } from './countingHasher.js';
import {
  decodePreimage,
  encodePreimage,
  fieldBytes,
  hashPreimage,
  patchPreimage,
  patchPreimageInPlace,
  preimageBytesOf,
  preimageHasKey,
  toNullifierPreimage,
  toPublicDataPreimage,
  writePreimage,
  type IndexedLeaf,
  type IndexedTreeKind,
} from './indexedLeaf.js';

/** Leaf indices stay below 2^48 (core/merkle/treeGeometry.ts). */
const LEAF_INDEX_LIMIT = 2 ** 48;

const field = (n: bigint): Hex => bytesToHex(bigintToBytes(n, 32));
const arbitraryField = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(field);
const arbitraryIndex = fc.integer({ min: 0, max: LEAF_INDEX_LIMIT - 1 });
const arbitraryKind = fc.constantFrom<IndexedTreeKind>('nullifier', 'publicData');
const arbitraryLeaf = fc.record({
  key: arbitraryField,
  value: arbitraryField,
  nextKey: arbitraryField,
  nextIndex: arbitraryIndex,
});

/** The leaf as docs/protocol.md hashes it: every field 32 bytes big-endian, a nullifier leaf without its value. */
function documentedLeafHash(kind: IndexedTreeKind, leaf: IndexedLeaf): Hex {
  const fields = kind === 'nullifier' ? [leaf.key, leaf.nextKey] : [leaf.key, leaf.value, leaf.nextKey];
  const hex = [...fields, field(BigInt(leaf.nextIndex))].map((part) => part.slice(2)).join('');
  return hashToField(Buffer.from(hex, 'hex'));
}

/** What a stored leaf reads back as: a nullifier leaf has no value, so it reads as zero. */
const asStored = (kind: IndexedTreeKind, leaf: IndexedLeaf): IndexedLeaf =>
  kind === 'nullifier' ? { ...leaf, value: zeroHex(32) } : leaf;

describe('indexed leaf preimages', () => {
  it('store nullifier leaves in 72 bytes and public data leaves in 104', () => {
    expect(preimageBytesOf('nullifier')).toBe(72);
    expect(preimageBytesOf('publicData')).toBe(104);
  });

  it('read back every stored field, up to the largest leaf index', () => {
    fc.assert(
      fc.property(arbitraryKind, arbitraryLeaf, (kind, leaf) => {
        const stored = encodePreimage(kind, leaf);
        expect(stored.length).toBe(preimageBytesOf(kind));
        expect(decodePreimage(kind, stored)).toEqual(asStored(kind, leaf));
        expect(preimageHasKey(stored, leaf.key)).toBe(true);
      }),
    );
  });

  it('read back a preimage written in its slot inside a larger page', () => {
    fc.assert(
      fc.property(arbitraryKind, arbitraryLeaf, fc.integer({ min: 0, max: 3 }), (kind, leaf, slot) => {
        const size = preimageBytesOf(kind);
        const page = new Uint8Array(size * 4).fill(0xee);
        const at = page.subarray(slot * size, (slot + 1) * size);
        writePreimage(kind, at, leaf);
        expect(decodePreimage(kind, at)).toEqual(asStored(kind, leaf));
        const others = [...page.subarray(0, slot * size), ...page.subarray((slot + 1) * size)];
        expect(others.every((byte) => byte === 0xee)).toBe(true);
      }),
    );
  });

  it('hash as docs/protocol.md says, whichever kind was hashed before', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(arbitraryKind, arbitraryLeaf), { minLength: 1, maxLength: 4 }), (leaves) => {
        const hasher = new CountingHasher();
        for (const [kind, leaf] of leaves) {
          const hash = bytesToHex(hashPreimage(hasher, encodePreimage(kind, leaf)));
          expect(hash).toBe(documentedLeafHash(kind, leaf));
        }
        expect(hasher.count).toBe(leaves.length);
      }),
    );
  });

  it('patch only the fields given, on a copy or in place', () => {
    fc.assert(
      fc.property(
        arbitraryKind,
        arbitraryLeaf,
        fc.option(arbitraryField, { nil: undefined }),
        fc.option(fc.record({ key: arbitraryField, index: arbitraryIndex }), { nil: undefined }),
        (kind, leaf, value, next) => {
          const stored = encodePreimage(kind, leaf);
          const before = stored.slice();
          const expected = asStored(kind, {
            key: leaf.key,
            value: value ?? leaf.value,
            nextKey: next?.key ?? leaf.nextKey,
            nextIndex: next?.index ?? leaf.nextIndex,
          });
          expect(decodePreimage(kind, patchPreimage(kind, stored, value, next))).toEqual(expected);
          expect(stored).toEqual(before);
          patchPreimageInPlace(kind, stored, value, next);
          expect(decodePreimage(kind, stored)).toEqual(expected);
        },
      ),
    );
  });

  it('hold a key only when its 32 bytes match', () => {
    const stored = encodePreimage('nullifier', { key: field(5n), value: field(0n), nextKey: field(9n), nextIndex: 3 });
    expect(preimageHasKey(stored, field(5n))).toBe(true);
    expect(preimageHasKey(stored, field(9n))).toBe(false);
    expect([...fieldBytes(field(0x0102n))]).toEqual([...new Uint8Array(30), 1, 2]);
  });

  it('convert to the protocol preimages with a bigint next index', () => {
    const leaf = { key: field(1n), value: field(2n), nextKey: field(3n), nextIndex: LEAF_INDEX_LIMIT - 1 };
    expect(toNullifierPreimage(leaf)).toEqual({
      nullifier: field(1n),
      nextNullifier: field(3n),
      nextIndex: BigInt(LEAF_INDEX_LIMIT - 1),
    });
    expect(toPublicDataPreimage(leaf)).toEqual({
      slot: field(1n),
      value: field(2n),
      nextSlot: field(3n),
      nextIndex: BigInt(LEAF_INDEX_LIMIT - 1),
    });
  });
});
