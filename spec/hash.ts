import { hash } from 'node:crypto';
import type { Hex } from './chain.js';
import { bytesToHex, writeHexInto } from './codec/bytes.js';

/**
 * docs/protocol.md, Tree hash: `hashToField(bytes) = sha256(bytes)` with its first byte set to zero, read as a
 * big-endian field element. Returns the 32 bytes.
 */
export function hashToFieldBytes(data: Uint8Array): Uint8Array {
  const digest = hash('sha256', data, 'buffer') as Buffer;
  const out = new Uint8Array(digest.buffer, digest.byteOffset, 32);
  out[0] = 0;
  return out;
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
