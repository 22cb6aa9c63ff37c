import type { Hex } from '../../spec/chain.js';
import { bytesToHex, writeHexInto, zeroHex } from '../../spec/codec/bytes.js';
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
  writePreimage(kind, out, leaf);
  return out;
}

/** Writes `leaf`'s stored preimage over `out` (preimageBytesOf(kind) bytes, e.g. its slot in a page). */
export function writePreimage(kind: IndexedTreeKind, out: Uint8Array, leaf: IndexedLeaf): void {
  const layout = layoutOf(kind);
  const view = bufferView(out);
  writeHexInto(view, 0, leaf.key, FIELD_BYTES);
  if (layout.value >= 0) writeHexInto(view, layout.value, leaf.value, FIELD_BYTES);
  writeHexInto(view, layout.nextKey, leaf.nextKey, FIELD_BYTES);
  writeNextIndex(out, layout.nextIndex, leaf.nextIndex);
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
  patchPreimageInPlace(kind, out, value, next);
  return out;
}

/** Replaces some fields of a stored preimage where it lies (undefined keeps the stored one). */
export function patchPreimageInPlace(
  kind: IndexedTreeKind,
  preimage: Uint8Array,
  value: Hex | undefined,
  next: { readonly key: Hex; readonly index: number } | undefined,
): void {
  const layout = layoutOf(kind);
  const view = bufferView(preimage);
  if (value !== undefined && layout.value >= 0) writeHexInto(view, layout.value, value, FIELD_BYTES);
  if (next !== undefined) {
    writeHexInto(view, layout.nextKey, next.key, FIELD_BYTES);
    writeNextIndex(preimage, layout.nextIndex, next.index);
  }
}

/** Whether a stored preimage holds `key` (32-byte lowercase hex). */
export function preimageHasKey(preimage: Uint8Array, key: Hex): boolean {
  return `0x${bufferView(preimage).toString('hex', 0, FIELD_BYTES)}` === key;
}

const bufferView = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

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

/** Hash inputs by length, reused: a hash reads its input before it returns, and nothing else keeps it. */
const hashInputs = new Map<number, Uint8Array>();

/** The leaf hash of a stored preimage: its fields with nextIndex widened to 32 bytes. */
export function hashPreimage(hasher: CountingHasher, preimage: Uint8Array): Uint8Array {
  const fieldsBytes = preimage.length - NEXT_INDEX_STORED_BYTES;
  const inputBytes = fieldsBytes + FIELD_BYTES;
  let input = hashInputs.get(inputBytes);
  if (input === undefined) {
    input = new Uint8Array(inputBytes);
    hashInputs.set(inputBytes, input);
  }
  // The widened nextIndex's high bytes are never written, so they stay zero.
  input.set(preimage.subarray(0, fieldsBytes), 0);
  input.set(preimage.subarray(fieldsBytes), inputBytes - NEXT_INDEX_STORED_BYTES);
  return hasher.hash(input);
}

export function toNullifierPreimage(leaf: IndexedLeaf): NullifierLeafPreimage {
  return { nullifier: leaf.key, nextNullifier: leaf.nextKey, nextIndex: BigInt(leaf.nextIndex) };
}

export function toPublicDataPreimage(leaf: IndexedLeaf): PublicDataLeafPreimage {
  return { slot: leaf.key, value: leaf.value, nextSlot: leaf.nextKey, nextIndex: BigInt(leaf.nextIndex) };
}
