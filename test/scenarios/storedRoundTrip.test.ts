/**
 * The chain store keeps the block and checkpoint values it has just written as its decoded copies (core/chain/
 * chainStore.ts), instead of reading their stored JSON back. That is sound only while every such value reads back
 * exactly from its stored text: no undefined fields, no class instances, nothing JSON would drop or reshape. This
 * checks the premise on the values real runs produce: blocks a sequencer built, blocks followers rebuilt from L1,
 * checkpoints with and without attestations.
 */
import { describe, expect, it } from 'vitest';
import { fromStoredJson, toStoredJson } from '../../core/chain/serde.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import { SWARM_VALIDATOR_FOLLOWER_COUNT, validatorOptions } from '../../sim/swarm.js';

const SIMULATED_SECONDS = 240;
const BURST_INTERVAL_MS = 5_000;

function withTxs(options: SimOptions): SimOptions {
  const steps = Array.from({ length: 30 }, (_, i) => ({
    atMs: (i + 1) * BURST_INTERVAL_MS,
    kind: 'tx.burst' as const,
    count: 3,
    feeSeed: i,
  }));
  return { ...options, schedule: { safetyEndMs: (SIMULATED_SECONDS - 60) * 1000, steps } };
}

async function expectStoredValuesReadBackExactly(options: SimOptions): Promise<void> {
  let world: SimWorld | undefined;
  const result = await runSimulation(options, { scenario: (w) => (world = w) });
  expect(result.failures).toEqual([]);
  let blocksWithTxs = 0;
  for (const { name } of result.nodes) {
    const chain = world!.node(name).chain.store;
    for (let n = 1; n <= chain.tips.proposed.number; n++) {
      const block = await chain.getBlock(n);
      expect(block).toBeDefined();
      expect(fromStoredJson(toStoredJson(block))).toStrictEqual(block);
      if (block!.body.txEffects.length > 0) blocksWithTxs++;
    }
    for (let n = 1; n <= chain.tips.checkpointed.checkpoint.number; n++) {
      const checkpoint = await chain.getCheckpoint(n);
      expect(checkpoint).toBeDefined();
      expect(fromStoredJson(toStoredJson(checkpoint))).toStrictEqual(checkpoint);
    }
  }
  expect(blocksWithTxs).toBeGreaterThan(0);
}

describe('blocks and checkpoints as the chain store keeps them read back exactly from their stored JSON', () => {
  it('on a sequencer and followers with a tx workload', async () => {
    await expectStoredValuesReadBackExactly(
      withTxs({ ...drawOptions(3n, SIMULATED_SECONDS), followerCount: 2, proverNode: false }),
    );
  });

  it('with a validator committee (checkpoints carry attestations)', async () => {
    const network = { latencyMs: { min: 20, max: 200 }, lossProbability: 0 };
    await expectStoredValuesReadBackExactly(
      withTxs({
        ...drawOptions(5n, SIMULATED_SECONDS),
        ...validatorOptions({
          followerCount: SWARM_VALIDATOR_FOLLOWER_COUNT,
          validatorCount: 4,
          validatorKeysOnSequencer: 1,
          network,
        }),
      }),
    );
  });
});
