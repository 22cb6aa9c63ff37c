import { describe, expect, it } from 'vitest';
import type { ChainPruneReason } from '../../spec/chain.js';
import { drawOptions, runSimulation, type SimWorld } from '../../sim/runSimulation.js';

/** L1 blocks are 12 s apart; a reorg of `depth` needs that many blocks above the deployment (L1 block 1). */
const L1_BLOCK_MS = 12_000;

async function reorgScenario(depth: number) {
  const prunes: { node: string; reason: ChainPruneReason }[] = [];
  let checkpointsBeforeReorg = 0;
  let checkpointsAfterReorg = 0;
  // Reorg just after an L1 block, late enough that `depth` blocks exist above the deployment, and leave time to
  // converge after it. The simulated L1 finalizes 64 blocks behind its head, so even 64 stays above finality.
  const reorgAtMs = Math.max(150_500, (depth + 4) * L1_BLOCK_MS + 500);
  const options = {
    ...drawOptions(11n, Math.ceil(reorgAtMs / 1000) + 300),
    followerCount: 1,
    inclusionDelay: { probability: 0, blocksMax: 0 },
  };
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
  it.each([1, 2, 4, 8, 16, 32, 64])(
    'after a reorg of depth %i every node unwinds to what L1 still holds and converges again',
    async (depth) => {
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
    },
  );

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

describe('an L1 reorg right after a prune, unwound over a failing L1 link', () => {
  // No prover and 2-slot epochs: L1 prunes the pending chain every few checkpoints, so the L1 history holds
  // proposals of pruned checkpoints (here checkpoints 1 to 3 in L1 blocks 4 to 8, pruned in block 9).
  const options = {
    ...drawOptions(5n, 400),
    followerCount: 1,
    inclusionDelay: { probability: 0, blocksMax: 0 },
    epochDurationSlots: 2,
    proofSubmissionEpochs: 1,
  };

  it('the unwind fails and is retried; it never resumes from before the checkpoint it keeps', async () => {
    const seen: { checkpointBefore?: number; l1CheckpointsAfter?: number; keptL1Block?: bigint; failedReads: number } =
      { failedReads: 0 };
    const result = await runSimulation(options, {
      scenario: (world) => {
        // By 133 s the follower has synced the new chain's checkpoints 1 (L1 block 10) and 2 (L1 block 12, the head).
        world.at(133_000, async () => {
          const follower = world.node('follower-1');
          seen.checkpointBefore = follower.chain.tips.checkpointed.checkpoint.number;
          seen.keptL1Block = (await follower.chain.store.getCheckpoint(1))?.l1.blockNumber;
          world.l1.reorg(1);
          seen.l1CheckpointsAfter = world.l1.checkpointCount();
          // The unwind's read of the kept checkpoint's L1 block fails, once.
          world.link('follower-1').failCallsWhere((method, args) => {
            const fails = seen.failedReads === 0 && method === 'getBlock' && args[0] === seen.keptL1Block;
            if (fails) seen.failedReads++;
            return fails;
          });
        });
      },
    });
    expect(seen).toEqual({ checkpointBefore: 2, l1CheckpointsAfter: 1, keptL1Block: 10n, failedReads: 1 });
    // Resuming from the rollup's first L1 block would replay the pruned checkpoint 2 (L1 block 6) on top of the new
    // checkpoint 1 and stop sync for good (notConverged).
    expect(result.failures).toEqual([]);
    const [sequencer, follower] = result.nodes;
    expect(follower!.checkpoint).toBe(sequencer!.checkpoint);
  });
});

describe('a stale L1 link', () => {
  it('never unwinds or prunes: a head below the last synced block is waited out, not taken for a reorg', async () => {
    const prunes: string[] = [];
    const options = { ...drawOptions(11n, 400), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } };
    const result = await runSimulation(options, {
      scenario: (world) => {
        // Just after the follower synced a checkpoint from the L1 head, its link falls 2 blocks behind for 30 s.
        world.at(160_000, () => world.link('follower-1').setStale(2));
        world.at(190_000, () => world.link('follower-1').setStale(0));
      },
      onActivity: (node, a) => {
        if (a.kind === 'chain' && a.event.type === 'chainPruned')
          prunes.push(`${node}: ${a.event.reason} to block ${a.event.toBlock.number}`);
      },
    });
    expect(prunes).toEqual([]);
    expect(result.failures).toEqual([]);
  });
});

describe('a reorg to a shorter chain', () => {
  it('is unwound as soon as L1 mines a block on it, before L1 is back at the height the node synced', async () => {
    let world: SimWorld | undefined;
    let reorgedAtMs = 0;
    const unwoundAtMs: number[] = [];
    const options = { ...drawOptions(11n, 300), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } };
    const result = await runSimulation(options, {
      scenario: (w) => {
        world = w;
        // Right after the follower synced a checkpoint from the head, drop 4 blocks: L1 is back at that height only
        // 48 s later, but its first new block (within 12 s) is already newer than the block the follower synced.
        w.at(160_000, () => {
          w.l1.reorg(4);
          reorgedAtMs = w.elapsedMs();
        });
      },
      onActivity: (node, a) => {
        if (
          node === 'follower-1' &&
          a.kind === 'chain' &&
          a.event.type === 'chainPruned' &&
          a.event.reason === 'l1Reorg'
        )
          unwoundAtMs.push(world!.elapsedMs());
      },
    });
    expect(result.failures).toEqual([]);
    expect(unwoundAtMs.length).toBe(1);
    expect(unwoundAtMs[0]! - reorgedAtMs).toBeLessThan(30_000);
  });
});
