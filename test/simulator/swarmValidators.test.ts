/**
 * The swarm's validator knob: some seeds run validators over proposing nodes and a gossip network, and only those
 * seeds may draw network partitions; the layouts they draw keep a quorum with any one node cut off; and a seed with
 * validators and partitions replays to the same trace hash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quorumSize } from '../../core/validators/committee.js';
import { runSimulation } from '../../sim/runSimulation.js';
import {
  drawSwarmOptions,
  survivesOneIsolated,
  SWARM_VALIDATOR_FOLLOWER_COUNT,
  SWARM_VALIDATOR_LAYOUTS,
  validatorKeyCounts,
} from '../../sim/swarm.js';
import { unexplainedFailures } from './knownDefects.js';

const seedArbitrary = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

describe('swarm validators', () => {
  it('for every seed: partitions only with validators, and validators come with proposing followers, gossip and a tolerant layout', () => {
    fc.assert(
      fc.property(seedArbitrary, (seed) => {
        const options = drawSwarmOptions(seed, 600);
        const swarm = options.swarm!;
        const partitionSteps = options.schedule!.steps.filter((step) => step.kind === 'network.partition');
        if (swarm.validators === undefined) {
          expect(swarm.kinds).not.toContain('network.partition');
          expect(partitionSteps).toEqual([]);
          expect(options.validatorCount).toBeUndefined();
          expect(options.followersPropose).toBeUndefined();
          expect(options.network).toBeUndefined();
          return;
        }
        const { validatorCount, validatorKeysOnSequencer, network, followerCount } = swarm.validators;
        expect(options).toMatchObject({
          followerCount,
          validatorCount,
          validatorKeysOnSequencer,
          network,
          followersPropose: true,
        });
        expect(followerCount).toBe(SWARM_VALIDATOR_FOLLOWER_COUNT);
        const keys = validatorKeyCounts(options);
        // The sequencer and every follower hold one or two keys; the prover none.
        expect(keys.slice(0, 1 + followerCount).every((k) => k === 1 || k === 2)).toBe(true);
        expect(keys.slice(1 + followerCount).every((k) => k === 0)).toBe(true);
        expect(keys.reduce((sum, k) => sum + k, 0)).toBe(validatorCount);
        expect(survivesOneIsolated(keys)).toBe(true);
        if (!swarm.kinds.includes('network.partition')) expect(partitionSteps).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('over 100 seeds, validators are on in some and off in others, and some of those with validators draw partitions', () => {
    let withValidators = 0;
    let withPartitions = 0;
    for (let seed = 1n; seed <= 100n; seed++) {
      const { swarm, schedule } = drawSwarmOptions(seed, 600);
      if (swarm!.validators !== undefined) withValidators++;
      if (schedule!.steps.some((step) => step.kind === 'network.partition')) withPartitions++;
    }
    expect(withValidators).toBeGreaterThan(10);
    expect(withValidators).toBeLessThan(90);
    expect(withPartitions).toBeGreaterThan(0);
    expect(withPartitions).toBeLessThan(withValidators);
  });

  it('a layout survives one node cut off exactly when every node holds at most the keys beyond the quorum', () => {
    for (const layout of SWARM_VALIDATOR_LAYOUTS) {
      expect(
        survivesOneIsolated(validatorKeyCounts({ followerCount: SWARM_VALIDATOR_FOLLOWER_COUNT, ...layout })),
      ).toBe(true);
    }
    expect(
      validatorKeyCounts({ followerCount: 3, validatorCount: 7, validatorKeysOnSequencer: 2, proverNode: true }),
    ).toEqual([2, 2, 2, 1, 0]);
    // 2/2/1/1: six keys need five, and cutting off a node with two leaves four.
    expect(survivesOneIsolated([2, 2, 1, 1])).toBe(false);
    expect(survivesOneIsolated([1, 1, 1])).toBe(false);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 8 }), (keys) => {
        const total = keys.reduce((sum, k) => sum + k, 0);
        expect(survivesOneIsolated(keys)).toBe(keys.every((k) => k <= total - quorumSize(total)));
      }),
    );
  });

  it('a seed with validators and partitions replays to the same trace hash, and its partitions apply', async () => {
    const seed = 4n;
    const options = drawSwarmOptions(seed, 240);
    expect(options.swarm!.validators).toBeDefined();
    expect(options.schedule!.steps.some((step) => step.kind === 'network.partition')).toBe(true);
    const [first, second] = [await runSimulation(options), await runSimulation(options)];
    expect(second.traceHash).toBe(first.traceHash);
    expect(unexplainedFailures(first.failures)).toEqual([]);
    expect(first.events.some((e) => e.kind === 'network.partition' && / cut off from gossip /.test(e.detail))).toBe(
      true,
    );
    expect(first.nodes.map((n) => n.role)).toEqual([
      'sequencer',
      'proposer',
      'proposer',
      'proposer',
      ...(options.proverNode === true ? ['follower'] : []),
    ]);
  }, 60_000);
});
