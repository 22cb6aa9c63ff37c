import { describe, expect, it } from 'vitest';
import type { NodeActivity } from '../../core/node/node.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { decodeCheckpointAttestations } from '../../spec/validators/checkpointAttestations.js';

const baseOptions = (seed: bigint, seconds: number): SimOptions => ({
  ...drawOptions(seed, seconds),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
});

describe('validators in the simulation', () => {
  it('the sequencer collects its committee quorum and every node accepts the attested checkpoints', async () => {
    const activities: { node: string; activity: NodeActivity }[] = [];
    let world: SimWorld | undefined;
    const result = await runSimulation(baseOptions(5n, 300), {
      scenario: (w) => (world = w),
      onActivity: (node, activity) => activities.push({ node, activity }),
    });
    expect(result.failures).toEqual([]);
    expect(result.l1Checkpoints).toBeGreaterThan(2);
    for (const node of result.nodes) expect(node.checkpoint).toBeGreaterThan(2);
    const refused = activities.filter((a) => a.activity.kind === 'validator' && a.activity.event.kind === 'checkpointRefused');
    expect(refused).toEqual([]);
    // Every checkpoint on L1 carries at least the quorum of a committee of 4: floor(8 / 3) + 1 = 3 distinct seats.
    const l1 = world!.l1;
    const logs = l1.logsIn('checkpointProposed', 0n, l1.head().number, l1.head().number);
    expect(logs.length).toBeGreaterThan(2);
    for (const log of logs) {
      const seats = decodeCheckpointAttestations(hexToBytes(log.attestations)).map((a) => a.committeeIndex);
      expect(new Set(seats).size).toBeGreaterThanOrEqual(3);
    }
  });
});
