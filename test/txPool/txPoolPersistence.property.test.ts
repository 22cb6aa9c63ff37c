/**
 * Persist -> reload gives an identical pool, on every storage adapter: after any history whose changes were written
 * through `txPoolBatchOps`, the loaded pool has the same txs, order, indexes and arrival sequence, and makes the same
 * decisions afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClassicLevelStorage } from '../../adapters/storage/classicLevelStorage.js';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { StoragePort } from '../../core/ports.js';
import type { TxPool, TxPoolChange } from '../../core/txPool/txPool.js';
import { loadTxPool, txPoolBatchOps } from '../../core/txPool/txPoolStore.js';
import { poolHistoryArbitrary, poolOperationArbitrary, runOperations, type PoolStep } from './poolOperations.js';

/** Where the suffix run numbers its txs, clear of the history's. */
const SUFFIX_FIRST_HASH = 100_000;

interface StorageHarness {
  /** An open, empty store. */
  fresh(): Promise<StoragePort>;
  /** The same data through a store opened again. */
  reopen(store: StoragePort): Promise<StoragePort>;
}

function expectSamePool(actual: TxPool, expected: TxPool): void {
  actual.verify();
  expect(actual.ordered()).toEqual(expected.ordered());
  expect([actual.capacity, actual.count, actual.nextArrivalSequence]).toEqual([
    expected.capacity,
    expected.count,
    expected.nextArrivalSequence,
  ]);
  expect(actual.feePayers()).toEqual(expected.feePayers());
  for (const payer of expected.feePayers()) expect(actual.feePayerTxs(payer)).toEqual(expected.feePayerTxs(payer));
  for (const { tx, txHash } of expected.ordered()) {
    for (const nullifier of tx.sideEffects.nullifiers) expect(actual.txHashOfNullifier(nullifier)).toBe(txHash);
  }
}

/** A step with its change's base revision blanked: revisions count in-memory changes and are not persisted. */
function withoutRevision(step: PoolStep): unknown {
  const blank = (change: TxPoolChange): TxPoolChange => ({ ...change, baseRevision: 0 });
  if (step.kind !== 'admit') return { ...step, outcome: { ...step.outcome, change: blank(step.outcome.change) } };
  return step.decision.kind === 'accepted'
    ? { ...step, decision: { ...step.decision, change: blank(step.decision.change) } }
    : step;
}

function persistenceProperty(harness: StorageHarness, runs: number) {
  return async () => {
    await fc.assert(
      fc.asyncProperty(
        poolHistoryArbitrary,
        fc.array(poolOperationArbitrary, { maxLength: 10 }),
        async ({ capacity, operations }, suffix) => {
          let store = await harness.fresh();
          const { pool } = await loadTxPool(store, capacity);
          const write = async (change: TxPoolChange) => store.batch([...txPoolBatchOps(change)]);
          await runOperations(pool, operations, { onChange: write });
          store = await harness.reopen(store);
          const reloaded = await loadTxPool(store, capacity);
          expect(reloaded.removed).toEqual([]);
          expectSamePool(reloaded.pool, pool);
          const steps: PoolStep[] = [];
          const reloadedSteps: PoolStep[] = [];
          await runOperations(pool, suffix, { onStep: (step) => steps.push(step) }, SUFFIX_FIRST_HASH);
          await runOperations(reloaded.pool, suffix, { onStep: (step) => reloadedSteps.push(step) }, SUFFIX_FIRST_HASH);
          expect(reloadedSteps.map(withoutRevision)).toEqual(steps.map(withoutRevision));
          expectSamePool(reloaded.pool, pool);
        },
      ),
      { numRuns: runs },
    );
  };
}

describe('tx pool persistence', () => {
  it(
    'persist -> reload gives an identical pool on memory-level',
    persistenceProperty(
      {
        async fresh() {
          const store = createMemoryStorage();
          await store.open();
          return store;
        },
        async reopen(store) {
          await store.close();
          await store.open();
          return store;
        },
      },
      100,
    ),
  );

  describe('on classic-level', () => {
    let directory: string;
    let open: StoragePort | undefined;
    beforeAll(async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), 'tx-pool-persistence-'));
    });
    afterAll(async () => {
      await open?.close();
      await rm(directory, { recursive: true, force: true });
    });

    it(
      'persist -> reload gives an identical pool',
      persistenceProperty(
        {
          async fresh() {
            open ??= await openClassicLevelStorage(directory);
            await open.clear();
            return open;
          },
          async reopen(store) {
            await store.close();
            open = await openClassicLevelStorage(directory);
            return open;
          },
        },
        25,
      ),
    );
  });
});
