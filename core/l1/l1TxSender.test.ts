import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { WEI_PER_GWEI } from '../../spec/constants.js';
import { L1Error } from './l1Error.js';
import {
  firstAttemptFees,
  satisfiesReplacementRule,
  type L1FeeMarket,
  type L1TxFees,
  type L1TxKind,
} from './l1TxFees.js';
import { L1TxTracker, planL1Tx, type L1AccountNonces, type L1TxSendOperations } from './l1TxSender.js';
import { createSimMetrics } from '../../sim/simMetrics.js';

const gwei = (n: number) => BigInt(n) * WEI_PER_GWEI;
const MARKET: L1FeeMarket = { baseFeePerGas: gwei(10), blobBaseFeePerGas: gwei(3), priorityFeePerGas: gwei(1) };
const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** A mempool of one account with geth's replacement rule, enough to drive a tracker. */
function fakeAccount() {
  let mined = 0;
  const pool = new Map<number, { fees: L1TxFees; txHash: Hex }>();
  let sent = 0;
  const market = { ...MARKET };
  const operations = (kind: L1TxKind): L1TxSendOperations => ({
    kind,
    what: kind === 'blob' ? 'propose' : 'submitEpochProof',
    readNonces: async (): Promise<L1AccountNonces> => {
      let pending = mined;
      while (pool.has(pending)) pending++;
      return { minedNonce: mined, pendingNonce: pending };
    },
    readFeeMarket: async () => ({ ...market }),
    send: async (nonce, fees) => {
      if (nonce < mined) throw new L1Error('L1_TX_REJECTED', 'nonce too low');
      const held = pool.get(nonce);
      if (held !== undefined && (held.fees.maxFeePerBlobGas === undefined) !== (fees.maxFeePerBlobGas === undefined))
        throw new L1Error('L1_TX_KIND_CONFLICT', 'kinds');
      if (held !== undefined && !satisfiesReplacementRule(held.fees, fees))
        throw new L1Error('L1_TX_UNDERPRICED', 'replacement transaction underpriced');
      const txHash = hash(++sent);
      pool.set(nonce, { fees, txHash });
      return txHash;
    },
  });
  const mine = () => {
    while (pool.has(mined) && pool.get(mined)!.fees.maxFeePerGas >= market.baseFeePerGas) pool.delete(mined++);
  };
  /** An L1 reorg takes the last `count` mined transactions out of their blocks and forgets them (not back in the pool). */
  const reorgOut = (count: number) => {
    mined = Math.max(0, mined - count);
    for (const nonce of [...pool.keys()]) if (nonce >= mined) pool.delete(nonce);
  };
  return { pool, market, operations, mine, reorgOut, mined: () => mined };
}

