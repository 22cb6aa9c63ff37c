import { describe, expect, test } from 'vitest';
import type { Hex } from '../chain.js';
import { NOTE_HASHES_PER_TX_MAX, NULLIFIERS_PER_TX_MAX } from '../constants.js';
import { ByteReader, ByteWriter, CodecError } from './bytes.js';
import { encodeTxEffects, minimalTxEffect, readTxEffect, txsEffectsHash, writeTxEffect } from './txEffect.js';

const h = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

describe('tx effect bytes', () => {
  test('a minimal effect is 105 bytes and reads back', () => {
    const effect = minimalTxEffect(h(1), h(2));
    const bytes = encodeTxEffects([effect]);
    expect(bytes.length).toBe(32 + 1 + 32 + 8 + 32); // hash, result, fee, eight counts, one nullifier
    expect(readTxEffect(new ByteReader(bytes))).toEqual(effect);
  });

  test('lists over their per-tx bound are refused both ways', () => {
    const tooMany = {
      ...minimalTxEffect(h(1), h(2)),
      noteHashes: Array.from({ length: NOTE_HASHES_PER_TX_MAX + 1 }, (_, i) => h(i)),
    };
    expect(() => writeTxEffect(new ByteWriter(), tooMany)).toThrow(/at most 64 note hashes/);
    const forged = new ByteWriter()
      .hex(h(1), 32)
      .uint(0, 1)
      .uint(0, 32)
      .uint(0, 1)
      .uint(NULLIFIERS_PER_TX_MAX + 1, 1)
      .finish();
    expect(() => readTxEffect(new ByteReader(forged))).toThrow(CodecError);
  });

  test('an unknown execution result code is refused', () => {
    const bytes = encodeTxEffects([minimalTxEffect(h(1), h(2))]);
    bytes[32] = 9;
    expect(() => readTxEffect(new ByteReader(bytes))).toThrow(/unknown execution result code 9/);
  });

  test('the header commitment changes with any effect field', () => {
    const base = minimalTxEffect(h(1), h(2));
    const variants = [
      { ...base, transactionFee: 1n },
      { ...base, executionResult: 'appLogicReverted' as const },
      { ...base, noteHashes: [h(3)] },
    ];
    for (const variant of variants) expect(txsEffectsHash([variant])).not.toBe(txsEffectsHash([base]));
  });
});
