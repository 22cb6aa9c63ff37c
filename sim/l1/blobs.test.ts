import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import { copyOfBlob, simVersionedHash } from './blobs.js';

function hashedAfresh(blob: Uint8Array): Hex {
  const digest = createHash('sha256').update(blob).digest();
  digest[0] = 0x01;
  return bytesToHex(digest);
}

function blobFrom(seed: Uint8Array): Uint8Array {
  const blob = new Uint8Array(BLOB_SIZE_BYTES);
  blob.set(seed);
  return blob;
}

describe('simVersionedHash and the L1-handed-out copies', () => {
  it('is 0x01 || sha256(blob)[1..32] for any blob, copied or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (seed) => {
        const blob = blobFrom(seed);
        const expected = hashedAfresh(blob);
        expect(simVersionedHash(blob)).toBe(expected);
        expect(simVersionedHash(copyOfBlob(blob, expected))).toBe(expected);
      }),
      { numRuns: 20 },
    );
  });

  it('hands out a fresh copy: altering it leaves the original, and a copy of the altered bytes is hashed afresh', () => {
    const blob = blobFrom(new Uint8Array([1, 2, 3]));
    const hash = simVersionedHash(blob);
    const copy = copyOfBlob(blob, hash);
    expect(copy).not.toBe(blob);
    expect(copy).toEqual(blob);
    const altered = copy.slice();
    altered[0] = 0xff;
    expect(simVersionedHash(altered)).toBe(hashedAfresh(altered));
    expect(simVersionedHash(altered)).not.toBe(hash);
    expect(simVersionedHash(blob)).toBe(hash);
  });
});
