import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { FR_MODULUS } from '../constants.js';
import {
  bigUint,
  blockTagWithoutLatest,
  bytes32,
  checkpointTag,
  ethAddress,
  fr,
  safeUint,
  slotNumber,
} from './scalars.js';

const hexOf = (value: bigint, bytes = 32): string => `0x${value.toString(16).padStart(bytes * 2, '0')}`;
const messageOf = (schema: z.ZodType, input: unknown): string => {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.error?.issues[0]?.message ?? '';
};

describe('safeUint', () => {
  test('accepts safe non-negative integers only', () => {
    expect(safeUint.parse(0)).toBe(0);
    expect(safeUint.parse(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, '1', null, true]) {
      expect(messageOf(safeUint, bad)).toMatch(/non-negative safe integer/);
    }
  });
});

describe('bigUint', () => {
  test('decodes decimal strings and safe JSON integers', () => {
    expect(bigUint.parse('0')).toBe(0n);
    expect(bigUint.parse('007')).toBe(7n);
    expect(bigUint.parse('115792089237316195423570985008687907853269984665640564039457584007913129639935')).toBe(
      2n ** 256n - 1n,
    );
    expect(bigUint.parse(42)).toBe(42n);
  });

  test('refuses non-decimal strings, negatives, unsafe integers and values of 2^256 or more', () => {
    for (const bad of ['0x10', '1e3', '-1', ' 1', '1.0', '', 'abc']) {
      expect(messageOf(bigUint, bad)).toMatch(/decimal digits/);
    }
    expect(messageOf(bigUint, -1)).toMatch(/non-negative safe integer/);
    expect(messageOf(bigUint, 2 ** 60)).toMatch(/non-negative safe integer/);
    expect(messageOf(bigUint, (2n ** 256n).toString())).toMatch(/2\^256/);
    expect(messageOf(bigUint, '1'.repeat(79))).toMatch(/at most 78/);
  });

  test('encodes to canonical decimal strings', () => {
    expect(z.encode(bigUint, 0n)).toBe('0');
    expect(z.encode(bigUint, 2n ** 70n)).toBe('1180591620717411303424');
    expect(() => z.encode(bigUint, -1n)).toThrow();
  });

  test('decode(encode(x)) = x for every 256-bit value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (value) => {
        expect(bigUint.parse(z.encode(bigUint, value))).toBe(value);
      }),
    );
  });
});

describe('slotNumber', () => {
  test('is a decimal string on the wire and a number inside', () => {
    expect(slotNumber.parse('12')).toBe(12);
    expect(slotNumber.parse(12)).toBe(12);
    expect(z.encode(slotNumber, 12)).toBe('12');
    expect(slotNumber.safeParse('12a').success).toBe(false);
    expect(slotNumber.safeParse('9007199254740993').success).toBe(false);
  });
});

describe('Fr', () => {
  test('accepts 32-byte hex below the modulus, in either case, and decodes to lowercase', () => {
    expect(fr.parse(hexOf(0n))).toBe(hexOf(0n));
    expect(fr.parse(hexOf(FR_MODULUS - 1n))).toBe(hexOf(FR_MODULUS - 1n));
    expect(fr.parse(`0x00${'AB'.repeat(15)}${'00'.repeat(16)}`)).toBe(`0x00${'ab'.repeat(15)}${'00'.repeat(16)}`);
  });

  test('refuses the modulus and above', () => {
    expect(messageOf(fr, hexOf(FR_MODULUS))).toMatch(/below the BN254 scalar field modulus/);
    expect(messageOf(fr, hexOf(2n ** 256n - 1n))).toMatch(/below the BN254 scalar field modulus/);
  });

  test('refuses wrong lengths and non-hex, saying what it got', () => {
    expect(messageOf(fr, '0x12')).toMatch(/32 bytes\), got 1 byte$/);
    expect(messageOf(fr, `0x${'00'.repeat(33)}`)).toMatch(/got 33 bytes/);
    expect(messageOf(fr, '0x123')).toMatch(/odd number/);
    expect(messageOf(fr, '00'.repeat(32))).toMatch(/0x-prefixed/);
    expect(messageOf(fr, 5)).toMatch(/got 5/);
  });

  test('encoding checks the value too', () => {
    expect(() => z.encode(fr, hexOf(FR_MODULUS) as `0x${string}`)).toThrow();
    expect(() => z.encode(fr, `0x${'AB'.repeat(32)}` as `0x${string}`)).toThrow();
    expect(z.encode(fr, hexOf(5n) as `0x${string}`)).toBe(hexOf(5n));
  });
});

describe('byte strings', () => {
  test('bytes32 takes any 32-byte value; EthAddress exactly 20 bytes', () => {
    expect(bytes32.parse(hexOf(2n ** 256n - 1n))).toBe(hexOf(2n ** 256n - 1n));
    expect(ethAddress.parse(`0x${'Ab'.repeat(20)}`)).toBe(`0x${'ab'.repeat(20)}`);
    expect(messageOf(ethAddress, hexOf(1n))).toMatch(/20 bytes\), got 32 bytes/);
  });
});

describe('tags', () => {
  test("BlockTagWithoutLatest refuses 'latest' with a hint", () => {
    expect(blockTagWithoutLatest.parse('proven')).toBe('proven');
    expect(messageOf(blockTagWithoutLatest, 'latest')).toMatch(/'latest' is not accepted/);
    expect(messageOf(blockTagWithoutLatest, 'pending')).toMatch(/expected one of/);
  });

  test("CheckpointTag refuses 'proposed'", () => {
    expect(checkpointTag.parse('finalized')).toBe('finalized');
    expect(messageOf(checkpointTag, 'proposed')).toMatch(/'proposed' is not a valid checkpoint tag/);
  });
});
