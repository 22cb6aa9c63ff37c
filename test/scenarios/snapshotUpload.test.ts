/**
 * svcAdmin_startSnapshotUpload on a simulated network, by the spec's state table: from `Syncing` the call answers at
 * once with the node in `UploadingSnapshot`, a second admin call meanwhile is refused, no checkpoint is synced while
 * the upload runs (L1 gets new ones meanwhile), and the node syncs again afterwards. A crash in the middle of an upload
 * leaves the store's index without the partial snapshot; the restarted node converges and a later upload succeeds.
 */
import { describe, expect, it } from 'vitest';
import type { NodeError } from '../../core/errors.js';
import { drawOptions, runSimulation, type SimWorld } from '../../sim/runSimulation.js';

const options = {
  ...drawOptions(21n, 420),
  followerCount: 1,
  inclusionDelay: { probability: 0, blocksMax: 0 },
};

const LOCATION = 'sim://scenario';
const UPLOAD_AT_MS = 150_000;
/** Per batch of entries: a slow upload, so that it spans L1 checkpoints and a crash lands in its middle. */
const SLOW_SLEEP_MS = 6_000;

const checkpointOf = (world: SimWorld, name: string) => world.node(name).chain.tips.checkpointed.checkpoint.number;

describe('svcAdmin_startSnapshotUpload in the simulator', () => {
  it('pauses sync while it runs, refuses a second call, and syncs again afterwards', async () => {
    const seen: Record<string, unknown> = {};
    const errors: unknown[] = [];
    const result = await runSimulation(options, {
      scenario: (world) => {
        world.at(UPLOAD_AT_MS, async () => {
          try {
            world.snapshots.setSleepMs(SLOW_SLEEP_MS);
            const admin = world.node('follower-1').service.admin;
            await admin.startSnapshotUpload(LOCATION);
            seen['stateDuring'] = admin.operationalState();
            await expect(admin.pauseSync()).rejects.toMatchObject({
              code: 'OPERATION_REFUSED',
            } satisfies Partial<NodeError>);
            await expect(admin.startSnapshotUpload(LOCATION)).rejects.toMatchObject({ code: 'OPERATION_REFUSED' });
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(UPLOAD_AT_MS + 150_000, () => {
          const [upload] = world.snapshots.uploads();
          seen['stateLater'] = world.node('follower-1').service.admin.operationalState();
          seen['upload'] = upload;
          seen['index'] = world.snapshots.index(LOCATION);
          seen['sequencerCheckpoint'] = checkpointOf(world, 'sequencer-0');
          seen['followerCheckpoint'] = checkpointOf(world, 'follower-1');
        });
      },
    });
    expect(errors).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(seen['stateDuring']).toBe('UploadingSnapshot');
    expect(seen['stateLater']).toBe('Syncing');
    const upload = seen['upload'] as { checkpointAtStart: string; checkpointAtEnd: string; completedAtMs: number };
    expect(upload.completedAtMs).toBeGreaterThan(UPLOAD_AT_MS + 2 * SLOW_SLEEP_MS);
    // The follower's checkpointed tip stayed put for the whole upload, while L1 moved on: sync was paused.
    expect(upload.checkpointAtEnd).toBe(upload.checkpointAtStart);
    const atStart = Number(upload.checkpointAtStart.split('@')[0]);
    expect(seen['sequencerCheckpoint']).toBeGreaterThan(atStart);
    expect(seen['followerCheckpoint']).toBe(seen['sequencerCheckpoint']);
    const index = seen['index'] as readonly { entryCount: number }[];
    expect(index).toHaveLength(1);
    expect(index[0]!.entryCount).toBeGreaterThan(0);
  });

  it('a crash in the middle of an upload leaves only complete snapshots listed and a node that syncs and uploads', async () => {
    const seen: Record<string, unknown> = {};
    const result = await runSimulation(options, {
      scenario: (world) => {
        world.at(UPLOAD_AT_MS, async () => {
          world.snapshots.setSleepMs(SLOW_SLEEP_MS);
          await world.node('follower-1').service.admin.startSnapshotUpload(LOCATION);
        });
        world.at(UPLOAD_AT_MS + 3 * SLOW_SLEEP_MS + 500, async () => {
          const [upload] = world.snapshots.uploads();
          seen['partialEntries'] = world.snapshots.dataOf(LOCATION, upload!.name)?.length;
          seen['stateAtCrash'] = world.node('follower-1').service.admin.operationalState();
          await world.crashAndRestart('follower-1');
        });
        world.at(UPLOAD_AT_MS + 120_000, async () => {
          seen['indexAfterCrash'] = world.snapshots.index(LOCATION).map((e) => e.name);
          seen['stateAfterRestart'] = world.node('follower-1').service.admin.operationalState();
          world.snapshots.setSleepMs(100);
          await world.node('follower-1').service.admin.startSnapshotUpload(LOCATION);
        });
        world.at(UPLOAD_AT_MS + 140_000, () => {
          seen['uploads'] = world.snapshots.uploads().map((u) => ({ ...u }));
          seen['index'] = world.snapshots.index(LOCATION).map((e) => ({ ...e }));
          seen['stateLater'] = world.node('follower-1').service.admin.operationalState();
        });
      },
    });
    expect(result.failures).toEqual([]);
    expect(seen['stateAtCrash']).toBe('UploadingSnapshot');
    expect(seen['partialEntries']).toBeGreaterThan(0);
    // The crashed incarnation's upload never completed, and nothing of it is listed.
    expect(seen['indexAfterCrash']).toEqual([]);
    expect(seen['stateAfterRestart']).toBe('Syncing');
    const [crashed, later] = seen['uploads'] as { name: string; completedAtMs?: number; expected?: object }[];
    expect(crashed!.completedAtMs).toBeUndefined();
    expect(later!.completedAtMs).toBeDefined();
    const index = seen['index'] as { name: string; node: string; entryCount: number }[];
    expect(index.map((e) => e.name)).toEqual([later!.name]);
    expect(index[0]!.node).toBe('follower-1#1');
    expect(seen['stateLater']).toBe('Syncing');
    // The restarted follower synced to the same chain as the sequencer (the run's checkers found no divergence).
    const [sequencer, follower] = result.nodes;
    expect(follower!.checkpoint).toBe(sequencer!.checkpoint);
    expect(follower!.checkpointedBlock).toBe(sequencer!.checkpointedBlock);
  });

  it('the admin.snapshotUpload step checks the rules on a running schedule', async () => {
    const result = await runSimulation({
      ...options,
      schedule: {
        safetyEndMs: 300_000,
        steps: [{ atMs: UPLOAD_AT_MS, kind: 'admin.snapshotUpload', node: 'follower-1' }],
      },
    });
    expect(result.failures).toEqual([]);
    const [event] = result.events.filter((e) => e.kind === 'admin.snapshotUpload');
    expect(event?.detail).toMatch(/^uploaded from Syncing \(\d+ entries\), second call refused OPERATION_REFUSED$/);
  });
});
