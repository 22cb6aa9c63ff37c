import { hash } from 'node:crypto';
import type { Hex } from './chain.js';
import { bytesToHex, writeHexInto } from './codec/bytes.js';
import { FIELD_HASH_MEMO_INPUT_BYTES, type FieldHashMemo } from './hashMemo.js';

/**
 * docs/protocol.md, Tree hash: `hashToField(bytes) = sha256(bytes)` with its first byte set to zero, read as a
 * big-endian field element. Returns the 32 bytes.
 */
export function hashToFieldBytes(data: Uint8Array): Uint8Array {
  if (memo !== undefined && data.length === FIELD_HASH_MEMO_INPUT_BYTES) return memoized(memo, data);
  return computeFieldBytes(data);
}

/**
 * hashToFieldBytes of the 64 bytes of `source` at `offset` (a Merkle node's two children), written into `target` at
 * `targetOffset`: a tree's rehash writes each parent into its page this way, and a shared memo's hit allocates
 * nothing. `target`'s 32 bytes must not overlap the input.
 */
export function hashPairBytesInto(source: Uint8Array, offset: number, target: Uint8Array, targetOffset: number): void {
  if (memo !== undefined && memo.copyInto(source, offset, target, targetOffset)) return;
  const digest = computeFieldBytes(source.subarray(offset, offset + FIELD_HASH_MEMO_INPUT_BYTES));
  memo?.setAt(source, offset, digest);
  target.set(digest, targetOffset);
}

function computeFieldBytes(data: Uint8Array): Uint8Array {
  const digest = hash('sha256', data, 'buffer') as Buffer;
  const out = new Uint8Array(digest.buffer, digest.byteOffset, 32);
  out[0] = 0;
  return out;
}

let memo: FieldHashMemo | undefined;

/**
 * Shares the hashes of Merkle nodes (64-byte inputs) through `shared` from now on, or stops sharing (undefined).
 * For a process that runs several nodes over one chain (the simulator); see spec/hashMemo.ts.
 */
export function shareFieldHashes(shared: FieldHashMemo | undefined): void {
  memo = shared;
}

/** Fresh bytes either way: callers own what they get, so none can change another's. */
function memoized(shared: FieldHashMemo, data: Uint8Array): Uint8Array {
  const found = shared.get(data);
  if (found !== undefined) return found;
  const digest = computeFieldBytes(data);
  shared.set(data, digest);
  return digest;
}

export function hashToField(data: Uint8Array): Hex {
  return bytesToHex(hashToFieldBytes(data));
}

/** A Merkle node: hashToField(left || right), 32 bytes each. */
export function hashPair(left: Hex, right: Hex): Hex {
  const buf = Buffer.allocUnsafe(64);
  writeHexInto(buf, 0, left, 32);
  writeHexInto(buf, 32, right, 32);
  return hashToField(buf);
}
