/**
 * The pool's bounds and refusals a caller runs into: what a page request may ask, what one maintenance call may
 * name, what a restored pool or a stored tx must hold, and the change a pool refuses to apply; and the rank a tx
 * gets when its fee caps differ.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { NULLIFIERS_PER_TX_MAX, TX_POOL_CAPACITY_MAX, TX_POOL_MAINTENANCE_TXS_MAX } from '../../spec/constants.js';
import { feePayerOf, makeTx, nullifierOf, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import { toStoredJson } from '../chain/serde.js';
import type { StoragePort } from '../ports.js';
import { decideAdmission } from './admitTx.js';
import { walkFeePayerTxs } from './feePayerWalk.js';
import { decideAfterBlocksAdded, type BlocksAddedInput } from './poolMaintenance.js';
import { PriorityList } from './priorityList.js';
import { decideAfterChainPruned, type ChainPrunedInput } from './pruneReturn.js';
import { TxPool } from './txPool.js';
import { maxPriorityFees, pendingTxPage } from './txPoolQueries.js';
import { loadTxPool } from './txPoolStore.js';
import { comparePooledTxs, toPooledTx } from './txPriority.js';

const RICH = 10n ** 30n;
const NO_FEES = { feePerDaGas: 0n, feePerL2Gas: 0n };

function poolOf(capacity: number, ...specs: TxSpec[]): TxPool {
  const pool = TxPool.empty(capacity);
  for (const spec of specs) {
    const decision = decideAdmission(pool, makeTx(spec), { feePayerBalance: RICH, priceBumpPercentage: 10 });
    if (decision.kind !== 'accepted') throw new Error(`fixture tx ${spec.hash} not accepted`);
    pool.apply(decision.change);
  }
  return pool;
}

const hashes = (pool: TxPool): string[] => pool.ordered().map((pooled) => pooled.txHash);

describe('a page of pending txs', () => {
  it('refuses a page-size bound outside 1..TX_POOL_CAPACITY_MAX, and takes both ends', () => {
    const pool = poolOf(10, { hash: 1 }, { hash: 2 });
    for (const pageSizeMax of [0, 1.5, TX_POOL_CAPACITY_MAX + 1]) {
      expect(() => pendingTxPage(pool, { pageSizeMax })).toThrow(
        `page size bound ${pageSizeMax} is within 1..${TX_POOL_CAPACITY_MAX}`,
      );
    }
    expect(pendingTxPage(pool, { pageSizeMax: 1 }).txs).toHaveLength(1);
    expect(pendingTxPage(pool, { pageSizeMax: TX_POOL_CAPACITY_MAX }).txs).toHaveLength(2);
  });

  it('refuses a negative or fractional limit, and says what a limit above the bound exceeds', () => {
    const pool = poolOf(10, { hash: 1 });
    expect(() => pendingTxPage(pool, { limit: -1 })).toThrow('page limit -1 is a non-negative safe integer');
    expect(() => pendingTxPage(pool, { limit: 0.5 })).toThrow('page limit 0.5 is a non-negative safe integer');
    expect(() => pendingTxPage(pool, { limit: 6, pageSizeMax: 5 })).toThrow('6 exceeds the limit txsPerCallMax of 5');
  });
});

describe('the rank and the priority fee of a tx whose fee caps differ', () => {
  it('ranks a tx by its max fee per L2 gas when that is below its max priority fee', () => {
    const pool = poolOf(10, { hash: 1, priorityFee: 50n, maxFeePerL2Gas: 5n }, { hash: 2, priorityFee: 10n });
    expect(hashes(pool)).toEqual([txHashOf(2), txHashOf(1)]);
    expect(pool.get(txHashOf(1))?.priorityFee).toBe(5n);
  });

  it('counts in the highest priority fees what a tx offers as priority when that is below its max fee', () => {
    const pool = poolOf(10, {
      hash: 1,
      priorityFee: 3n,
      maxFeePerL2Gas: 40n,
      maxFeePerDaGas: 9n,
      maxPriorityFeePerDaGas: 2n,
    });
    expect(maxPriorityFees(pool)).toEqual({ feePerDaGas: 2n, feePerL2Gas: 3n });
  });

  it('orders txs of equal fee and arrival by tx hash, lower first', () => {
    const [low, high] = [1, 2].map((hash) => toPooledTx(makeTx({ hash, priorityFee: 7n }), 4));
    expect(comparePooledTxs(low!, high!)).toBeLessThan(0);
    expect(comparePooledTxs(high!, low!)).toBeGreaterThan(0);
  });
});

describe('what one maintenance call may name', () => {
  const blocksAdded = (minedTxHashes: readonly string[]): BlocksAddedInput =>
    ({
      minedTxHashes,
      minedNullifiers: new Set(),
      nextSlotTimestamp: 0n,
      minFeesPerGas: NO_FEES,
      unavailableAnchorBlockHashes: new Set(),
      feePayerBalances: new Map(),
    }) as BlocksAddedInput;

  it(`names at most ${TX_POOL_MAINTENANCE_TXS_MAX} mined txs`, () => {
    const pool = poolOf(10, { hash: 1 });
    const mined = Array<string>(TX_POOL_MAINTENANCE_TXS_MAX).fill(txHashOf(1));
    expect(decideAfterBlocksAdded(pool, blocksAdded(mined)).removed).toEqual([
      { txHash: txHashOf(1), reason: 'mined' },
    ]);
    expect(() => decideAfterBlocksAdded(pool, blocksAdded([...mined, txHashOf(2)]))).toThrow(
      `one call names at most ${TX_POOL_MAINTENANCE_TXS_MAX} mined txs`,
    );
  });

  const pruned = (returning: readonly TxSpec[], repeat = 1): ChainPrunedInput => {
    const returningTxs = returning.flatMap((spec) => Array(repeat).fill(makeTx(spec)));
    return {
      returningTxs,
      nextSlotTimestamp: 0n,
      minFeesPerGas: NO_FEES,
      unavailableAnchorBlockHashes: new Set(),
      feePayerBalances: new Map([[feePayerOf(0), RICH]]),
    };
  };

  it(`returns at most ${TX_POOL_MAINTENANCE_TXS_MAX} txs after a prune`, () => {
    const pool = TxPool.empty(10);
    const returned = decideAfterChainPruned(pool, pruned([{ hash: 1 }], TX_POOL_MAINTENANCE_TXS_MAX));
    expect(returned.returnedTxHashes).toEqual([txHashOf(1)]);
    expect(() => decideAfterChainPruned(pool, pruned([{ hash: 1 }], TX_POOL_MAINTENANCE_TXS_MAX + 1))).toThrow(
      `one call returns at most ${TX_POOL_MAINTENANCE_TXS_MAX} txs`,
    );
  });

  it('gives a tx returning twice its first place in chain order', () => {
    const pool = TxPool.empty(10);
    const input = pruned([]);
    const [a, b] = [makeTx({ hash: 1, priorityFee: 5n }), makeTx({ hash: 2, priorityFee: 5n })];
    const outcome = decideAfterChainPruned(pool, { ...input, returningTxs: [a!, b!, a!] });
    expect(outcome.returnedTxHashes).toEqual([txHashOf(1), txHashOf(2)]);
  });

  it('readmits returning txs highest first: in a full pool a lower one stays out for capacity', () => {
    const pool = TxPool.empty(1);
    const outcome = decideAfterChainPruned(
      pool,
      pruned([
        { hash: 1, priorityFee: 1n },
        { hash: 2, priorityFee: 9n },
      ]),
    );
    expect(outcome.returnedTxHashes).toEqual([txHashOf(2)]);
    expect(outcome.notReturned).toEqual([{ txHash: txHashOf(1), reason: 'overCapacity', capacity: 1 }]);
  });
});

describe('a restored pool', () => {
  const pooled = (spec: TxSpec, arrivalSequence: number) => toPooledTx(makeTx(spec), arrivalSequence);

  it('refuses a tx twice, a tx with an unissued arrival sequence, and two txs sharing a nullifier', () => {
    const one = pooled({ hash: 1 }, 0);
    expect(() => TxPool.restore(5, [one, one], 1)).toThrow(`tx ${txHashOf(1)} is not pooled yet`);
    expect(() => TxPool.restore(5, [pooled({ hash: 1 }, 3)], 3)).toThrow(
      `tx ${txHashOf(1)} has an issued arrival sequence`,
    );
    const sharing = [pooled({ hash: 1, nullifiers: [7] }, 0), pooled({ hash: 2, nullifiers: [7] }, 1)];
    expect(() => TxPool.restore(5, sharing, 2)).toThrow(
      `nullifier ${nullifierOf(7)} of ${txHashOf(2)} is not held by pooled tx ${txHashOf(1)}`,
    );
  });

  it(`holds a tx of up to ${NULLIFIERS_PER_TX_MAX} nullifiers, one repeating a nullifier included`, () => {
    const nullifiers = (count: number) => Array.from({ length: count }, (_, n) => n);
    const full = TxPool.restore(5, [pooled({ hash: 1, nullifiers: nullifiers(NULLIFIERS_PER_TX_MAX) }, 0)], 1);
    expect(full.txHashOfNullifier(nullifierOf(NULLIFIERS_PER_TX_MAX - 1))).toBe(txHashOf(1));
    expect(() =>
      TxPool.restore(5, [pooled({ hash: 1, nullifiers: nullifiers(NULLIFIERS_PER_TX_MAX + 1) }, 0)], 1),
    ).toThrow(`a tx emits at most ${NULLIFIERS_PER_TX_MAX} nullifiers`);
    const repeating = TxPool.restore(5, [pooled({ hash: 1, nullifiers: [3, 3] }, 0)], 1);
    expect(repeating.txHashOfNullifier(nullifierOf(3))).toBe(txHashOf(1));
    repeating.verify();
  });

  it(`answers conflicts for up to ${NULLIFIERS_PER_TX_MAX} nullifiers, a tx's most`, () => {
    const pool = poolOf(5, { hash: 1, nullifiers: [0] });
    const many = Array.from({ length: NULLIFIERS_PER_TX_MAX }, (_, n) => nullifierOf(n));
    expect(pool.conflictingTxs(many).map((p) => p.txHash)).toEqual([txHashOf(1)]);
    expect(() => pool.conflictingTxs([...many, nullifierOf(999)])).toThrow(
      `a tx emits at most ${NULLIFIERS_PER_TX_MAX} nullifiers, got ${NULLIFIERS_PER_TX_MAX + 1}`,
    );
  });

  it('refuses a tx whose max cost is negative, and a list holding a tx twice', () => {
    const negative = pooled({ hash: 1, daGas: 1, l2Gas: 0, maxFeePerDaGas: -5n }, 0);
    expect(() => PriorityList.fromOrdered([negative])).toThrow(`tx ${txHashOf(1)} has a non-negative max cost`);
    const one = pooled({ hash: 2 }, 0);
    expect(() => PriorityList.fromOrdered([one, one])).toThrow('a list is built from txs in strict pool order');
  });
});

describe('a change the pool refuses to apply', () => {
  const change = (
    pool: TxPool,
    removed: string[],
    added: TxSpec[],
    nextArrivalSequence = pool.nextArrivalSequence,
  ) => ({
    baseRevision: pool.revision,
    removedTxHashes: removed as `0x${string}`[],
    addedTxs: added.map((spec, index) => toPooledTx(makeTx(spec), pool.nextArrivalSequence + index)),
    nextArrivalSequence,
  });

  it('one taking the arrival sequence back, removing more than is pooled, or adding beyond the capacity', () => {
    const pool = TxPool.restore(1, [], 3);
    expect(() => pool.apply(change(pool, [], [], 2))).toThrow('the arrival sequence never goes back');
    expect(() => pool.apply(change(pool, [txHashOf(1)], []))).toThrow('a change removes only pooled txs');
    expect(() => pool.apply(change(pool, [], [{ hash: 1 }, { hash: 2 }], 5))).toThrow(
      'a change adds at most the capacity',
    );
    pool.apply(change(pool, [], [{ hash: 1 }], 4));
    expect(() => pool.apply(change(pool, [], [{ hash: 2 }], 5))).toThrow('the pool holds at most 1 txs, got 2');
  });
});

describe('stored pooled txs', () => {
  async function storageWith(
    values: readonly { readonly key: string; readonly value: string }[],
  ): Promise<StoragePort> {
    const storage = createMemoryStorage();
    await storage.open();
    await storage.batch(values.map((entry) => ({ type: 'put' as const, ...entry })));
    return storage;
  }
  const sequence = { key: 'txPool:nextArrivalSequence', value: '9' };

  it('refuses a stored entry without an arrival sequence or without a tx', async () => {
    const message = 'a stored pooled tx has an arrival sequence and a tx';
    const noTx = { key: `txPool:tx:${txHashOf(1)}`, value: toStoredJson({ arrivalSequence: 0 }) };
    await expect(loadTxPool(await storageWith([noTx, sequence]), 10)).rejects.toThrow(message);
    const noSequence = { key: `txPool:tx:${txHashOf(1)}`, value: toStoredJson({ tx: makeTx({ hash: 1 }) }) };
    await expect(loadTxPool(await storageWith([noSequence, sequence]), 10)).rejects.toThrow(message);
  });

  it('keeps the highest-ranked stored tx in a smaller pool, whatever the order of their hashes', async () => {
    const stored = (hash: number, priorityFee: bigint, arrivalSequence: number) => ({
      key: `txPool:tx:${txHashOf(hash)}`,
      value: toStoredJson({ arrivalSequence, tx: makeTx({ hash, priorityFee }) }),
    });
    const loaded = await loadTxPool(await storageWith([stored(1, 1n, 0), stored(2, 9n, 1), sequence]), 1);
    expect(hashes(loaded.pool)).toEqual([txHashOf(2)]);
    expect(loaded.removed).toEqual([{ txHash: txHashOf(1), reason: 'overCapacity', capacity: 1 }]);
  });
});

describe('the fee payer walk', () => {
  it('refuses a tx paid by another payer', () => {
    const other = toPooledTx(makeTx({ hash: 1, feePayer: 2 }), 0);
    expect(() => walkFeePayerTxs(feePayerOf(1), [other], RICH)).toThrow(
      `tx ${txHashOf(1)} is paid by ${feePayerOf(1)}`,
    );
  });

  it(`covers at most ${TX_POOL_CAPACITY_MAX} txs, a full pool`, () => {
    const one = toPooledTx(makeTx({ hash: 1, daGas: 0, l2Gas: 0 }), 0);
    const full = Array(TX_POOL_CAPACITY_MAX).fill(one);
    expect(walkFeePayerTxs(feePayerOf(0), full, 0n).uncovered).toEqual([]);
    expect(() => walkFeePayerTxs(feePayerOf(0), [...full, one], 0n)).toThrow(
      'a walk covers at most one pool and a newcomer',
    );
  });
});
