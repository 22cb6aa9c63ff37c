import type { Hex } from '../../spec/chain.js';
import { bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import type { CountingHasher } from './countingHasher.js';

/**
 * Leaves of the indexed trees (docs/protocol.md, Indexed leaves): a sorted linked list stored in insertion order. A
 * nullifier leaf hashes `nullifier || nextNullifier || nextIndex`, a public data leaf `slot || value || nextSlot ||
 * nextIndex`, each field 32 bytes big-endian. The last leaf of the list points to 0/0.
 */
export type IndexedTreeKind = 'nullifier' | 'publicData';

/** One leaf in a shape common to both trees: `value` is zero in the nullifier tree. */
export interface IndexedLeaf {
  readonly key: Hex;
  readonly value: Hex;
  readonly nextKey: Hex;
  readonly nextIndex: number;
}

/** The nullifier leaf preimage (docs/protocol.md, Indexed leaves). */
export interface NullifierLeafPreimage {
  readonly nullifier: Hex;
  readonly nextNullifier: Hex;
  readonly nextIndex: bigint;
}

/** The public data leaf preimage (docs/protocol.md, Indexed leaves). */
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

/** 32 bytes of a field already validated as 32-byte hex (no checks: this is the hot path). */
export function fieldBytes(value: Hex): Uint8Array {
  return Buffer.from(value.slice(2), 'hex');
}

/** Byte offsets of the stored fields. */
function layoutOf(kind: IndexedTreeKind): { value: number; nextKey: number; nextIndex: number } {
  return kind === 'nullifier'
    ? { value: -1, nextKey: FIELD_BYTES, nextIndex: 2 * FIELD_BYTES }
    : { value: FIELD_BYTES, nextKey: 2 * FIELD_BYTES, nextIndex: 3 * FIELD_BYTES };
}

function writeNextIndex(out: Uint8Array, offset: number, nextIndex: number): void {
  const view = new DataView(out.buffer, out.byteOffset + offset, NEXT_INDEX_STORED_BYTES);
  view.setUint32(0, Math.floor(nextIndex / TWO_POW_32));
  view.setUint32(4, nextIndex % TWO_POW_32);
}

export function encodePreimage(kind: IndexedTreeKind, leaf: IndexedLeaf): Uint8Array {
  const out = new Uint8Array(preimageBytesOf(kind));
  const layout = layoutOf(kind);
  out.set(fieldBytes(leaf.key), 0);
  if (layout.value >= 0) out.set(fieldBytes(leaf.value), layout.value);
  out.set(fieldBytes(leaf.nextKey), layout.nextKey);
  writeNextIndex(out, layout.nextIndex, leaf.nextIndex);
  return out;
}

/**
 * A stored preimage with some fields replaced (undefined keeps the stored one). Nullifier leaves have no value.
 * Returns a new array; `stored` is not touched.
 */
export function patchPreimage(
  kind: IndexedTreeKind,
  stored: Uint8Array,
  value: Hex | undefined,
  next: { readonly key: Hex; readonly index: number } | undefined,
): Uint8Array {
  const out = stored.slice();
  const layout = layoutOf(kind);
  if (value !== undefined && layout.value >= 0) out.set(fieldBytes(value), layout.value);
  if (next !== undefined) {
    out.set(fieldBytes(next.key), layout.nextKey);
    writeNextIndex(out, layout.nextIndex, next.index);
  }
  return out;
}

export function decodePreimage(kind: IndexedTreeKind, bytes: Uint8Array): IndexedLeaf {
  const field = (i: number): Hex => bytesToHex(bytes.subarray(i * FIELD_BYTES, (i + 1) * FIELD_BYTES));
  const view = new DataView(
    bytes.buffer,
    bytes.byteOffset + bytes.length - NEXT_INDEX_STORED_BYTES,
    NEXT_INDEX_STORED_BYTES,
  );
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
