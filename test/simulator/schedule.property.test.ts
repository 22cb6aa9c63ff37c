/**
 * A short property campaign: fast-check draws schedules over the whole fault vocabulary (every class on, knobs at
 * their widest) for a small network, runs each, and every checker must pass, apart from what a known open defect
 * explains (knownDefects.ts). A failure shrinks to a minimal schedule and prints as a replay file.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { replayOf, serializeReplay } from '../../sim/replayFile.js';
import { drawOptions, runSimulation, type SimOptions } from '../../sim/runSimulation.js';
import { scheduleArbitrary } from '../../sim/schedule.js';
import { fullSwarm } from '../../sim/swarm.js';
import { unexplainedFailures } from './knownDefects.js';

/** A small network with 24 s slots, so that 180 simulated s leave a safety phase before the liveness bound. */
function campaignOptions(seed: bigint): SimOptions {
  return {
    ...drawOptions(seed, 180),
    followerCount: 1,
    slotDurationSeconds: 24,
    publishingAllowanceSeconds: 12,
    blockDurationMs: 4_000,
    archiverPollIntervalMs: 500,
    inclusionDelay: { probability: 0.2, blocksMax: 1 },
    txPoolCapacity: 6,
  };
}

it('16 schedules over every fault class, 180 simulated s each: every checker passes, the healed network converges', async () => {
  const swarm = fullSwarm();
  const base = campaignOptions(1n);
  const run = fc.tuple(fc.bigInt({ min: 1n, max: 2n ** 32n }), scheduleArbitrary(swarm, base, 30));
  let converged = 0;
  await fc.assert(
    fc.asyncProperty(run, async ([seed, schedule]) => {
      const options: SimOptions = { ...campaignOptions(seed), swarm, schedule };
      const result = await runSimulation(options);
      if (result.events.some((e) => e.kind === 'sim.converged')) converged++;
      const unexplained = unexplainedFailures(result.failures);
      if (unexplained.length > 0)
        throw new Error(
          `${JSON.stringify(unexplained, null, 1)}\nreplay file:\n${serializeReplay(replayOf(options, 'shrunk by schedule.property.test.ts'))}`,
        );
    }),
    // A failure shrinks within the time left (each candidate is a whole run), then reports the smallest so far.
    { numRuns: 16, seed: 20_240_601, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: true },
  );
  expect(converged).toBeGreaterThan(0);
}, 120_000);