describe('L1 transaction sender', () => {
  test('a free nonce gets a first attempt; our pending tx of the same kind is replaced at its nonce', () => {
    const first = planL1Tx([], { minedNonce: 3, pendingNonce: 3 }, MARKET, 'blob');
    expect(first).toEqual({ action: 'send', nonce: 3, fees: firstAttemptFees(MARKET, 'blob'), replaces: undefined });
    const tracked = [{ nonce: 3, kind: 'blob' as const, fees: firstAttemptFees(MARKET, 'blob'), txHash: hash(1) }];
    const second = planL1Tx(tracked, { minedNonce: 3, pendingNonce: 4 }, MARKET, 'blob');
    expect(second).toMatchObject({ action: 'send', nonce: 3, replaces: tracked[0] });
    // A proof passes the pending proposal by: a plain tx cannot replace a blob tx.
    expect(planL1Tx(tracked, { minedNonce: 3, pendingNonce: 4 }, MARKET, 'plain')).toMatchObject({
      action: 'send',
      nonce: 4,
      replaces: undefined,
    });
  });

  test('after a restart, a pending nonce we hold no record of is replaced; a refusal leaves a floor to bump above', async () => {
    const account = fakeAccount();
    const before = new L1TxTracker();
    await before.send(account.operations('blob'));
    account.market.baseFeePerGas = gwei(100); // the spike: the tx at nonce 0 is stuck
    account.mine();
    const metrics = createSimMetrics();
    const restarted = new L1TxTracker(undefined, metrics.port);
    await expect(restarted.send(account.operations('blob'))).rejects.toMatchObject({ code: 'L1_TX_UNDERPRICED' });
    // The fresh fees did not double the old tip; the floor makes the next attempt do so.
    const { txHash } = await restarted.send(account.operations('blob'));
    expect(account.pool.get(0)!.txHash).toBe(txHash);
    account.mine();
    expect(account.mined()).toBe(1);
    // Metrics count what L1 accepted: the one replacement, not the refused attempt.
    const what = account.operations('blob').what;
    expect(metrics.reading()).toMatchObject({ l1TxsSent: { [what]: 1 }, l1TxsReplaced: { [what]: 1 } });
  });

  test('a pending nonce of the other kind we hold no record of is learned from the refusal and passed by', async () => {
    const account = fakeAccount();
    await new L1TxTracker().send(account.operations('blob'));
    account.market.baseFeePerGas = gwei(100);
    const restarted = new L1TxTracker();
    await expect(restarted.send(account.operations('plain'))).rejects.toMatchObject({ code: 'L1_TX_KIND_CONFLICT' });
    expect(restarted.inFlight()).toEqual([expect.objectContaining({ nonce: 0, kind: 'blob', txHash: undefined })]);
    // The proof goes to the next nonce. The proposal's replacement at nonce 0 learns the blob price from one more
    // refusal (the floor the kind conflict left knows none), then doubles it.
    await restarted.send(account.operations('plain'));
    expect(account.pool.has(1)).toBe(true);
    await expect(restarted.send(account.operations('blob'))).rejects.toMatchObject({ code: 'L1_TX_UNDERPRICED' });
    await restarted.send(account.operations('blob'));
    account.mine();
    expect(account.mined()).toBe(2);
  });

  test('a transaction an L1 reorg took out and forgot frees its nonce: the next send is a first attempt, not a replacement', () => {
    // Mined at nonce 0, then reorged out: L1 counts nonce 0 as neither mined nor pending.
    const tracked = [
      {
        nonce: 0,
        kind: 'blob' as const,
        fees: firstAttemptFees({ ...MARKET, baseFeePerGas: gwei(40) }, 'blob'),
        txHash: hash(1),
      },
    ];
    expect(planL1Tx(tracked, { minedNonce: 0, pendingNonce: 0 }, MARKET, 'blob')).toEqual({
      action: 'send',
      nonce: 0,
      fees: firstAttemptFees(MARKET, 'blob'),
      replaces: undefined,
    });
    // While L1 still holds it pending, it is replaced as before.
    expect(planL1Tx(tracked, { minedNonce: 0, pendingNonce: 1 }, MARKET, 'blob')).toMatchObject({
      action: 'send',
      nonce: 0,
      replaces: tracked[0],
    });
  });

  test('proposals that L1 reorgs keep taking out never drive the fees up: every send is a first attempt', async () => {
    const account = fakeAccount();
    const tracker = new L1TxTracker();
    for (let round = 0; round < 12; round++) {
      await tracker.send(account.operations('blob'));
      expect(account.pool.get(0)!.fees).toEqual(firstAttemptFees(MARKET, 'blob'));
      account.mine();
      account.reorgOut(1);
    }
  });

  test('a replacement beyond the fee cap is not sent', async () => {
    const account = fakeAccount();
    const tracker = new L1TxTracker();
    await tracker.send(account.operations('plain'));
    account.market.baseFeePerGas = 10n ** 15n; // 1,000,000 gwei: nothing under the cap covers it
    let error: unknown;
    for (let i = 0; i < 200 && error === undefined; i++)
      await tracker.send(account.operations('plain')).catch((e: unknown) => (error = e));
    expect(error).toMatchObject({ code: 'L1_FEE_CAP_EXCEEDED' });
    expect(account.pool.size).toBe(1);
  });

  test('property: whatever the spikes, mining and sends, every accepted send satisfies the rule and the account never waits on a stale tx', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('send' as const), txKind: fc.constantFrom<L1TxKind>('blob', 'plain') }),
      fc.record({ kind: fc.constant('mine' as const) }),
      fc.record({ kind: fc.constant('fees' as const), factor: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ kind: fc.constant('reorg' as const), count: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const account = fakeAccount();
        const tracker = new L1TxTracker();
        for (const s of steps) {
          if (s.kind === 'mine') account.mine();
          else if (s.kind === 'reorg') account.reorgOut(s.count);
          else if (s.kind === 'fees') account.market.baseFeePerGas = MARKET.baseFeePerGas * BigInt(s.factor);
          else {
            const before = new Map(account.pool);
            await tracker.send(account.operations(s.txKind)).catch(() => undefined);
            for (const [nonce, tx] of account.pool) {
              const old = before.get(nonce);
              if (old !== undefined && old.txHash !== tx.txHash)
                expect(satisfiesReplacementRule(old.fees, tx.fees)).toBe(true);
            }
            // The account holds at most one pending tx of each kind: a new request never queues behind its own stale one.
            expect(account.pool.size).toBeLessThanOrEqual(2);
          }
        }
        // Once fees are back to normal, one send of each kind and a block clear everything.
        account.market.baseFeePerGas = MARKET.baseFeePerGas;
        for (const kind of ['blob', 'plain'] as const)
          if ([...account.pool.values()].some((tx) => (tx.fees.maxFeePerBlobGas !== undefined) === (kind === 'blob')))
            await tracker.send(account.operations(kind)).catch(() => undefined);
        account.mine();
        expect(account.pool.size).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
