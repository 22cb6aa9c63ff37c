import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { satisfiesReplacementRule, type L1TxFees } from '../../core/l1/l1TxFees.js';
import type { ProposeCheckpointRequest } from '../../core/ports.js';
import type { SimL1SentTx } from '../simL1.js';
import { checkSlotOutcomes, pricesBelowBump } from './slotOutcomes.js';

const GWEI = 10n ** 9n;
const ACCOUNT: Hex = `0x${'aa'.repeat(20)}`;
const CONSTANTS = { l1GenesisTime: 1_000n, slotDuration: 36 };
/** L1 block n's timestamp: 12 s apart from the genesis time, so slot s spans blocks 3s to 3s + 2. */
const blockTimestamp = (n: bigint) => CONSTANTS.l1GenesisTime + n * 12n;
const BLOB_FEES: L1TxFees = { maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI / 10n, maxFeePerBlobGas: 2n * GWEI };

let sequence = 0;
function proposal(
  slot: number,
  nonce: number,
  sentAfterBlock: bigint,
  outcome: Partial<SimL1SentTx> = {},
): SimL1SentTx {
  sequence += 1;
  return {
    txHash: `0x${sequence.toString(16).padStart(64, '0')}`,
    publisher: ACCOUNT,
    nonce,
    fees: BLOB_FEES,
    call: { kind: 'propose', request: { slotNumber: slot } as ProposeCheckpointRequest, versionedHashes: [] },
    notBeforeBlock: sentAfterBlock + 1n,
    sentAfterBlock,
    state: 'pending',
    ...outcome,
  } as SimL1SentTx;
}

const included = (blockNumber: bigint): Partial<SimL1SentTx> => ({
  state: 'included',
  inclusion: { blockNumber, blockHash: `0x${'00'.repeat(32)}`, failure: undefined },
});

const kinds = (sent: SimL1SentTx[]) => checkSlotOutcomes(sent, CONSTANTS, blockTimestamp).map((f) => f.kind);

describe('slot outcome checker', () => {
  it("states geth's replacement bump as core/l1 does, in its own words", () => {
    const price = fc.bigInt({ min: 0n, max: 10n ** 15n });
    const fees = (blob: boolean) =>
      fc.record({ maxFeePerGas: price, maxPriorityFeePerGas: price, ...(blob ? { maxFeePerBlobGas: price } : {}) });
    for (const blob of [true, false])
      fc.assert(
        fc.property(fees(blob), fees(blob), (old, next) => {
          expect(pricesBelowBump(old, next).length === 0).toBe(satisfiesReplacementRule(old, next));
        }),
      );
  });

  it('passes proposals that land in their slot, and replacements that double every price', () => {
    const first = proposal(5, 0, 15n);
    const second = proposal(6, 0, 18n, included(19n));
    const doubled = {
      ...second,
      fees: { maxFeePerGas: 4n * GWEI, maxPriorityFeePerGas: GWEI / 5n, maxFeePerBlobGas: 4n * GWEI },
    };
    expect(kinds([{ ...first, state: 'replaced', replacedBy: doubled.txHash }, doubled])).toEqual([]);
  });

  it('fails a replacement short of the bump on any price, and a price above the caps', () => {
    const first = proposal(5, 0, 15n);
    const short = {
      ...proposal(6, 0, 18n, included(19n)),
      fees: { ...BLOB_FEES, maxFeePerGas: 4n * GWEI, maxPriorityFeePerGas: GWEI / 5n },
    };
    const failures = checkSlotOutcomes(
      [{ ...first, state: 'replaced', replacedBy: short.txHash }, short],
      CONSTANTS,
      blockTimestamp,
    );
    expect(failures).toEqual([
      expect.objectContaining({
        kind: 'slotOutcomeWrong',
        detail: expect.stringMatching(/without the pool's bump on maxFeePerBlobGas/),
      }),
    ]);
    const dear = { ...proposal(5, 0, 15n, included(16n)), fees: { ...BLOB_FEES, maxFeePerBlobGas: 1_001n * GWEI } };
    expect(kinds([dear])).toEqual(['slotOutcomeWrong']);
  });

  it("fails a proposal queued behind an earlier slot's stuck proposal instead of replacing it", () => {
    const stuck = proposal(5, 0, 16n);
    const behind = proposal(6, 1, 18n);
    const failures = checkSlotOutcomes([stuck, behind], CONSTANTS, blockTimestamp);
    expect(failures).toEqual([
      expect.objectContaining({ detail: expect.stringMatching(/for slot 6 .* queued behind propose for slot 5/) }),
    ]);
    // Mined before the next one was sent: the next nonce was the right one.
    expect(kinds([proposal(5, 0, 15n, included(16n)), proposal(6, 1, 18n, included(19n))])).toEqual([]);
    // Mined only after: it was still waiting.
    expect(
      kinds([
        proposal(5, 0, 16n, {
          ...included(19n),
          inclusion: { blockNumber: 19n, blockHash: '0x00', failure: 'SLOT_NOT_CURRENT' },
        }),
        proposal(6, 1, 18n),
      ]),
    ).toEqual(['slotOutcomeWrong']);
  });

  it('fails a proposal that L1 accepted outside its slot', () => {
    expect(kinds([proposal(5, 0, 15n, included(17n))])).toEqual([]);
    expect(kinds([proposal(5, 0, 17n, included(18n))])).toEqual(['slotOutcomeWrong']);
  });
});
