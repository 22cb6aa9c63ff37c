import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI, L1_MAX_FEE_PER_GAS_CAP_WEI, WEI_PER_GWEI } from '../../spec/constants.js';
import {
  coversBaseFees,
  exceedsFeeCaps,
  firstAttemptFees,
  isReplacementRefusal,
  replacementFees,
  satisfiesReplacementRule,
  type L1FeeMarket,
  type L1TxFees,
  type L1TxKind,
} from './l1TxFees.js';

const gwei = (n: number) => BigInt(n) * WEI_PER_GWEI;
const MARKET: L1FeeMarket = { baseFeePerGas: gwei(10), blobBaseFeePerGas: gwei(3), priorityFeePerGas: gwei(1) };

const price = fc.bigInt({ min: 0n, max: 2n * L1_MAX_FEE_PER_GAS_CAP_WEI });
const marketArb: fc.Arbitrary<L1FeeMarket> = fc.record({
  baseFeePerGas: price,
  blobBaseFeePerGas: price,
  priorityFeePerGas: fc.bigInt({ min: 0n, max: gwei(100) }),
});
const kindArb: fc.Arbitrary<L1TxKind> = fc.constantFrom('blob', 'plain');
/** Fees a transaction of ours may have: a first attempt or any chain of replacements of one (within the caps). */
const ownFeesArb: fc.Arbitrary<{ kind: L1TxKind; fees: L1TxFees }> = fc
  .tuple(kindArb, marketArb, fc.array(marketArb, { maxLength: 6 }))
  .map(([kind, first, later]) => {
    let fees = firstAttemptFees(first, kind);
    for (const market of later) {
      const next = replacementFees(fees, market, kind);
      if (!isReplacementRefusal(next)) fees = next;
    }
    return { kind, fees };
  });

