/**
 * A follower back after a long absence catches up in bounded steps: it records its L1 progress after at most
 * ARCHIVER_CHECKPOINTS_PER_STEP_MAX checkpoints. Before the bound, one sync step fetched the blobs of every
 * checkpoint in up to ARCHIVER_L1_BLOCKS_PER_STEP_MAX L1 blocks before applying any, so a follower killed again and
 * again during that step (`npm run bench -- crash` found it) never moved at all while the chain ran away from it.
 */
import { describe, expect, it } from 'vitest';
import { drawOptions, runSimulation, type SimWorld } from '../../sim/runSimulation.js';
import { ARCHIVER_CHECKPOINTS_PER_STEP_MAX } from '../../spec/constants.js';

const SLOT_SECONDS = 24;
const PAUSE_AT_MS = 5_000;
/** Long enough for the sequencer to land about twice the bound's checkpoints while the follower is away. */
const PAUSE_MS = 2 * ARCHIVER_CHECKPOINTS_PER_STEP_MAX * SLOT_SECONDS * 1000;

describe('a follower catching up after a long absence', () => {
  it('records its L1 progress at least every ARCHIVER_CHECKPOINTS_PER_STEP_MAX checkpoints', async () => {
    let world: SimWorld | undefined;
    /** Checkpoints the follower applied, by the L1 block its sync position stood at when it applied them. */
    const appliedAtPosition = new Map<string, number>();
    let behindAtResume = 0;
    const result = await runSimulation(
      {
        ...drawOptions(5n, Math.ceil((PAUSE_AT_MS + PAUSE_MS) / 1000) + 300),
        followerCount: 1,
        slotDurationSeconds: SLOT_SECONDS,
        publishingAllowanceSeconds: 12,
        inclusionDelay: { probability: 0, blocksMax: 0 },
      },
      {
        scenario: (w) => {
          world = w;
          w.at(PAUSE_AT_MS, () => w.pauseNode('follower-1'));
          w.at(PAUSE_AT_MS + PAUSE_MS, () => {
            const checkpointOf = (name: string) => w.node(name).chain.tips.checkpointed.checkpoint.number;
            behindAtResume = checkpointOf('sequencer-0') - checkpointOf('follower-1');
            w.resumeNode('follower-1');
          });
        },
        onActivity: (node, activity) => {
          if (node !== 'follower-1' || activity.kind !== 'chain' || activity.event.type !== 'chainCheckpointed') return;
          const position = String(world!.node(node).chain.l1Sync?.blockNumber);
          appliedAtPosition.set(position, (appliedAtPosition.get(position) ?? 0) + 1);
        },
      },
    );
    expect(result.failures).toEqual([]);
    expect(behindAtResume).toBeGreaterThan(ARCHIVER_CHECKPOINTS_PER_STEP_MAX);
    expect(Math.max(...appliedAtPosition.values())).toBeLessThanOrEqual(ARCHIVER_CHECKPOINTS_PER_STEP_MAX);
    const [sequencer, follower] = result.nodes;
    expect(follower!.checkpoint).toBeGreaterThanOrEqual(sequencer!.checkpoint - 1);
  });
});
