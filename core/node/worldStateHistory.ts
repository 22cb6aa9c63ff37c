import type { ChainStore } from '../chain/chainStore.js';

/**
 * The oldest block whose world state the node keeps once checkpoint `finalizedCheckpoint` is finalized: the last
 * block of the checkpoint `historicCheckpointCount` before it, so that the state before each of the last
 * `historicCheckpointCount` finalized checkpoints (and everything after) stays queryable. Undefined while the
 * finalized chain is shorter than that.
 */
export async function historyPruneTarget(store: ChainStore, finalizedCheckpoint: number, historicCheckpointCount: number): Promise<number | undefined> {
  const oldestKeptCheckpoint = finalizedCheckpoint - historicCheckpointCount;
  if (oldestKeptCheckpoint < 1) return undefined;
  const checkpoint = await store.getCheckpoint(oldestKeptCheckpoint);
  return checkpoint === undefined ? undefined : checkpoint.firstBlockNumber + checkpoint.blockCount - 1;
}
