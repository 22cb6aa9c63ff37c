import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import {
  FR_MODULUS,
  L1_TO_L2_MESSAGES_PER_BLOCK_MAX,
  PUBLIC_DATA_WRITES_PER_TX_MAX,
  TXS_PER_BLOCK_MAX,
} from '../../spec/constants.js';
import { type BlockStateEffects, normalizeField, type TxStateEffects, validateBlockEffects } from './blockEffects.js';
import { thrownWorldStateError } from '../../test/worldState/thrownWorldStateError.js';

const fieldHex = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const ONE = fieldHex(1n);
const SUBTREE_LEAVES = 4;

const tx = (overrides: Partial<TxStateEffects> = {}): TxStateEffects => ({
  noteHashes: [],
  nullifiers: [],
  publicDataWrites: [],
  ...overrides,
});
const block = (txs: readonly TxStateEffects[], l1ToL2Messages: readonly Hex[] = []): BlockStateEffects => ({
  txs,
  l1ToL2Messages,
});

describe('normalizeField', () => {
  it('gives a field element as lowercase 32-byte hex', () => {
    expect(normalizeField(`0x${'0A'.repeat(4)}${'00'.repeat(28)}` as Hex, 'x')).toBe(
      `0x${'0a'.repeat(4)}${'00'.repeat(28)}`,
    );
    expect(normalizeField(fieldHex(FR_MODULUS - 1n), 'x')).toBe(fieldHex(FR_MODULUS - 1n));
  });

  it('refuses what is not a field element, naming it in the error', () => {
    const invalid: unknown[] = [
      fieldHex(FR_MODULUS),
      fieldHex(FR_MODULUS + 1n),
      '0x01',
      `0x${'zz'.repeat(32)}`,
      `${'00'.repeat(33)}`,
      42,
    ];
    for (const value of invalid) {
      const error = thrownWorldStateError(() => normalizeField(value as Hex, 'the slot'));
      expect(error.code).toBe('WORLD_STATE_EFFECTS_INVALID');
      expect(error.details).toEqual({ what: 'the slot' });
      expect(error.message).toBe(`the slot is not a 32-byte field element: ${String(value).slice(0, 80)}`);
    }
  });

  it('quotes at most 80 characters of a long value', () => {
    const long = `0x${'f'.repeat(200)}` as Hex;
    expect(thrownWorldStateError(() => normalizeField(long, 'v')).message).toBe(
      `v is not a 32-byte field element: ${long.slice(0, 80)}`,
    );
  });
});

describe('validateBlockEffects', () => {
  it('normalizes every field of the block', () => {
    const upper = `0x${'0A'.repeat(32)}` as Hex;
    const lower = upper.toLowerCase() as Hex;
    const effects = block(
      [tx({ noteHashes: [upper], nullifiers: [upper], publicDataWrites: [{ leafSlot: upper, value: upper }] })],
      [upper],
    );
    expect(validateBlockEffects(effects, SUBTREE_LEAVES)).toEqual(
      block(
        [tx({ noteHashes: [lower], nullifiers: [lower], publicDataWrites: [{ leafSlot: lower, value: lower }] })],
        [lower],
      ),
    );
  });

  it('names the malformed field by its place in the block', () => {
    const bad = '0x01' as Hex;
    const write = { leafSlot: ONE, value: ONE };
    const cases: [BlockStateEffects, string][] = [
      [block([tx(), tx({ noteHashes: [ONE, bad] })]), 'note hash 1 of tx 1'],
      [block([tx({ nullifiers: [bad] })]), 'nullifier 0 of tx 0'],
      [block([tx({ publicDataWrites: [write, { leafSlot: bad, value: ONE }] })]), 'public data write 1 of tx 0 (slot)'],
      [block([tx({ publicDataWrites: [{ leafSlot: ONE, value: bad }] })]), 'public data write 0 of tx 0 (value)'],
      [block([], [ONE, ONE, bad]), 'L1-to-L2 message 2'],
    ];
    for (const [effects, what] of cases) {
      expect(thrownWorldStateError(() => validateBlockEffects(effects, SUBTREE_LEAVES)).details).toEqual({ what });
    }
  });

  it('refuses a count above its limit, and accepts one at it', () => {
    const many = (count: number): Hex[] => Array.from({ length: count }, () => ONE);
    const writes = (count: number) => Array.from({ length: count }, () => ({ leafSlot: ONE, value: ONE }));
    const cases: [(over: number) => BlockStateEffects, number, string][] = [
      [(n) => block(Array.from({ length: n }, () => tx())), TXS_PER_BLOCK_MAX, 'txs in the block'],
      [(n) => block([], many(n)), L1_TO_L2_MESSAGES_PER_BLOCK_MAX, 'L1-to-L2 messages in the block'],
      [(n) => block([tx(), tx({ noteHashes: many(n) })]), SUBTREE_LEAVES, 'note hashes of tx 1'],
      [(n) => block([tx({ nullifiers: many(n) })]), SUBTREE_LEAVES, 'nullifiers of tx 0'],
      [
        (n) => block([tx({ publicDataWrites: writes(n) })]),
        PUBLIC_DATA_WRITES_PER_TX_MAX,
        'public data writes of tx 0',
      ],
    ];
    for (const [effectsOf, max, what] of cases) {
      expect(() => validateBlockEffects(effectsOf(max), SUBTREE_LEAVES)).not.toThrow();
      const error = thrownWorldStateError(() => validateBlockEffects(effectsOf(max + 1), SUBTREE_LEAVES));
      expect(error.code).toBe('WORLD_STATE_EFFECTS_INVALID');
      expect(error.details).toEqual({ what, count: max + 1, max });
      expect(error.message).toBe(`${what}: ${max + 1} is above the limit of ${max}`);
    }
  });
});
