import type { Block } from '../../spec/chain.js';
import { assert } from '../assert.js';
import type { ChainStore } from '../chain/chainStore.js';
import type { LoggerPort } from '../ports.js';
import { blockStateEffects } from '../worldState/blockEffects.js';
import type { WorldState } from '../worldState/worldState.js';
import type { InboxStore } from '../messages/inboxStore.js';
import { checkpointMessageSubtree } from '../../spec/messages/inbox.js';

/**
 * Brings the world state to the chain's proposed tip when they differ: both are written in one batch per block, so
 * they only differ in a data directory whose world state was cleared (forced rollback) or written by an older
 * version. A world state ahead of the chain is unwound; one behind replays the stored blocks' effects, each checked
 * against the roots its header claims.
 */
export async function reconcileWorldState(
  store: ChainStore,
  worldState: WorldState,
  inbox: InboxStore,
  logger: LoggerPort,
  upTo?: number,
): Promise<void> {
  const target = upTo ?? store.tips.proposed.number;
  if (worldState.latestBlockNumber > target) {
    logger.warn('world state is ahead of the chain; unwinding it', {
      worldState: worldState.latestBlockNumber,
      chain: target,
    });
    await worldState.unwindTo(target);
    return;
  }
  if (worldState.latestBlockNumber < target) {
    logger.info('replaying stored blocks into the world state', { from: worldState.latestBlockNumber + 1, to: target });
  }
  for (let n = worldState.latestBlockNumber + 1; n <= target; n++) {
    const block = await store.getBlock(n);
    assert(block !== undefined, `block ${n} below the proposed tip is stored`);
    await replayBlock(worldState, inbox, block);
  }
}

/** The first block of a checkpoint inserts its inbox tree again (the synced messages outlive a world-state clear). */
async function replayBlock(worldState: WorldState, inbox: InboxStore, block: Block): Promise<void> {
  const n = block.header.globalVariables.blockNumber;
  const messages =
    block.indexWithinCheckpoint === 0
      ? checkpointMessageSubtree(await inbox.leavesOfCheckpoint(block.checkpointNumber))
      : [];
  const draft = await worldState.prepareBlock(n, blockStateEffects(block.body.txEffects, messages));
  const { state } = block.header;
  for (const tree of ['noteHashTree', 'nullifierTree', 'publicDataTree', 'l1ToL2MessageTree'] as const) {
    assert(
      draft.stateReference[tree].root === state[tree].root,
      `replayed block ${n} gives the ${tree} root its header holds`,
    );
    assert(
      draft.stateReference[tree].nextAvailableLeafIndex === state[tree].nextAvailableLeafIndex,
      `replayed block ${n} gives the ${tree} size its header holds`,
    );
  }
  await draft.finish(block.hash).commit();
}
