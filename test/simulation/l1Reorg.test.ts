import { describe, expect, it } from 'vitest';
import type { ChainPruneReason } from '../../spec/chain.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

describe('L1 reorgs', () => {
  it.each([1, 2, 4, 8])('after a reorg of depth %i every node unwinds to what L1 still holds and converges again', async (depth) => {
    const prunes: { node: string; reason: ChainPruneReason }[] = [];
    let checkpointsBeforeReorg = 0;
    let checkpointsAfterReorg = 0;
    const options = { ...drawOptions(11n, 400), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } };
    const result = await runSimulation(options, {
      scenario: ({ scheduler, l1 }) => {
        // Reorg right after an L1 block that is likely to hold a checkpoint.
        scheduler.schedule(150_500, () => {
          checkpointsBeforeReorg = l1.checkpointCount();
          l1.reorg(depth);
          checkpointsAfterReorg = l1.checkpointCount();
        });
      },
      onActivity: (node, a) => {
        if (a.kind === 'chain' && a.event.type === 'chainPruned') prunes.push({ node, reason: a.event.reason });
      },
    });
    expect(result.failures).toEqual([]);
    if (checkpointsAfterReorg < checkpointsBeforeReorg) {
      // The follower had synced a checkpoint that the reorg removed: it must have unwound it.
      expect(prunes.some((p) => p.node === 'follower-1' && p.reason === 'l1Reorg')).toBe(true);
    } else {
      // No checkpoint was lost: nothing is unwound, not even the sequencer's blocks in progress.
      expect(prunes.filter((p) => p.reason === 'l1Reorg')).toEqual([]);
    }
    const [sequencer, follower] = result.nodes;
    expect(follower!.checkpoint).toBeGreaterThan(checkpointsAfterReorg);
    expect(Math.abs(sequencer!.checkpoint - follower!.checkpoint)).toBeLessThanOrEqual(1);
  });
});