describe('L1 transaction fees', () => {
  test('a first attempt doubles the base fees and adds the tip; a plain one offers no blob price', () => {
    expect(firstAttemptFees(MARKET, 'blob')).toEqual({
      maxFeePerGas: gwei(21),
      maxPriorityFeePerGas: gwei(1),
      maxFeePerBlobGas: gwei(6),
    });
    expect(firstAttemptFees(MARKET, 'plain')).toEqual({ maxFeePerGas: gwei(21), maxPriorityFeePerGas: gwei(1) });
  });

  test('a first attempt is capped, the tip never above the fee cap', () => {
    const huge = {
      baseFeePerGas: L1_MAX_FEE_PER_GAS_CAP_WEI,
      blobBaseFeePerGas: L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI,
      priorityFeePerGas: 2n * L1_MAX_FEE_PER_GAS_CAP_WEI,
    };
    expect(firstAttemptFees(huge, 'blob')).toEqual({
      maxFeePerGas: L1_MAX_FEE_PER_GAS_CAP_WEI,
      maxPriorityFeePerGas: L1_MAX_FEE_PER_GAS_CAP_WEI,
      maxFeePerBlobGas: L1_MAX_FEE_PER_BLOB_GAS_CAP_WEI,
    });
  });

  test('geth rules: +10% on fee cap and tip for plain txs, +100% on all three prices for blob txs, kinds never mix', () => {
    const plain = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n };
    expect(satisfiesReplacementRule(plain, { maxFeePerGas: 110n, maxPriorityFeePerGas: 11n })).toBe(true);
    expect(satisfiesReplacementRule(plain, { maxFeePerGas: 109n, maxPriorityFeePerGas: 20n })).toBe(false);
    expect(satisfiesReplacementRule(plain, { maxFeePerGas: 200n, maxPriorityFeePerGas: 10n })).toBe(false);
    const blob = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n, maxFeePerBlobGas: 50n };
    expect(
      satisfiesReplacementRule(blob, { maxFeePerGas: 200n, maxPriorityFeePerGas: 20n, maxFeePerBlobGas: 100n }),
    ).toBe(true);
    expect(
      satisfiesReplacementRule(blob, { maxFeePerGas: 200n, maxPriorityFeePerGas: 20n, maxFeePerBlobGas: 99n }),
    ).toBe(false);
    expect(
      satisfiesReplacementRule(blob, { maxFeePerGas: 199n, maxPriorityFeePerGas: 20n, maxFeePerBlobGas: 100n }),
    ).toBe(false);
    expect(satisfiesReplacementRule(blob, { maxFeePerGas: 1_000n, maxPriorityFeePerGas: 100n })).toBe(false);
    expect(
      satisfiesReplacementRule(plain, {
        ...plain,
        maxFeePerGas: 1_000n,
        maxPriorityFeePerGas: 100n,
        maxFeePerBlobGas: 1n,
      }),
    ).toBe(false);
    // A zero tip still has to rise.
    expect(
      satisfiesReplacementRule(
        { maxFeePerGas: 10n, maxPriorityFeePerGas: 0n },
        { maxFeePerGas: 11n, maxPriorityFeePerGas: 0n },
      ),
    ).toBe(false);
  });

  test('a replacement after a spike prices from the new market when that beats the bump', () => {
    const first = firstAttemptFees(MARKET, 'blob');
    const spiked = { ...MARKET, baseFeePerGas: gwei(100), blobBaseFeePerGas: gwei(30) };
    const next = replacementFees(first, spiked, 'blob');
    expect(next).toEqual({ maxFeePerGas: gwei(201), maxPriorityFeePerGas: gwei(2), maxFeePerBlobGas: gwei(60) });
    expect(coversBaseFees(first, spiked)).toBe(false);
    expect(coversBaseFees(next as L1TxFees, spiked)).toBe(true);
  });

  test('a replacement whose least fees exceed the cap is refused, and one of the other kind', () => {
    const atCap = {
      maxFeePerGas: L1_MAX_FEE_PER_GAS_CAP_WEI,
      maxPriorityFeePerGas: gwei(1),
      maxFeePerBlobGas: gwei(1),
    };
    expect(replacementFees(atCap, MARKET, 'blob')).toMatchObject({ reason: 'feeCapExceeded' });
    expect(replacementFees(atCap, MARKET, 'plain')).toEqual({ reason: 'kindMismatch' });
  });

  test('property: a replacement satisfies the replacement rule against the attempt it replaces, within the caps', () => {
    fc.assert(
      fc.property(ownFeesArb, marketArb, ({ kind, fees }, market) => {
        const next = replacementFees(fees, market, kind);
        if (isReplacementRefusal(next)) {
          expect(next.reason).toBe('feeCapExceeded');
          return;
        }
        expect(satisfiesReplacementRule(fees, next)).toBe(true);
        expect(exceedsFeeCaps(next)).toBe(false);
        expect(next.maxPriorityFeePerGas <= next.maxFeePerGas).toBe(true);
      }),
    );
  });

  test('property: fees never exceed the caps, and a replacement is refused only when the rule needs more than them', () => {
    fc.assert(
      fc.property(kindArb, marketArb, marketArb, (kind, first, later) => {
        const fees = firstAttemptFees(first, kind);
        expect(exceedsFeeCaps(fees)).toBe(false);
        expect(fees.maxPriorityFeePerGas <= fees.maxFeePerGas).toBe(true);
        const next = replacementFees(fees, later, kind);
        if (!isReplacementRefusal(next)) {
          expect(exceedsFeeCaps(next)).toBe(false);
          // It covers whatever the first attempt at the later market would have covered, up to the caps.
          const fresh = firstAttemptFees(later, kind);
          expect(next.maxFeePerGas >= fresh.maxFeePerGas).toBe(true);
          expect((next.maxFeePerBlobGas ?? 0n) >= (fresh.maxFeePerBlobGas ?? 0n)).toBe(true);
        } else {
          expect(next.reason === 'feeCapExceeded' && exceedsFeeCaps(next.required)).toBe(true);
        }
      }),
    );
  });
});
