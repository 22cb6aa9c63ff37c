import { expect, test } from 'vitest';
import type { Checkpoint } from '../../spec/chain.js';
import type { ChainStore } from '../chain/chainStore.js';
import { historyPruneTarget } from './worldStateHistory.js';

/** Checkpoint n holds blocks 2n - 1 and 2n. */
const store = {
  getCheckpoint: async (n: number) =>
    n >= 1 && n <= 200 ? ({ number: n, firstBlockNumber: 2 * n - 1, blockCount: 2 } as Checkpoint) : undefined,
} as unknown as ChainStore;

test('keeps the state from the last block of the checkpoint `count` before the finalized one', async () => {
  expect(await historyPruneTarget(store, 64, 64)).toBeUndefined();
  expect(await historyPruneTarget(store, 65, 64)).toBe(2);
  expect(await historyPruneTarget(store, 100, 64)).toBe(72);
  expect(await historyPruneTarget(store, 100, 1)).toBe(198);
});
