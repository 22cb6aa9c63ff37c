/** The production randomness port: the operating system's cryptographically secure generator, through node:crypto. */
import { randomBytes, randomFillSync } from 'node:crypto';
import type { RandomnessPort } from '../../core/ports.js';
import { assert } from '../../core/assert.js';

export function createCryptoRandomness(): RandomnessPort {
  return {
    nextUint32: () => randomBytes(4).readUInt32BE(0),
    bytes: (length) => {
      assert(Number.isSafeInteger(length) && length >= 0, `byte count is a non-negative integer, got ${length}`);
      return randomFillSync(new Uint8Array(length));
    },
  };
}
