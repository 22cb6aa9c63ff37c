import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { makeTx, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import type { StoragePort } from '../ports.js';
import { decideAdmission } from './admitTx.js';
import { decideAfterBlocksAdded } from './poolMaintenance.js';
import type { TxPool, TxPoolChange } from './txPool.js';
import { loadTxPool, txPoolBatchOps, txPoolGroupBatchOps } from './txPoolStore.js';

async function admitAndWrite(storage: StoragePort, pool: TxPool, spec: TxSpec): Promise<void> {
  const decision = decideAdmission(pool, makeTx(spec), { feePayerBalance: 10n ** 30n, priceBumpPercentage: 10 });
  if (decision.kind !== 'accepted') throw new Error(`fixture tx ${spec.hash} not accepted`);
  await storage.batch([...txPoolBatchOps(decision.change)]);
  pool.apply(decision.change);
}

async function openStorage(): Promise<StoragePort> {
  const storage = createMemoryStorage();
  await storage.open();
  return storage;
}

describe('txPoolStore', () => {
  it('loads an empty pool from an empty store', async () => {
    const { pool, removed, ops } = await loadTxPool(await openStorage(), 10);
    expect([pool.count, pool.nextArrivalSequence, removed, ops]).toEqual([0, 0, [], []]);
  });

  it('reloads txs, their order and the arrival sequence; removals are deleted', async () => {
    const storage = await openStorage();
    const { pool } = await loadTxPool(storage, 10);
    await admitAndWrite(storage, pool, { hash: 1, priorityFee: 3n, expirationTimestamp: 2n ** 70n });
    await admitAndWrite(storage, pool, { hash: 2, priorityFee: 5n });
    await admitAndWrite(storage, pool, { hash: 3, priorityFee: 3n });
    const outcome = decideAfterBlocksAdded(pool, {
      minedTxHashes: [txHashOf(3)],
      minedNullifiers: new Set(),
      nextSlotTimestamp: 0n,
      minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
      unavailableAnchorBlockHashes: new Set(),
      feePayerBalances: new Map(),
    });
    await storage.batch([...txPoolBatchOps(outcome.change)]);
    pool.apply(outcome.change);

    const reloaded = (await loadTxPool(storage, 10)).pool;
    reloaded.verify();
    expect(reloaded.ordered()).toEqual(pool.ordered());
    expect(reloaded.nextArrivalSequence).toBe(3);
    expect(reloaded.get(txHashOf(1))?.tx.expirationTimestamp).toBe(2n ** 70n);
  });

  it('keeps the highest-ranked stored txs when loaded with a smaller capacity', async () => {
    const storage = await openStorage();
    const { pool } = await loadTxPool(storage, 10);
    for (const [hash, priorityFee] of [
      [1, 4n],
      [2, 9n],
      [3, 1n],
    ] as const)
      await admitAndWrite(storage, pool, { hash, priorityFee });
    const loaded = await loadTxPool(storage, 2);
    expect(loaded.pool.ordered().map((p) => p.txHash)).toEqual([txHashOf(2), txHashOf(1)]);
    expect(loaded.removed).toEqual([{ txHash: txHashOf(3), reason: 'overCapacity', capacity: 2 }]);
    await storage.batch([...loaded.ops]);
    expect((await loadTxPool(storage, 10)).pool.count).toBe(2);
  });

  it('writes a group of changes in one batch to what writing them one at a time leaves', async () => {
    const [oneByOne, grouped] = [await openStorage(), await openStorage()];
    const { pool } = await loadTxPool(grouped, 2);
    const changes: TxPoolChange[] = [];
    // The third outbids the lowest of a full pool, so the group puts a tx and then deletes it.
    for (const [hash, priorityFee] of [
      [1, 4n],
      [2, 9n],
      [3, 20n],
    ] as const) {
      const decision = decideAdmission(pool, makeTx({ hash, priorityFee }), {
        feePayerBalance: 10n ** 30n,
        priceBumpPercentage: 10,
      });
      if (decision.kind !== 'accepted') throw new Error(`fixture tx ${hash} not accepted`);
      await oneByOne.batch([...txPoolBatchOps(decision.change)]);
      pool.apply(decision.change);
      changes.push(decision.change);
    }
    await grouped.batch(txPoolGroupBatchOps(changes));
    expect(await grouped.iterator().all()).toEqual(await oneByOne.iterator().all());
    expect(txPoolGroupBatchOps([])).toEqual([]);
  });
});
