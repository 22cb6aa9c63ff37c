import fc from 'fast-check';
import { keccak256 } from 'viem';
import { expect, it } from 'vitest';
import { keccak256Bytes, keccak256Hex } from './keccak.js';

it('is keccak256 as viem computes it, for any bytes', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 3_000 }), (data) => {
      expect(keccak256Hex(data)).toBe(keccak256(data));
      expect(keccak256Bytes(data)).toEqual(keccak256(data, 'bytes'));
    }),
    { numRuns: 300 },
  );
});

it('matches the empty-input vector and leaves its input untouched', () => {
  expect(keccak256Hex(new Uint8Array())).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  const data = Uint8Array.from([1, 2, 3]);
  keccak256Bytes(data);
  expect([...data]).toEqual([1, 2, 3]);
});
