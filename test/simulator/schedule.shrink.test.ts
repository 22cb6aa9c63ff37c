/**
 * The checkers catch a broken rule, and fast-check shrinks the schedule that shows it. The scratch copy of the rule
 * lives only in this file: the pool's price-bump formula (core/txPool/txPriority.ts, minimumOutbiddingFee) is
 * wrapped so that, while `broken` is set, a replacement needs no bump at all (an equal priority fee replaces). No
 * configuration can do that (a bump of 0% still needs a strictly higher fee), which is why the rule is broken here
 * and not through options. The replacement checker restates the rule itself, so the wrap cannot reach it.
 */
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import type * as TxPriority from '../../core/txPool/txPriority.js';
import { failureKindsOf } from '../../sim/replayFile.js';
import { drawOptions, runSimulation, type SimOptions } from '../../sim/runSimulation.js';
import type { SimSchedule } from '../../sim/faults.js';
import { scheduleArbitrary } from '../../sim/schedule.js';
import { fullSwarm } from '../../sim/swarm.js';

const state = vi.hoisted(() => ({ broken: true }));

vi.mock('../../core/txPool/txPriority.js', async (importOriginal) => {
  const original = await importOriginal<typeof TxPriority>();
  return {
    ...original,
    minimumOutbiddingFee: (pooledPriorityFee: bigint, bumpPercentage: number) =>
      state.broken ? pooledPriorityFee : original.minimumOutbiddingFee(pooledPriorityFee, bumpPercentage),
  };
});

const options: SimOptions = {
  ...drawOptions(7n, 150),
  followerCount: 1,
  slotDurationSeconds: 24,
  publishingAllowanceSeconds: 12,
  blockDurationMs: 4_000,
  archiverPollIntervalMs: 500,
  inclusionDelay: { probability: 0, blocksMax: 0 },
};

const replacedWithoutBump = async (schedule: SimSchedule) => {
  const result = await runSimulation({ ...options, schedule });
  return result.failures.some((f) => f.kind === 'replacementWithoutBump') ? result : undefined;
};

it('a pool that replaces without the bump is caught, and the schedule shrinks to a send and its replacement', async () => {
  const swarm = fullSwarm();
  const property = fc.asyncProperty(
    scheduleArbitrary(swarm, options, 30),
    async (schedule) => (await replacedWithoutBump(schedule)) === undefined,
  );
  const outcome = await fc.check(property, { numRuns: 40, seed: 42 });
  expect(outcome.failed).toBe(true);
  const [shrunk] = outcome.counterexample!;
  // The minimal schedule: a tx is pooled (a plain send, a burst or a payer-draining one: which one depends on the
  // draws, hence on the fault vocabulary), then replaced at one below the least fee the bump allows.
  expect(shrunk.steps).toHaveLength(2);
  expect(['tx.send', 'tx.burst', 'tx.drain']).toContain(shrunk.steps[0]!.kind);
  expect(shrunk.steps[1]).toMatchObject({ kind: 'tx.replace', bump: 'under' });
  const result = await replacedWithoutBump(shrunk);
  expect(failureKindsOf(result!.failures)).toContain('replacementWithoutBump');
  expect(result!.failures.find((f) => f.kind === 'replacementWithoutBump')!.detail).toMatch(
    /below the \d+ a 10% bump needs/,
  );
  // The same schedule against the real rule: no replacement without the bump.
  state.broken = false;
  try {
    expect(await replacedWithoutBump(shrunk)).toBeUndefined();
  } finally {
    state.broken = true;
  }
  process.stdout.write(
    `shrunk after ${outcome.numRuns} runs and ${outcome.numShrinks} shrinks to ${JSON.stringify(shrunk)}\n`,
  );
}, 180_000); // a whole shrink: tens of simulated runs, slow when the machine is shared
