import { hashPairBytesInto, hashToFieldBytes } from '../../spec/hash.js';

/**
 * hashToField on bytes (docs/protocol.md, Tree hash), counting every call: the world-state benchmark divides block time
 * by (hashes x the time of one hash), so the count must cover every hash the engine computes.
 */
export class CountingHasher {
  /** Hashes computed since this hasher was created. */
  count = 0;

  hash(data: Uint8Array): Uint8Array {
    this.count++;
    return hashToFieldBytes(data);
  }

  /** `hash` of the 64 bytes of `source` at `offset`, written into `target` at `targetOffset` (hashPairBytesInto). */
  hashPairInto(source: Uint8Array, offset: number, target: Uint8Array, targetOffset: number): void {
    this.count++;
    hashPairBytesInto(source, offset, target, targetOffset);
  }
}
