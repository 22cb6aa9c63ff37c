import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { FR_MODULUS } from '../constants.js';
import { blockParameter, type BlockQueryValue } from './blockParameter.js';

const hash = `0x${'1a'.repeat(32)}` as const;

describe('blockParameter', () => {
  test('decodes every wire form into a BlockQuery', () => {
    const cases: [unknown, BlockQueryValue][] = [
      [0, { kind: 'number', number: 0 }],
      [17, { kind: 'number', number: 17 }],
      [hash, { kind: 'hashOrArchive', value: hash }],
      [hash.toUpperCase().replace('0X', '0x'), { kind: 'hashOrArchive', value: hash }],
      ['latest', { kind: 'tag', tag: 'latest' }],
      ['proposed', { kind: 'tag', tag: 'proposed' }],
      ['checkpointed', { kind: 'tag', tag: 'checkpointed' }],
      ['proven', { kind: 'tag', tag: 'proven' }],
      ['finalized', { kind: 'tag', tag: 'finalized' }],
      [{ number: 3 }, { kind: 'number', number: 3 }],
      [{ hash }, { kind: 'hash', hash }],
      [{ archive: hash }, { kind: 'archive', archive: hash }],
      [{ tag: 'latest' }, { kind: 'tag', tag: 'latest' }],
      [{ tag: 'finalized' }, { kind: 'tag', tag: 'finalized' }],
    ];
    for (const [wire, query] of cases) expect(blockParameter.parse(wire)).toEqual(query);
  });

  test('refuses malformed values with a message about the offending part', () => {
    const reasons = (input: unknown): string => {
      const result = blockParameter.safeParse(input);
      expect(result.success).toBe(false);
      return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    };
    expect(reasons(-1)).toMatch(/non-negative safe integer/);
    expect(reasons(1.5)).toMatch(/non-negative safe integer, got 1.5/);
    expect(reasons('0x12')).toMatch(/expected a block number/);
    expect(reasons('pending')).toMatch(/'latest'/);
    expect(reasons(true)).toMatch(/expected a block number/);
    expect(reasons(null)).toMatch(/expected a block number/);
    expect(reasons({ hash: '0x12' })).toMatch(/^hash: .*got 1 byte/);
    expect(reasons({ archive: `0x${FR_MODULUS.toString(16).padStart(64, '0')}` })).toMatch(/^archive: .*modulus/);
    expect(reasons({})).toMatch(/exactly one/);
    expect(reasons({ number: 1, hash })).toMatch(/exactly one/);
    expect(reasons({ blockNumber: 1 })).toMatch(/Unrecognized key/);
    expect(reasons({ tag: 'pending' })).toMatch(/^: tag: expected 'latest'/);
    expect(reasons({ number: '1' })).toMatch(/^: number: expected a non-negative safe integer/);
    expect(reasons([1])).toMatch(/expected a block number/);
  });

  test('encode then decode gives the query back', () => {
    const hex = fc
      .bigInt({ min: 0n, max: FR_MODULUS - 1n })
      .map((v) => `0x${v.toString(16).padStart(64, '0')}` as const);
    const query: fc.Arbitrary<BlockQueryValue> = fc.oneof(
      fc.nat().map((number) => ({ kind: 'number' as const, number })),
      hex.map((value) => ({ kind: 'hash' as const, hash: value })),
      hex.map((value) => ({ kind: 'archive' as const, archive: value })),
      hex.map((value) => ({ kind: 'hashOrArchive' as const, value })),
      fc
        .constantFrom('latest', 'proposed', 'checkpointed', 'proven', 'finalized')
        .map((tag) => ({ kind: 'tag' as const, tag })),
    );
    fc.assert(
      fc.property(query, (q) => {
        expect(blockParameter.parse(JSON.parse(JSON.stringify(z.encode(blockParameter, q))))).toEqual(q);
      }),
    );
  });
});
