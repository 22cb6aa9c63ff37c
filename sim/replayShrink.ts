/**
 * Shrinks a failing run's schedule to a minimal one that still shows the failure: fast-check over subsequences of
 * the schedule's steps, starting from the whole schedule (which must fail), keeping only steps without which the
 * failure goes away. The network and the seed stay as they are, so every candidate is a run of the same world.
 * `npm run sim -- shrink --seed N` uses it and writes the result as a replay file.
 */
import fc from 'fast-check';
import { assert } from '../core/assert.js';
import type { SimFailureKind } from './checkers/simFailure.js';
import type { SimStep } from './faults.js';
import { runSimulation, type SimOptions, type SimResult } from './runSimulation.js';

/** Candidate runs a shrink tries at most (each is a whole simulation). */
export const SHRINK_RUNS_MAX = 2_000;

export interface ShrinkOutcome {
  readonly options: SimOptions;
  readonly result: SimResult;
  /** Candidate runs that still failed, each one a step towards the minimal schedule. */
  readonly shrinks: number;
}

/**
 * The smallest subsequence of `options.schedule` whose run still fails with `kind`. `onCandidate` hears about each
 * run (for progress). Throws when the whole schedule does not fail with `kind`.
 */
export async function shrinkSchedule(
  options: SimOptions,
  kind: SimFailureKind,
  onCandidate: (steps: number, failed: boolean) => void = () => undefined,
): Promise<ShrinkOutcome> {
  const schedule = options.schedule;
  assert(schedule !== undefined, 'a run to shrink has a schedule');
  const withSteps = (steps: readonly SimStep[]): SimOptions => ({
    ...options,
    schedule: { safetyEndMs: schedule.safetyEndMs, steps },
  });
  let runs = 0;
  const property = fc.asyncProperty(fc.subarray([...schedule.steps]), async (steps) => {
    assert(runs++ < SHRINK_RUNS_MAX, `a shrink runs at most SHRINK_RUNS_MAX (${SHRINK_RUNS_MAX}) candidates`);
    const failed = (await runSimulation(withSteps(steps))).failures.some((f) => f.kind === kind);
    onCandidate(steps.length, failed);
    return !failed;
  });
  // The whole schedule is the one example; fast-check shrinks it and tries nothing else.
  const outcome = await fc.check(property, { examples: [[[...schedule.steps]]], numRuns: 1, endOnFailure: false });
  if (!outcome.failed || outcome.counterexample === null)
    throw new Error(`the run does not fail with ${kind}: nothing to shrink`);
  const shrunk = withSteps(outcome.counterexample[0]!);
  return { options: shrunk, result: await runSimulation(shrunk), shrinks: outcome.numShrinks };
}
