import { describe, expect, it } from 'vitest';
import type { RollupNode } from '../../core/node/node.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';

const SLOT_SECONDS = 24;
const options: SimOptions = {
  ...drawOptions(3n, 600),
  followerCount: 1,
  slotDurationSeconds: SLOT_SECONDS,
  publishingAllowanceSeconds: 12,
  blockDurationMs: 4_000,
  inclusionDelay: { probability: 0, blocksMax: 0 },
};

/** Runs the standard two-node network and calls `check` at `atSeconds` with both nodes. */
async function runWith(
  steps: {
    atSeconds: number;
    check: (nodes: { sequencer: RollupNode; follower: RollupNode }, world: SimWorld) => Promise<void>;
  }[],
) {
  const errors: unknown[] = [];
  const result = await runSimulation(options, {
    scenario: (world) => {
      for (const step of steps) {
        world.at(step.atSeconds * 1000, async () => {
          try {
            await step.check({ sequencer: world.node('sequencer-0'), follower: world.node('follower-1') }, world);
          } catch (error) {
            errors.push(error);
          }
        });
      }
    },
  });
  if (errors.length > 0) throw errors[0];
  return result;
}

describe('node service over a simulated network', () => {
  it('answers block and checkpoint ranges, lookups by hash and tag, and epochs', async () => {
    await runWith([
      {
        atSeconds: 400,
        check: async ({ follower }) => {
          const s = follower.service;
          const tips = await s.chain.getChainTips();
          expect(tips.checkpointed.checkpoint.number).toBeGreaterThanOrEqual(8);
          const blocks = await s.chain.getBlocks(1, 5);
          expect(blocks.map((b) => b.block.header.globalVariables.blockNumber)).toEqual([1, 2, 3, 4, 5]);
          expect(blocks.every((b) => b.checkpoint !== undefined)).toBe(true);
          expect(await s.chain.getBlocks(tips.proposed.number, 10)).toHaveLength(1);
          const checkpoints = await s.chain.getCheckpoints(2, 3);
          expect(checkpoints.map((c) => c.number)).toEqual([2, 3, 4]);
          expect((await s.chain.findCheckpoint({ kind: 'hash', hash: checkpoints[1]!.hash }))?.number).toBe(3);
          expect((await s.chain.findCheckpoint({ kind: 'tag', tag: 'checkpointed' }))?.number).toBe(
            tips.checkpointed.checkpoint.number,
          );
          expect(await s.chain.findCheckpoint({ kind: 'number', number: 10_000 })).toBeUndefined();
          expect(await s.chain.findCheckpoint({ kind: 'hash', hash: `0x${'11'.repeat(32)}` })).toBeUndefined();
          const epochLength = follower.constants.epochDuration;
          const inEpoch0 = await s.chain.getCheckpointsInEpoch(0);
          expect(inEpoch0.length).toBeGreaterThan(0);
          expect(inEpoch0.every((c) => c.header.slotNumber < epochLength)).toBe(true);
          expect(await s.chain.getCheckpointsInEpoch(1_000)).toEqual([]);
        },
      },
    ]);
  });

  it('reports the synced L1 timestamp, L2 slot and epoch', async () => {
    await runWith([
      {
        atSeconds: 300,
        check: async ({ follower }) => {
          const s = follower.service;
          const timestamp = s.chain.getSyncedL1Timestamp();
          expect(timestamp).toBeDefined();
          const slot = s.chain.getSyncedL2SlotNumber()!;
          const genesis = follower.constants.l1GenesisTime;
          // The synced L1 block lies in the slot after the synced one, or at its very end.
          expect(Number(timestamp! - genesis) / SLOT_SECONDS).toBeGreaterThanOrEqual(slot);
          expect(Number(timestamp! - genesis) / SLOT_SECONDS).toBeLessThan(slot + 2);
          expect(s.chain.getSyncedL2EpochNumber()).toBeUndefined(); // 300 s of 24 s slots: epoch 0 (32 slots) not complete yet
        },
      },
    ]);
  });

  it('pauses and resumes sync and the sequencer; refuses sequencer control on a follower', async () => {
    let checkpointAtPause = 0;
    let proposedAtSequencerPause = 0;
    await runWith([
      {
        atSeconds: 100,
        check: async ({ follower, sequencer }) => {
          await follower.service.admin.pauseSync();
          checkpointAtPause = (await follower.service.chain.getChainTips()).checkpointed.checkpoint.number;
          await expect(follower.service.admin.pauseSequencer()).rejects.toMatchObject({ code: 'OPERATION_REFUSED' });
          await expect(follower.service.admin.resumeSequencer()).rejects.toMatchObject({ code: 'OPERATION_REFUSED' });
          await sequencer.service.admin.pauseSequencer();
          proposedAtSequencerPause = (await sequencer.service.chain.getChainTips()).proposed.number;
        },
      },
      {
        atSeconds: 250,
        check: async ({ follower, sequencer }) => {
          expect(follower.machineStates().archiver).toBe('Paused');
          expect((await follower.service.chain.getChainTips()).checkpointed.checkpoint.number).toBe(checkpointAtPause);
          expect(sequencer.machineStates().sequencer).toBe('Paused');
          // Blocks in progress at the pause may still land on L1 (or be dropped once their slot is over), but no new
          // block is built.
          expect((await sequencer.service.chain.getChainTips()).proposed.number).toBeLessThanOrEqual(
            proposedAtSequencerPause,
          );
          await follower.service.admin.resumeSync();
          await sequencer.service.admin.resumeSequencer();
        },
      },
      {
        atSeconds: 400,
        check: async ({ follower, sequencer }) => {
          expect((await follower.service.chain.getChainTips()).checkpointed.checkpoint.number).toBeGreaterThan(
            checkpointAtPause,
          );
          expect((await sequencer.service.chain.getChainTips()).proposed.number).toBeGreaterThan(
            proposedAtSequencerPause,
          );
        },
      },
    ]);
  });

  it('applies configuration changes at run time and refuses unknown keys', async () => {
    await runWith([
      {
        atSeconds: 50,
        check: async ({ sequencer, follower }) => {
          await sequencer.service.admin.setConfig({ archiverPollIntervalMs: 777, sequencer: { pollIntervalMs: 300 } });
          expect(sequencer.service.admin.getConfig()).toMatchObject({
            archiverPollIntervalMs: 777,
            sequencer: { pollIntervalMs: 300 },
          });
          await expect(sequencer.service.admin.setConfig({ noSuchKey: 1 })).rejects.toMatchObject({
            code: 'INVALID_PARAMS',
          });
          await expect(sequencer.service.admin.setConfig({ archiverPollIntervalMs: -5 })).rejects.toMatchObject({
            code: 'INVALID_PARAMS',
          });
          await expect(follower.service.admin.setConfig({ sequencer: { pollIntervalMs: 300 } })).rejects.toMatchObject({
            code: 'OPERATION_REFUSED',
          });
        },
      },
    ]);
  });
});
