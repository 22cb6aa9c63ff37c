/**
 * svcAdmin_rollbackTo on a simulated network: the follower goes back to the target block, syncs the later
 * checkpoints from L1 again and converges with the sequencer; with resumeSync false it waits paused; with force its
 * world state is rebuilt and its pool emptied; a target above the chain is refused.
 */
import { describe, expect, it } from 'vitest';
import type { NodeError } from '../../core/errors.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

const options = { ...drawOptions(21n, 420), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } };

async function scenario(force: boolean, resumeSync: boolean) {
  const errors: unknown[] = [];
  const seen: Record<string, unknown> = {};
  const result = await runSimulation(options, {
    scenario: (world) => {
      world.at(200_000, async () => {
        try {
          const follower = world.node('follower-1');
          const before = follower.chain.tips;
          const target = Math.max(1, before.checkpointed.block.number - 3);
          await expect(follower.service.admin.rollbackTo(before.proposed.number + 5, false, true)).rejects.toMatchObject({ code: 'OPERATION_REFUSED' } satisfies Partial<NodeError>);
          await follower.service.admin.rollbackTo(target, force, resumeSync);
          const after = follower.chain.tips;
          seen['before'] = before.checkpointed.checkpoint.number;
          seen['target'] = target;
          seen['proposedAfter'] = after.proposed.number;
          seen['checkpointedAfter'] = after.checkpointed.block.number;
          seen['worldStateAfter'] = follower.chain.worldState.latestBlockNumber;
          seen['stateAfter'] = follower.service.admin.operationalState();
        } catch (error) {
          errors.push(error);
        }
      });
      world.at(260_000, async () => {
        const follower = world.node('follower-1');
        seen['proposedWhilePaused'] = follower.chain.tips.proposed.number;
        if (!resumeSync) await follower.service.admin.resumeSync();
      });
      world.at(415_000, () => {
        seen['checkpointAtEnd'] = world.node('follower-1').chain.tips.checkpointed.checkpoint.number;
      });
    },
  });
  if (errors.length > 0) throw errors[0];
  return { result, seen };
}

describe('rollbackTo', () => {
  it.each([
    ['resuming sync', false, true],
    ['staying paused until resumed', false, false],
    ['with force (world state rebuilt, pool cleared)', true, true],
  ])('%s: rolls back, then syncs the same chain again', async (_name, force, resumeSync) => {
    const { result, seen } = await scenario(force, resumeSync);
    expect(seen['proposedAfter']).toBe(seen['target']);
    expect(seen['worldStateAfter']).toBe(seen['target']);
    expect(seen['checkpointedAfter'] as number).toBeLessThanOrEqual(seen['target'] as number);
    expect(resumeSync ? ['Resuming', 'Syncing'] : ['SyncPaused']).toContain(seen['stateAfter']);
    if (!resumeSync) expect(seen['proposedWhilePaused']).toBe(seen['target']);
    expect(seen['checkpointAtEnd'] as number).toBeGreaterThan(seen['before'] as number);
    expect(result.failures).toEqual([]);
  });
});
