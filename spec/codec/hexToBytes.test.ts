import fc from 'fast-check';
import { expect, it } from 'vitest';
import { hexToBytes } from './bytes.js';

/** The rule as a pattern: what hexToBytes accepts, and what it gives back. */
const VALID = /^0x(?:[0-9a-fA-F]{2})*$/;
const reference = (text: string): Uint8Array | undefined =>
  VALID.test(text) ? new Uint8Array(Buffer.from(text.slice(2), 'hex')) : undefined;

const hexLike = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex').toUpperCase()}`),
  // One character changed, dropped or added: most of these are not hex any more.
  fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 20 }), fc.nat(), fc.constantFrom('g', 'x', ' ', '-', 'Z', '0', 'é'))
    .map(([bytes, at, char]) => {
      const text = `0x${Buffer.from(bytes).toString('hex')}`;
      const i = 2 + (at % (text.length - 2));
      return at % 3 === 0
        ? text.slice(0, i) + char + text.slice(i + 1)
        : at % 3 === 1
          ? text.slice(0, i) + text.slice(i + 1)
          : text.slice(0, i) + char + text.slice(i);
    }),
  fc.string({ maxLength: 12 }),
);

it('accepts exactly the even-length 0x-prefixed hex strings, and decodes them', () => {
  fc.assert(
    fc.property(hexLike, (text) => {
      const expected = reference(text);
      if (expected === undefined) expect(() => hexToBytes(text as `0x${string}`)).toThrow(/not an even-length/);
      else expect(hexToBytes(text as `0x${string}`)).toEqual(expected);
    }),
    { numRuns: 2_000 },
  );
});

it('refuses what is not a string, and checks the size it is asked for', () => {
  expect(() => hexToBytes(12 as unknown as `0x${string}`)).toThrow(/not an even-length/);
  expect(hexToBytes('0x')).toEqual(new Uint8Array());
  expect(() => hexToBytes('0x0102', 3)).toThrow(/expected 3 bytes, got 2/);
});
