import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Hex } from '../chain.js';
import {
  feePayerBalanceSlot,
  feePayerBalanceStorageSlot,
  l2ToL1MessageHash,
  publicDataLeafSlot,
  siloNullifier,
} from './storageSlots.js';

const word = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** hashToField written out: sha256 with its first byte zeroed. */
function reference(...parts: string[]): Hex {
  const digest = createHash('sha256')
    .update(Buffer.from(parts.join(''), 'hex'))
    .digest();
  digest[0] = 0;
  return `0x${digest.toString('hex')}`;
}

describe('public VM slots and hashes', () => {
  test('a public storage slot is hashToField(contract || slot)', () => {
    expect(publicDataLeafSlot(word(4), word(9))).toBe(reference(word(4).slice(2), word(9).slice(2)));
  });

  test("a fee payer's balance: slot hashToField(payer) in the fee asset, leaf hashToField(feeAsset || that)", () => {
    const payer = word(0xabc);
    const storageSlot = reference(payer.slice(2));
    expect(feePayerBalanceStorageSlot(payer)).toBe(storageSlot);
    expect(feePayerBalanceSlot(word(4), payer)).toBe(reference(word(4).slice(2), storageSlot.slice(2)));
  });

  test('an L2-to-L1 message hash pads the 20-byte recipient to 32 bytes', () => {
    const recipient: Hex = `0x${'11'.repeat(20)}`;
    expect(l2ToL1MessageHash(recipient, word(7))).toBe(reference('00'.repeat(12), '11'.repeat(20), word(7).slice(2)));
    expect(l2ToL1MessageHash(word(0x1111), word(7))).toBe(l2ToL1MessageHash('0x1111', word(7)));
  });

  test('siloing binds a nullifier to its contract', () => {
    expect(siloNullifier(word(1), word(5))).not.toBe(siloNullifier(word(2), word(5)));
  });
});
