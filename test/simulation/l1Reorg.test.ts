import { describe, expect, it } from 'vitest';
import type { ChainPruneReason } from '../../spec/chain.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

/** L1 blocks are 12 s apart; a reorg of `depth` needs that many blocks above the deployment (L1 block 1). */
const L1_BLOCK_MS = 12_000;

async function reorgScenario(depth: number) {
  const prunes: { node: string; reason: ChainPruneReason }[] = [];
  let checkpointsBeforeReorg = 0;
  let checkpointsAfterReorg = 0;
  // Reorg just after an L1 block, late enough that `depth` blocks exist above the deployment, and leave time to
  // converge after it. The simulated L1 finalizes 64 blocks behind its head, so even 64 stays above finality.
  const reorgAtMs = Math.max(150_500, (depth + 4) * L1_BLOCK_MS + 500);
  const options = { ...drawOptions(11n, Math.ceil(reorgAtMs / 1000) + 300), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } };
  const result = await runSimulation(options, {
    scenario: ({ scheduler, l1 }) => {
      scheduler.schedule(reorgAtMs, () => {
        checkpointsBeforeReorg = l1.checkpointCount();
        l1.reorg(depth);
        checkpointsAfterReorg = l1.checkpointCount();
      });
    },
    onActivity: (node, a) => {
      if (a.kind === 'chain' && a.event.type === 'chainPruned') prunes.push({ node, reason: a.event.reason });
    },
  });
  return { result, prunes, checkpointsBeforeReorg, checkpointsAfterReorg };
}

describe('L1 reorgs', () => {
  it.each([1, 2, 4, 8, 16, 32, 64])('after a reorg of depth %i every node unwinds to what L1 still holds and converges again', async (depth) => {
    const { result, prunes, checkpointsBeforeReorg, checkpointsAfterReorg } = await reorgScenario(depth);
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

  it('a reorg of 32 L1 blocks takes several checkpoints away; both nodes unwind them and build the chain again', async () => {
    const { result, prunes, checkpointsBeforeReorg, checkpointsAfterReorg } = await reorgScenario(32);
    expect(checkpointsBeforeReorg - checkpointsAfterReorg).toBeGreaterThanOrEqual(2);
    expect(prunes).toContainEqual({ node: 'follower-1', reason: 'l1Reorg' });
    expect(prunes).toContainEqual({ node: 'sequencer-0', reason: 'l1Reorg' });
    expect(result.failures).toEqual([]);
    // Both build on what L1 kept: past it, and agreeing within the checkpoint in flight.
    const reached = result.nodes.map((n) => n.checkpoint);
    expect(Math.min(...reached)).toBeGreaterThan(checkpointsAfterReorg + 1);
    expect(Math.max(...reached) - Math.min(...reached)).toBeLessThanOrEqual(1);
  });
});
