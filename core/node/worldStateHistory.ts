import type { Chain } from '../chain/chain.js';
import type { ChainStore } from '../chain/chainStore.js';
import type { LoggerPort } from '../ports.js';
import type { WorldState } from '../worldState/worldState.js';

/**
 * The oldest block whose world state the node keeps once checkpoint `finalizedCheckpoint` is finalized: the last
 * block of the checkpoint `historicCheckpointCount` before it, so that the state before each of the last
 * `historicCheckpointCount` finalized checkpoints (and everything after) stays queryable. Undefined while the
 * finalized chain is shorter than that.
 */
export async function historyPruneTarget(
  store: ChainStore,
  finalizedCheckpoint: number,
  historicCheckpointCount: number,
): Promise<number | undefined> {
  const oldestKeptCheckpoint = finalizedCheckpoint - historicCheckpointCount;
  if (oldestKeptCheckpoint < 1) return undefined;
  const checkpoint = await store.getCheckpoint(oldestKeptCheckpoint);
  return checkpoint === undefined ? undefined : checkpoint.firstBlockNumber + checkpoint.blockCount - 1;
}

export interface WorldStateHistoryPruningOptions {
  readonly chain: Chain;
  readonly store: ChainStore;
  readonly worldState: WorldState;
  /** Finalized checkpoints whose state stays queryable; read at each finalization. */
  readonly historicCheckpointCount: () => number;
  readonly logger: LoggerPort;
}

/** Prunes the world state's history each time the chain finalizes a checkpoint (see historyPruneTarget). */
export function pruneWorldStateHistoryOnFinality(options: WorldStateHistoryPruningOptions): void {
  const { chain, store, worldState, logger } = options;
  chain.onEvent((event) => {
    if (event.type !== 'chainFinalized') return;
    const count = options.historicCheckpointCount();
    void historyPruneTarget(store, event.checkpoint.number, count)
      .then((target) =>
        target !== undefined && target > worldState.oldestBlockNumber
          ? worldState.pruneHistoryBefore(target)
          : undefined,
      )
      .catch((error: unknown) =>
        logger.error('world-state history prune failed', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
  });
}
