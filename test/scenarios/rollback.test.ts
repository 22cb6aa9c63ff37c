/**
 * svcAdmin_rollbackTo on a simulated network: the follower goes back to the target block, syncs the later
 * checkpoints from L1 again and converges with the sequencer; with resumeSync false it waits paused; with force and a
 * target below the finalized block its world state is rebuilt and its pool database cleared, while with force and a
 * target above it the rollback is an ordinary one; a target above the chain is refused.
 */
import { describe, expect, it } from 'vitest';
import type { NodeError } from '../../core/errors.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

// A prover, short epochs and a short L1 finality lag: blocks are finalized by the time of the rollback.
const options = {
  ...drawOptions(21n, 420),
  followerCount: 1,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  proverNode: true,
  epochDurationSlots: 2,
  l1FinalityLagBlocks: 2,
};

type Target = 'belowFinalized' | 'aboveFinalized';

async function scenario(force: boolean, resumeSync: boolean, targetAt: Target = 'aboveFinalized') {
  const errors: unknown[] = [];
  const seen: Record<string, unknown> = {};
  const cleared: string[] = [];
  const result = await runSimulation(options, {
    print: (line) => {
      if (line.includes('tx pool cleared')) cleared.push(line);
    },
    scenario: (world) => {
      world.at(200_000, async () => {
        try {
          const follower = world.node('follower-1');
          const before = follower.chain.tips;
          const target =
            targetAt === 'aboveFinalized'
              ? Math.max(before.finalized.block.number, before.checkpointed.block.number - 3)
              : before.finalized.block.number - 2;
          seen['finalizedBefore'] = before.finalized.block.number;
          await expect(
            follower.service.admin.rollbackTo(before.proposed.number + 5, false, true),
          ).rejects.toMatchObject({ code: 'OPERATION_REFUSED' } satisfies Partial<NodeError>);
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
  return { result, seen, cleared };
}

describe('rollbackTo', () => {
  it.each([
    ['resuming sync', false, true, 'aboveFinalized'],
    ['staying paused until resumed', false, false, 'aboveFinalized'],
    [
      'with force, above the finalized block (an ordinary rollback: the pool database stays)',
      true,
      true,
      'aboveFinalized',
    ],
    [
      'with force, below the finalized block (world state rebuilt, pool database cleared)',
      true,
      true,
      'belowFinalized',
    ],
  ] as const)('%s: rolls back, then syncs the same chain again', async (_name, force, resumeSync, targetAt) => {
    const { result, seen, cleared } = await scenario(force, resumeSync, targetAt);
    expect(seen['target'] as number).toBeGreaterThanOrEqual(1);
    if (targetAt === 'belowFinalized') expect(seen['target'] as number).toBeLessThan(seen['finalizedBefore'] as number);
    else expect(seen['target'] as number).toBeGreaterThanOrEqual(seen['finalizedBefore'] as number);
    expect(cleared.length).toBe(targetAt === 'belowFinalized' ? 1 : 0);
    expect(seen['proposedAfter']).toBe(seen['target']);
    expect(seen['worldStateAfter']).toBe(seen['target']);
    expect(seen['checkpointedAfter'] as number).toBeLessThanOrEqual(seen['target'] as number);
    expect(resumeSync ? ['Resuming', 'Syncing'] : ['SyncPaused']).toContain(seen['stateAfter']);
    if (!resumeSync) expect(seen['proposedWhilePaused']).toBe(seen['target']);
    expect(seen['checkpointAtEnd'] as number).toBeGreaterThan(seen['before'] as number);
    expect(result.failures).toEqual([]);
  });
});

describe('rollbackTo after an L1 reorg it has not synced yet', () => {
  // Sync paused, L1 reorgs away the block of the follower's last checkpoint and the sequencer publishes a new one;
  // then an ordinary rollback to the follower's own tip. Resuming from the kept checkpoint's L1 block as recorded
  // (not as L1 holds it now) lets the archiver see the reorg and unwind, instead of building on a lost checkpoint.
  const reorgOptions = { ...drawOptions(11n, 400), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } };

  it('the archiver still sees the reorg, unwinds and converges', async () => {
    const errors: unknown[] = [];
    const seen: {
      checkpoint?: number;
      lostL1Block?: bigint;
      l1CheckpointsAfterReorg?: number;
      l1CheckpointsAtRollback?: number;
      reorgUnwinds: number;
    } = { reorgUnwinds: 0 };
    const result = await runSimulation(reorgOptions, {
      onActivity: (node, a) => {
        if (
          node === 'follower-1' &&
          a.kind === 'chain' &&
          a.event.type === 'chainPruned' &&
          a.event.reason === 'l1Reorg'
        )
          seen.reorgUnwinds++;
      },
      scenario: (world) => {
        world.at(150_500, async () => {
          try {
            const follower = world.node('follower-1');
            await follower.service.admin.pauseSync();
            seen.checkpoint = follower.chain.tips.checkpointed.checkpoint.number;
            seen.lostL1Block = (await follower.chain.store.getCheckpoint(seen.checkpoint))!.l1.blockNumber;
            world.l1.reorg(Number(world.l1.head().number - seen.lostL1Block) + 1);
            seen.l1CheckpointsAfterReorg = world.l1.checkpointCount();
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(230_000, async () => {
          try {
            const follower = world.node('follower-1');
            seen.l1CheckpointsAtRollback = world.l1.checkpointCount();
            await follower.service.admin.rollbackTo(follower.chain.tips.proposed.number, false, true);
          } catch (error) {
            errors.push(error);
          }
        });
      },
    });
    if (errors.length > 0) throw errors[0];
    expect(seen.l1CheckpointsAfterReorg).toBe(seen.checkpoint! - 1);
    expect(seen.l1CheckpointsAtRollback).toBeGreaterThanOrEqual(seen.checkpoint!);
    expect(seen.reorgUnwinds).toBe(1);
    expect(result.failures).toEqual([]);
    const [sequencer, follower] = result.nodes;
    expect(Math.abs(sequencer!.checkpoint - follower!.checkpoint)).toBeLessThanOrEqual(1);
  });
});
