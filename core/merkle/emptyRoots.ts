import type { Hex } from '../../spec/chain.js';
import { hexToBytes, zeroHex } from '../../spec/codec/bytes.js';
import { hashPair } from '../../spec/hash.js';

/** Tallest tree of the protocol; bounds the cache below. */
const TREE_HEIGHT_MAX = 64;
const cache: Hex[] = [zeroHex(32)];

/** Root of an empty subtree of `height` levels: zero at the leaves, each level the hash of two empty children. */
export function emptyRoot(height: number): Hex {
  if (height < 0 || height > TREE_HEIGHT_MAX) throw new RangeError(`tree height ${height} out of range`);
  while (cache.length <= height) {
    const below = cache[cache.length - 1]!;
    cache.push(hashPair(below, below));
  }
  return cache[height]!;
}

const bytesCache: Uint8Array[] = [];

/** emptyRoot(height) as its 32 bytes (shared: callers must not write to it). */
export function emptyRootBytes(height: number): Uint8Array {
  const known = bytesCache[height];
  if (known !== undefined) return known;
  const bytes = hexToBytes(emptyRoot(height), 32);
  bytesCache[height] = bytes;
  return bytes;
}
