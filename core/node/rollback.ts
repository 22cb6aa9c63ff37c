/**
 * svcAdmin_rollbackTo's work (spec: States, the rollback row): the chain, its indexes and the world state go back to
 * the target block, and the archiver's L1 position to the L1 block of the last checkpoint kept, so that resumed sync
 * fetches the later checkpoints from L1 again. Below the finalized block (or the oldest world state kept) only with
 * `force`, and only such a rollback clears the world state (rebuilt from the kept blocks) and the tx pool's database
 * (rollbackClearsDatabases); a forced rollback to a block above both is an ordinary one, so txs mined in the blocks
 * it keeps can still return to the pool if those blocks are pruned later. Runs with sync paused and no sync step in
 * flight (operationsMachine.ts).
 */
import type { L1RollupConstants } from '../../spec/chain.js';
import type { Chain } from '../chain/chain.js';
import type { L1SyncPosition } from '../chain/chainStore.js';
import { NodeError } from '../errors.js';
import type { L1ReaderPort, LoggerPort } from '../ports.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';
import type { RollbackRequest } from './operationsMachine.js';
import { reconcileWorldState } from './reconcileWorldState.js';
import type { InboxStore } from '../messages/inboxStore.js';

export interface RollbackDeps {
  readonly chain: Chain;
  /** The synced inbox messages, which a forced rollback's world-state rebuild inserts again. */
  readonly inbox: InboxStore;
  readonly txPool: NodeTxPool;
  readonly l1: L1ReaderPort;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
}

function refuse(message: string, details: Record<string, unknown>): NodeError {
  return new NodeError('OPERATION_REFUSED', message, details);
}

/** Checks the request against the chain as it is; throws OPERATION_REFUSED naming the rule. */
export function checkRollback(chain: Chain, request: RollbackRequest): void {
  const { targetBlockNumber: target, force } = request;
  const { proposed, finalized } = chain.tips;
  if (target > proposed.number)
    throw refuse(`block ${target} is above the proposed tip ${proposed.number}: nothing to roll back`, {
      target,
      proposed: proposed.number,
    });
  if (target < finalized.block.number && !force) {
    throw refuse(
      `block ${target} is below the finalized block ${finalized.block.number}: pass force to roll back that far`,
      { target, finalized: finalized.block.number },
    );
  }
  const oldest = chain.worldState.oldestBlockNumber;
  if (target < oldest && !force) {
    throw refuse(`the world state of block ${target} is no longer kept (oldest ${oldest}): pass force to rebuild it`, {
      target,
      oldestKept: oldest,
    });
  }
}

/**
 * True when the rollback resets the databases: forced, to a block below the finalized one or below the oldest world
 * state kept. Decided before the rollback, from the chain as it is.
 */
export function rollbackClearsDatabases(chain: Chain, request: RollbackRequest): boolean {
  const target = request.targetBlockNumber;
  return request.force && (target < chain.tips.finalized.block.number || target < chain.worldState.oldestBlockNumber);
}

/**
 * The L1 position to resume sync from after rolling back to `target`: the L1 block of the last checkpoint whose
 * blocks all stay, exactly as recorded when the checkpoint was synced (hash included), or else the block before the
 * rollup's start, read before the rollback changes anything. The recorded hash matters: if L1 reorged that block
 * while sync was paused, the archiver's next step sees the hash differ and unwinds the checkpoints L1 lost, where a
 * hash read now would hide the reorg and sync would resume on top of a checkpoint L1 no longer holds.
 */
async function resumePositionFor(chain: Chain, target: number, deps: RollbackDeps): Promise<L1SyncPosition> {
  for (let n = chain.tips.checkpointed.checkpoint.number; n >= 1; n--) {
    const checkpoint = await chain.store.getCheckpoint(n);
    if (checkpoint !== undefined && checkpoint.firstBlockNumber + checkpoint.blockCount - 1 <= target) {
      const { blockNumber, blockHash, timestamp } = checkpoint.l1;
      return { blockNumber, blockHash, timestamp };
    }
  }
  const block = await deps.l1.getBlock(deps.constants.l1StartBlock - 1n);
  return { blockNumber: block.number, blockHash: block.hash, timestamp: block.timestamp };
}

export async function rollback(deps: RollbackDeps, request: RollbackRequest): Promise<void> {
  const { chain, logger } = deps;
  checkRollback(chain, request);
  const target = request.targetBlockNumber;
  const reset = rollbackClearsDatabases(chain, request);
  // Everything read from L1 is read before anything is changed: a failed read leaves the node as it was.
  const resumeFrom = await resumePositionFor(chain, target, deps);
  if (reset) await deps.txPool.clear(target);
  await chain.update(async (u) => {
    if (reset) {
      // Rebuild the world state up to the target from the kept blocks, then prune the chain without unwinding it.
      await chain.worldState.clear();
      await reconcileWorldState(chain.store, chain.worldState, deps.inbox, logger, target);
      await u.pruneTo(target, 'rollback', { worldStateAt: target });
    } else {
      await u.pruneTo(target, 'rollback');
    }
    u.l1Sync = resumeFrom;
  });
  logger.warn('rolled back', { toBlock: target, force: request.force, resumeL1Block: chain.l1Sync?.blockNumber });
}
