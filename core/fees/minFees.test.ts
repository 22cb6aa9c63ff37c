import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../../spec/config/schema.js';
import {
  CHECKPOINT_MANA_LIMIT,
  CHECKPOINT_MANA_TARGET,
  ETH_PER_FEE_ASSET_PRECISION,
  PREDICTED_FEE_SLOTS,
} from '../../spec/constants.js';
import { AssertionError } from '../assert.js';
import { feeFloor, genesisFeeBasis, nextGasFees, predictedGasFees } from './minFees.js';

const FLOOR = feeFloor(INITIAL_ETH_PER_FEE_ASSET_DEFAULT);
const MIN_FEE_PER_MANA = FLOOR.feePerL2Gas;
const fees = (feePerL2Gas: bigint) => ({ feePerDaGas: FLOOR.feePerDaGas, feePerL2Gas });
const next = (basis: Parameters<typeof nextGasFees>[0]) => nextGasFees(basis, FLOOR);
const target = BigInt(CHECKPOINT_MANA_TARGET);
const limit = BigInt(CHECKPOINT_MANA_LIMIT);

describe('minimum fees', () => {
  test('the floor at the default rate is 1,000 per mana and 100 per DA gas; a dearer fee asset lowers it', () => {
    expect(FLOOR).toEqual({ feePerL2Gas: 1_000n, feePerDaGas: 100n });
    expect(feeFloor(INITIAL_ETH_PER_FEE_ASSET_DEFAULT * 2n)).toEqual({ feePerL2Gas: 500n, feePerDaGas: 50n });
    expect(feeFloor(INITIAL_ETH_PER_FEE_ASSET_DEFAULT / 10n)).toEqual({ feePerL2Gas: 10_000n, feePerDaGas: 1_000n });
    // One wei per fee-asset unit and dearer: the floor never rounds down to a free tx.
    expect(feeFloor(ETH_PER_FEE_ASSET_PRECISION)).toEqual({ feePerL2Gas: 1n, feePerDaGas: 1n });
    expect(feeFloor(10n ** 40n)).toEqual({ feePerL2Gas: 1n, feePerDaGas: 1n });
    expect(genesisFeeBasis(FLOOR).gasFees).toEqual(FLOOR);
  });

  test('property: the floor is at least 1, falls as the rate rises, and covers the base-currency cost', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.bigInt({ min: 1n, max: 10n ** 24n }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const [atLow, atHigh] = [feeFloor(low), feeFloor(high)];
        expect(atHigh.feePerL2Gas >= 1n && atHigh.feePerDaGas >= 1n).toBe(true);
        expect(atHigh.feePerL2Gas <= atLow.feePerL2Gas && atHigh.feePerDaGas <= atLow.feePerDaGas).toBe(true);
        // fee * rate / precision, in wei per mega gas, is at least the set cost (rounded up, never under).
        expect(atLow.feePerL2Gas * low * 1_000_000n >= 10_000n * ETH_PER_FEE_ASSET_PRECISION).toBe(true);
        expect(atLow.feePerDaGas * low * 1_000_000n >= 1_000n * ETH_PER_FEE_ASSET_PRECISION).toBe(true);
      }),
    );
  });

  test('at the target the fee holds; a full checkpoint raises it by an eighth; an empty one lowers it to the floor', () => {
    expect(next({ gasFees: fees(8_000n), manaUsed: target }).feePerL2Gas).toBe(8_000n);
    expect(next({ gasFees: fees(8_000n), manaUsed: limit }).feePerL2Gas).toBe(9_000n);
    expect(next({ gasFees: fees(8_000n), manaUsed: 0n }).feePerL2Gas).toBe(7_000n);
    expect(next({ gasFees: FLOOR, manaUsed: 0n }).feePerL2Gas).toBe(MIN_FEE_PER_MANA);
  });

  test('property: the fee moves by at most an eighth (or one unit), up iff above the target, never below the floor', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: MIN_FEE_PER_MANA, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: limit * 2n }),
        (fee, used) => {
          const after = next({ gasFees: fees(fee), manaUsed: used }).feePerL2Gas;
          expect(after >= MIN_FEE_PER_MANA).toBe(true);
          const bound = fee / 8n + 1n;
          expect(after - fee <= bound && fee - after <= bound).toBe(true);
          if (used > target) expect(after > fee).toBe(true);
          if (used < target && fee > MIN_FEE_PER_MANA) expect(after <= fee).toBe(true);
        },
      ),
    );
  });

  test('predictions: current fees first, then one per slot; none <= target <= limit', () => {
    const last = { gasFees: fees(50_000n), manaUsed: limit };
    const [none, atTarget, atLimit] = (['none', 'target', 'limit'] as const).map((usage) =>
      predictedGasFees(last, usage, FLOOR),
    );
    for (const series of [none!, atTarget!, atLimit!]) expect(series).toHaveLength(PREDICTED_FEE_SLOTS + 1);
    expect(none![0]).toEqual(atLimit![0]);
    for (let i = 0; i <= PREDICTED_FEE_SLOTS; i++) {
      expect(
        none![i]!.feePerL2Gas <= atTarget![i]!.feePerL2Gas && atTarget![i]!.feePerL2Gas <= atLimit![i]!.feePerL2Gas,
      ).toBe(true);
    }
    expect(new Set(atTarget!.map((f) => f.feePerL2Gas))).toEqual(new Set([atTarget![0]!.feePerL2Gas]));
  });

  test('a free fee asset (rate 0) is refused, not divided by', () => {
    expect(() => feeFloor(0n)).toThrow(new AssertionError('the fee-asset rate is positive'));
    expect(() => feeFloor(-1n)).toThrow(new AssertionError('the fee-asset rate is positive'));
  });

  test('at a floor of 1 per mana, a full checkpoint still raises the fee: 1, 2, 3, ... never stuck', () => {
    const floorOfOne = feeFloor(10n ** 40n);
    let fee = floorOfOne;
    for (const expected of [2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]) {
      fee = nextGasFees({ gasFees: fee, manaUsed: limit }, floorOfOne);
      expect(fee.feePerL2Gas).toBe(expected);
    }
    // Just above the target, where an eighth of the change rounds to nothing, the fee still moves up by one.
    expect(nextGasFees({ gasFees: fees(8_000n), manaUsed: target + 1n }, FLOOR).feePerL2Gas).toBe(8_001n);
  });

  test('a forecast covers 0 to PREDICTED_FEE_SLOTS coming slots; more or fewer is refused', () => {
    const last = { gasFees: fees(50_000n), manaUsed: limit };
    expect(predictedGasFees(last, 'limit', FLOOR, 0)).toEqual([next(last)]);
    const refusal = new AssertionError(`at most ${PREDICTED_FEE_SLOTS} slots are predicted`);
    expect(() => predictedGasFees(last, 'limit', FLOOR, -1)).toThrow(refusal);
    expect(() => predictedGasFees(last, 'limit', FLOOR, PREDICTED_FEE_SLOTS + 1)).toThrow(refusal);
  });
});
