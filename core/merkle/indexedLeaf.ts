import type { Hex } from '../../spec/chain.js';
import { bytesToHex, hexToBytes, zeroHex } from '../../spec/codec/bytes.js';
import type { CountingHasher } from './countingHasher.js';

/**
 * Leaves of the indexed trees (PROTOCOL.md): a sorted linked list stored in insertion order. A nullifier leaf hashes
 * `nullifier || nextNullifier || nextIndex`, a public data leaf `slot || value || nextSlot || nextIndex`, each field
 * 32 bytes big-endian. The last leaf of the list points to 0/0.
 */
export type IndexedTreeKind = 'nullifier' | 'publicData';

/** One leaf in a shape common to both trees: `value` is zero in the nullifier tree. */
export interface IndexedLeaf {
  readonly key: Hex;
  readonly value: Hex;
  readonly nextKey: Hex;
  readonly nextIndex: number;
}

/** PROTOCOL.md's nullifier leaf preimage. */
export interface NullifierLeafPreimage {
  readonly nullifier: Hex;
  readonly nextNullifier: Hex;
  readonly nextIndex: bigint;
}

/** PROTOCOL.md's public data leaf preimage. */
export interface PublicDataLeafPreimage {
  readonly slot: Hex;
  readonly value: Hex;
  readonly nextSlot: Hex;
  readonly nextIndex: bigint;
}

const FIELD_BYTES = 32;
/** Stored width of `nextIndex` (indices stay below 2^48); it is hashed as 32 bytes. */
const NEXT_INDEX_STORED_BYTES = 8;
const TWO_POW_32 = 2 ** 32;

/**
 * Stored preimage layout: the hashed fields in hash order, with nextIndex in 8 bytes instead of 32.
 * Nullifier: key | nextKey | nextIndex (72 bytes). Public data: key | value | nextKey | nextIndex (104 bytes).
 */
export function preimageBytesOf(kind: IndexedTreeKind): number {
  return (kind === 'nullifier' ? 2 : 3) * FIELD_BYTES + NEXT_INDEX_STORED_BYTES;
}

export function encodePreimage(kind: IndexedTreeKind, leaf: IndexedLeaf): Uint8Array {
  const out = new Uint8Array(preimageBytesOf(kind));
  let offset = 0;
  out.set(hexToBytes(leaf.key, FIELD_BYTES), offset);
  offset += FIELD_BYTES;
  if (kind === 'publicData') {
    out.set(hexToBytes(leaf.value, FIELD_BYTES), offset);
    offset += FIELD_BYTES;
  }
  out.set(hexToBytes(leaf.nextKey, FIELD_BYTES), offset);
  offset += FIELD_BYTES;
  const view = new DataView(out.buffer, out.byteOffset + offset, NEXT_INDEX_STORED_BYTES);
  view.setUint32(0, Math.floor(leaf.nextIndex / TWO_POW_32));
  view.setUint32(4, leaf.nextIndex % TWO_POW_32);
  return out;
}

export function decodePreimage(kind: IndexedTreeKind, bytes: Uint8Array): IndexedLeaf {
  const field = (i: number): Hex => bytesToHex(bytes.subarray(i * FIELD_BYTES, (i + 1) * FIELD_BYTES));
  const view = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - NEXT_INDEX_STORED_BYTES, NEXT_INDEX_STORED_BYTES);
  const nextIndex = view.getUint32(0) * TWO_POW_32 + view.getUint32(4);
  if (kind === 'nullifier') return { key: field(0), value: zeroHex(FIELD_BYTES), nextKey: field(1), nextIndex };
  return { key: field(0), value: field(1), nextKey: field(2), nextIndex };
}

/** The leaf hash of a stored preimage: its fields with nextIndex widened to 32 bytes. */
export function hashPreimage(hasher: CountingHasher, preimage: Uint8Array): Uint8Array {
  const fieldsBytes = preimage.length - NEXT_INDEX_STORED_BYTES;
  const input = new Uint8Array(fieldsBytes + FIELD_BYTES);
  input.set(preimage.subarray(0, fieldsBytes), 0);
  input.set(preimage.subarray(fieldsBytes), input.length - NEXT_INDEX_STORED_BYTES);
  return hasher.hash(input);
}

export function toNullifierPreimage(leaf: IndexedLeaf): NullifierLeafPreimage {
  return { nullifier: leaf.key, nextNullifier: leaf.nextKey, nextIndex: BigInt(leaf.nextIndex) };
}

export function toPublicDataPreimage(leaf: IndexedLeaf): PublicDataLeafPreimage {
  return { slot: leaf.key, value: leaf.value, nextSlot: leaf.nextKey, nextIndex: BigInt(leaf.nextIndex) };
}
