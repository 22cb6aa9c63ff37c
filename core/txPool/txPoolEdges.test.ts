/**
 * The pool at its edges: what a submitter reads in a rejection, the price bump's rounding, the bounds a pool is built
 * within, and the order's tie-breaks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import { P2P_PENDING_TX_COUNT_MAX_DEFAULT } from '../../spec/config/schema.js';
import { feePayerOf, makeTx, nullifierOf, txHashOf } from '../../test/txPool/txFixtures.js';
import { toStoredJson } from '../chain/serde.js';
import { archivedAbove, archiveOps, archiveReleaseOps } from './minedTxArchive.js';
import { TxPool } from './txPool.js';
import { loadTxPool } from './txPoolStore.js';
import { describeRejection, txRejectedError } from './txRejection.js';
import { comparePooledTxs, minimumOutbiddingFee, ranksAbove, toPooledTx } from './txPriority.js';

describe('what a submitter reads of a rejection', () => {
  it('a nullifier conflict names the shared nullifier, the pooled tx and the fee that replaces it', () => {
    const rejection = {
      code: 'NULLIFIER_CONFLICT' as const,
      details: {
        txHash: txHashOf(2),
        priorityFee: 109n,
        nullifier: nullifierOf(8),
        conflictingTxHash: txHashOf(1),
        conflictingPriorityFee: 100n,
        conflictingTxCount: 1,
        minimumPriorityFee: 110n,
        priceBumpPercentage: 10,
      },
    };
    expect(describeRejection(rejection)).toBe(
      `tx ${txHashOf(2)} shares nullifier ${nullifierOf(8)} with pooled tx ${txHashOf(1)}: replacing it needs a ` +
        'priority fee of at least 110 (offered 109, bump 10%)',
    );
    const error = txRejectedError(rejection);
    expect([error.name, error.code, error.details]).toEqual([
      'TxRejectedError',
      'NULLIFIER_CONFLICT',
      rejection.details,
    ]);
  });

  it('a full pool names its capacity, the tx to outbid and the fee that enters', () => {
    const details = {
      txHash: txHashOf(2),
      priorityFee: 10n,
      lowestTxHash: txHashOf(1),
      lowestPriorityFee: 10n,
      minimumPriorityFee: 11n,
      priceBumpPercentage: 5,
      capacity: 1,
    };
    expect(describeRejection({ code: 'LOW_PRIORITY_FEE', details })).toBe(
      `the pool is full (1 txs): entering needs a priority fee of at least 11 to outbid tx ${txHashOf(1)} ` +
        '(offered 10, bump 5%)',
    );
  });

  it('an insufficient balance names the payer, its balance and what its pending txs may cost', () => {
    const details = { txHash: txHashOf(3), feePayer: feePayerOf(1), balance: 90n, needed: 99n, txMaxCost: 9n };
    expect(describeRejection({ code: 'INSUFFICIENT_FEE_PAYER_BALANCE', details })).toBe(
      `fee payer ${feePayerOf(1)} has a balance of 90, but its pending txs up to tx ${txHashOf(3)} may cost 99`,
    );
  });
});

describe('the price bump', () => {
  it('outbidding needs old + max(1, floor(old * bump / 100)), for every fee and bump', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 500 }), (fee, bump) => {
        const floorBump = (fee * BigInt(bump)) / 100n;
        expect(minimumOutbiddingFee(fee, bump)).toBe(fee + (floorBump > 1n ? floorBump : 1n));
      }),
    );
    expect(minimumOutbiddingFee(0n, 10)).toBe(1n);
    expect(minimumOutbiddingFee(19n, 10)).toBe(20n);
    expect(minimumOutbiddingFee(20n, 10)).toBe(22n);
    expect(minimumOutbiddingFee(100n, 0)).toBe(101n);
  });

  it('refuses a bump that is not a non-negative integer, and a negative fee', () => {
    expect(() => minimumOutbiddingFee(10n, -1)).toThrow('price bump -1% is a non-negative integer');
    expect(() => minimumOutbiddingFee(10n, 1.5)).toThrow('price bump 1.5% is a non-negative integer');
    expect(() => minimumOutbiddingFee(-1n, 10)).toThrow('priority fees are non-negative');
  });
});

describe('the pool order', () => {
  const pooledArbitrary = fc
    .record({
      hash: fc.integer({ min: 1, max: 4 }),
      fee: fc.bigInt({ min: 0n, max: 2n }),
      arrival: fc.integer({ min: 0, max: 2 }),
    })
    .map(({ hash, fee, arrival }) => toPooledTx(makeTx({ hash, priorityFee: fee }), arrival));

  it('is total and antisymmetric: zero only for the same tx', () => {
    fc.assert(
      fc.property(pooledArbitrary, pooledArbitrary, (a, b) => {
        const same =
          a.txHash === b.txHash && a.arrivalSequence === b.arrivalSequence && a.priorityFee === b.priorityFee;
        expect(comparePooledTxs(a, b) === 0).toBe(same);
        expect(Math.sign(comparePooledTxs(a, b)) + Math.sign(comparePooledTxs(b, a))).toBe(0);
        expect(ranksAbove(a, b)).toBe(comparePooledTxs(a, b) < 0);
      }),
    );
  });

  it('refuses an arrival sequence that is not a non-negative safe integer', () => {
    expect(() => toPooledTx(makeTx({ hash: 1 }), -1)).toThrow('arrival sequence -1 is a safe non-negative integer');
    expect(() => toPooledTx(makeTx({ hash: 1 }), 0.5)).toThrow(/arrival sequence 0.5/);
  });
});

describe('pool bounds', () => {
  it('holds 1 to TX_POOL_CAPACITY_MAX txs, P2P_PENDING_TX_COUNT_MAX_DEFAULT unless told', () => {
    expect(TxPool.empty().capacity).toBe(P2P_PENDING_TX_COUNT_MAX_DEFAULT);
    expect(TxPool.empty(1).capacity).toBe(1);
    expect(TxPool.empty(TX_POOL_CAPACITY_MAX).capacity).toBe(TX_POOL_CAPACITY_MAX);
    for (const capacity of [0, 1.5, TX_POOL_CAPACITY_MAX + 1]) {
      expect(() => TxPool.empty(capacity)).toThrow(`pool capacity ${capacity} is within 1..${TX_POOL_CAPACITY_MAX}`);
    }
  });

  it('restores only from a non-negative next arrival sequence', () => {
    expect(TxPool.restore(5, [], 0).nextArrivalSequence).toBe(0);
    expect(() => TxPool.restore(5, [], -1)).toThrow('next arrival sequence -1 is a safe non-negative integer');
    expect(() => TxPool.restore(5, [], 0.5)).toThrow(/next arrival sequence 0.5/);
  });

  it('a full pool is one holding its capacity', () => {
    const pooled = toPooledTx(makeTx({ hash: 1 }), 0);
    const pool = TxPool.restore(2, [pooled], 1);
    expect(pool.isFull).toBe(false);
    pool.apply({
      baseRevision: 1,
      removedTxHashes: [],
      addedTxs: [toPooledTx(makeTx({ hash: 2 }), 1)],
      nextArrivalSequence: 2,
    });
    expect(pool.isFull).toBe(true);
  });
});

describe('the stored pool and the mined-tx archive', () => {
  const openStorage = async () => {
    const storage = createMemoryStorage();
    await storage.open();
    return storage;
  };
  const stored = (hash: number, arrivalSequence: number) => ({
    type: 'put' as const,
    key: `txPool:tx:${txHashOf(hash)}`,
    value: toStoredJson({ arrivalSequence, tx: makeTx({ hash }) }),
  });

  it('refuses to load stored txs without a next arrival sequence above theirs', async () => {
    const missing = await openStorage();
    await missing.batch([stored(1, 0)]);
    await expect(loadTxPool(missing, 10)).rejects.toThrow('a store with pooled txs has a next arrival sequence');
    const behind = await openStorage();
    await behind.batch([stored(1, 4), { type: 'put', key: 'txPool:nextArrivalSequence', value: '4' }]);
    await expect(loadTxPool(behind, 10)).rejects.toThrow('stored next arrival sequence 4 follows every stored tx');
    await behind.batch([{ type: 'put', key: 'txPool:nextArrivalSequence', value: '5' }]);
    expect((await loadTxPool(behind, 10)).pool.nextArrivalSequence).toBe(5);
  });

  it('releases the archived txs of finalized blocks, keeping those above', async () => {
    const storage = await openStorage();
    await storage.batch([
      ...archiveOps(1, [makeTx({ hash: 1 })]),
      ...archiveOps(2, [makeTx({ hash: 2 }), makeTx({ hash: 3 })]),
      ...archiveOps(10, [makeTx({ hash: 4 })]),
    ]);
    const release = await archiveReleaseOps(storage, 2);
    expect(release).toEqual([
      { type: 'del', key: `minedTx:000000000001:${txHashOf(1)}` },
      { type: 'del', key: `minedTx:000000000002:${txHashOf(2)}` },
      { type: 'del', key: `minedTx:000000000002:${txHashOf(3)}` },
    ]);
    await storage.batch(release);
    const left = await archivedAbove(storage, 0);
    expect(left.txs.map((tx) => tx.txHash)).toEqual([txHashOf(4)]);
    expect(left.ops).toEqual([{ type: 'del', key: `minedTx:000000000010:${txHashOf(4)}` }]);
    expect((await archivedAbove(storage, 10)).txs).toEqual([]);
  });
});
