import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CHECKPOINT_MANA_LIMIT, CHECKPOINT_MANA_TARGET, MIN_FEE_PER_MANA, PREDICTED_FEE_SLOTS } from '../../spec/constants.js';
import { GENESIS_GAS_FEES, nextGasFees, predictedGasFees } from './minFees.js';

const fees = (feePerL2Gas: bigint) => ({ feePerDaGas: GENESIS_GAS_FEES.feePerDaGas, feePerL2Gas });
const target = BigInt(CHECKPOINT_MANA_TARGET);
const limit = BigInt(CHECKPOINT_MANA_LIMIT);

describe('minimum fees', () => {
  test('at the target the fee holds; a full checkpoint raises it by an eighth; an empty one lowers it to the floor', () => {
    expect(nextGasFees({ gasFees: fees(8_000n), manaUsed: target }).feePerL2Gas).toBe(8_000n);
    expect(nextGasFees({ gasFees: fees(8_000n), manaUsed: limit }).feePerL2Gas).toBe(9_000n);
    expect(nextGasFees({ gasFees: fees(8_000n), manaUsed: 0n }).feePerL2Gas).toBe(7_000n);
    expect(nextGasFees({ gasFees: GENESIS_GAS_FEES, manaUsed: 0n }).feePerL2Gas).toBe(MIN_FEE_PER_MANA);
  });

  test('property: the fee moves by at most an eighth (or one unit), up iff above the target, never below the floor', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_FEE_PER_MANA, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: limit * 2n }), (fee, used) => {
        const next = nextGasFees({ gasFees: fees(fee), manaUsed: used }).feePerL2Gas;
        expect(next >= MIN_FEE_PER_MANA).toBe(true);
        const bound = fee / 8n + 1n;
        expect(next - fee <= bound && fee - next <= bound).toBe(true);
        if (used > target) expect(next > fee).toBe(true);
        if (used < target && fee > MIN_FEE_PER_MANA) expect(next <= fee).toBe(true);
      }),
    );
  });

  test('predictions: current fees first, then one per slot; none <= target <= limit', () => {
    const last = { gasFees: fees(50_000n), manaUsed: limit };
    const [none, atTarget, atLimit] = (['none', 'target', 'limit'] as const).map((usage) => predictedGasFees(last, usage));
    for (const series of [none!, atTarget!, atLimit!]) expect(series).toHaveLength(PREDICTED_FEE_SLOTS + 1);
    expect(none![0]).toEqual(atLimit![0]);
    for (let i = 0; i <= PREDICTED_FEE_SLOTS; i++) {
      expect(none![i]!.feePerL2Gas <= atTarget![i]!.feePerL2Gas && atTarget![i]!.feePerL2Gas <= atLimit![i]!.feePerL2Gas).toBe(true);
    }
    expect(new Set(atTarget!.map((f) => f.feePerL2Gas))).toEqual(new Set([atTarget![0]!.feePerL2Gas]));
  });
});
