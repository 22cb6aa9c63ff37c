/**
 * The read-load benchmark's pure parts (bench/readLoad/): percentiles and slopes of its figures, the mixed reads it
 * draws (always about blocks, txs and keys the synthetic chain holds at the node's tip), the tx set of its sendTx part
 * and the chain's funding of that set's fresh fee payers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  drawBlock,
  drawReadRequest,
  percentile,
  RECENT_BLOCKS,
  seededRandom,
  slope,
} from '../../bench/readLoad/readMix.js';
import { buildTxSet, feePayerOf, freshPayersOf } from '../../bench/readLoad/txSet.js';
import {
  fundedFeePayer,
  syntheticNullifier,
  syntheticTxEffect,
  syntheticTxHash,
  type ChainShape,
} from '../../bench/snapshot/chainMaker.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { feePayerBalanceSlot } from '../../spec/vm/storageSlots.js';

const SHAPE: ChainShape = { checkpoints: 4, blocksPerCheckpoint: 16, txsPerBlock: 4, publicDataSlots: 50 };

describe('percentile', () => {
  it('is the nearest-rank element: at least p% of the values are at or below it, and fewer strictly below', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, min: 0, max: 1e6 }), { minLength: 1 }),
        fc.integer({ min: 1, max: 100 }),
        (values, p) => {
          const sorted = Float64Array.from(values).sort();
          const value = percentile(sorted, p);
          expect(values).toContain(value);
          expect(values.filter((v) => v <= value).length).toBeGreaterThanOrEqual((p / 100) * values.length);
          expect(values.filter((v) => v < value).length).toBeLessThan((p / 100) * values.length);
        },
      ),
    );
  });

  it('is NaN without values', () => {
    expect(percentile([], 99)).toBeNaN();
  });
});

describe('slope', () => {
  it('is the line’s slope for points on a line', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 2 }),
        (a, b, xs) => {
          expect(slope(xs.map((x) => ({ x, y: a * x + b })))).toBeCloseTo(a, 6);
        },
      ),
    );
  });

  it('is 0 for a flat series and for fewer than two points', () => {
    expect(
      slope([
        { x: 0, y: 5 },
        { x: 1, y: 5 },
        { x: 2, y: 5 },
      ]),
    ).toBe(0);
    expect(slope([{ x: 1, y: 3 }])).toBe(0);
  });
});

describe('the mixed reads', () => {
  it('ask only about blocks from 1 to the tip, half among the newest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 2_000 }),
        fc.nat(),
        (tip, depth, seed) => {
          const random = seededRandom(seed);
          const blocks = Array.from({ length: 200 }, () => drawBlock(random, tip, depth));
          for (const block of blocks) {
            expect(block).toBeGreaterThanOrEqual(Math.max(1, tip - RECENT_BLOCKS - depth));
            expect(block).toBeLessThanOrEqual(tip);
          }
        },
      ),
    );
  });

  it('name a tx and a nullifier the chain holds at the reference block', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.nat(), (tip, seed) => {
        const random = seededRandom(seed);
        const insertedBy = (last: number, id: (block: number, index: number) => string) =>
          new Set(
            Array.from({ length: last }, (_, b) =>
              Array.from({ length: SHAPE.txsPerBlock }, (__, index) => id(b + 1, index)),
            ).flat(),
          );
        const txs = insertedBy(tip, syntheticTxHash);
        for (let i = 0; i < 30; i++) {
          const request = drawReadRequest(random, tip, SHAPE, 512);
          if (request.method === 'svc_getTxReceipt') expect(txs.has(request.params[0] as string)).toBe(true);
          if (request.method === 'svc_getNullifierMembershipWitness') {
            const [reference, nullifier] = request.params as [number, string];
            const nullifiers = insertedBy(reference, (block, index) => syntheticNullifier(block, index, 0));
            expect(nullifiers.has(nullifier)).toBe(true);
          }
        }
      }),
      { numRuns: 20 },
    );
  });

  it('are the same for the same seed', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => drawReadRequest(random, 5_000, SHAPE, 512));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });
});

describe('the sendTx tx set', () => {
  it('alternates fresh payers, one tx each, with the 4 genesis accounts, a quarter of the rest each', () => {
    const count = 41;
    const payers = Array.from({ length: count }, (_, i) => feePayerOf(i));
    const fresh = payers.filter((_, i) => i % 2 === 0);
    expect(new Set(fresh).size).toBe(freshPayersOf(count));
    expect(fresh).toEqual(Array.from({ length: freshPayersOf(count) }, (_, n) => fundedFeePayer(n)));
    const heavy = payers.filter((_, i) => i % 2 === 1);
    for (const account of genesisTestAccounts()) expect(heavy.filter((p) => p === account)).toHaveLength(5);
  });

  it('holds distinct txs', () => {
    const txs = buildTxSet({
      count: 30,
      chainId: 31_337,
      rollupVersion: 1,
      anchorBlockHash: `0x${'11'.repeat(32)}`,
      minFees: { feePerDaGas: 10n, feePerL2Gas: 10n },
    });
    expect(new Set(txs.map((tx) => tx.txHash)).size).toBe(30);
    expect(new Set(txs.map((tx) => tx.sideEffects.nullifiers[0])).size).toBe(30);
  });

  it('has every fresh payer funded exactly once by the chain', () => {
    const payers = 300;
    const blocks = SHAPE.checkpoints * SHAPE.blocksPerCheckpoint;
    const writesPerTx = Math.ceil(payers / (blocks * SHAPE.txsPerBlock));
    const shape: ChainShape = { ...SHAPE, feePayerFunding: { payers, writesPerTx, balance: 10n ** 24n } };
    const written = Array.from({ length: blocks }, (_, b) =>
      Array.from({ length: shape.txsPerBlock }, (__, index) => syntheticTxEffect(b + 1, index, shape).publicDataWrites),
    )
      .flat(2)
      .map((write) => write.leafSlot);
    for (let n = 0; n < payers; n++) {
      const slot = feePayerBalanceSlot(PROTOCOL_CONTRACT_ADDRESSES.feeAsset, fundedFeePayer(n));
      expect(written.filter((s) => s === slot)).toHaveLength(1);
    }
  });
});
