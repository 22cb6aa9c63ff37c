import { hashToFieldBytes, hashToFieldInto } from '../../spec/hash.js';

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

  /** hash() of the `length` bytes of `input` at `offset`, written into `out` at `outOffset`. */
  hashInto(input: Uint8Array, offset: number, length: number, out: Uint8Array, outOffset: number): void {
    this.count++;
    hashToFieldInto(input, offset, length, out, outOffset);
  }
}
