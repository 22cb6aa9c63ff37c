import { describe, expect, it } from 'vitest';
import { AssertionError } from '../../core/assert.js';
import { createCryptoRandomness } from './cryptoRandomness.js';

describe('createCryptoRandomness', () => {
  const randomness = createCryptoRandomness();

  it('draws unsigned 32-bit integers spread over the whole range', () => {
    const draws = Array.from({ length: 1000 }, () => randomness.nextUint32());
    for (const draw of draws) {
      expect(Number.isInteger(draw)).toBe(true);
      expect(draw).toBeGreaterThanOrEqual(0);
      expect(draw).toBeLessThan(2 ** 32);
    }
    // Each of the top two bits is set in about half of the draws; 1000 draws put 350..650 beyond doubt.
    for (const bit of [31, 30]) {
      const set = draws.filter((draw) => (draw >>> bit) & 1).length;
      expect(set).toBeGreaterThan(350);
      expect(set).toBeLessThan(650);
    }
    expect(new Set(draws).size).toBeGreaterThan(990);
  });

  it('returns a plain Uint8Array of the requested length, different each time', () => {
    const first = randomness.bytes(32);
    const second = randomness.bytes(32);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(first)).toBe(false);
    expect(first).toHaveLength(32);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(randomness.bytes(0)).toHaveLength(0);
    expect(randomness.bytes(200_000)).toHaveLength(200_000);
  });

  it('refuses a byte count that is not a non-negative integer', () => {
    for (const length of [-1, 1.5, Number.NaN]) expect(() => randomness.bytes(length)).toThrow(AssertionError);
  });
});
