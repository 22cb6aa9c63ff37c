/**
 * Schedules of faults and workload, two ways from one table of field ranges (faults.ts, `stepFieldRanges`):
 * - `drawSchedule`: from a seed's PRNG stream, for `npm run sim -- --seed` and campaigns (no fast-check in the loop,
 *   so a seed's schedule depends on this code only);
 * - `scheduleArbitrary`: a fast-check arbitrary, so that `fc.assert` over schedules shrinks a failing one to a
 *   minimal schedule (fewer steps, earlier times, smaller fields, the first node, the first choice).
 *
 * A run's time splits in two: the safety phase, where steps happen, and the liveness phase after it, long enough
 * for a healed network to converge (checkers/liveness.ts). A run too short for both has no steps.
 */
import fc from 'fast-check';
import { assert } from '../core/assert.js';
import { livenessBoundMs } from './checkers/liveness.js';
import {
  makeStep,
  SIM_SCHEDULE_STEPS_MAX,
  sortedSteps,
  stepFieldRanges,
  type SimFieldRange,
  type SimSchedule,
  type SimStep,
  type SimStepFieldRanges,
  type SimStepKind,
} from './faults.js';
import type { Prng } from './prng.js';
import { PROVER_NAME, SEQUENCER_NAME, type SimOptions } from './runSimulation.js';
import type { SimSwarm } from './swarm.js';

/** Steps happen on a grid of this many ms (schedules read better, and shrinking has fewer times to try). */
export const SCHEDULE_TIME_GRID_MS = 100;
/** Steps a fast-check schedule holds at most. */
export const SCHEDULE_ARBITRARY_STEPS_MAX = 40;

export type ScheduleOptions = Pick<
  SimOptions,
  | 'simulatedSeconds'
  | 'followerCount'
  | 'proverNode'
  | 'slotDurationSeconds'
  | 'archiverPollIntervalMs'
  | 'inclusionDelay'
>;

/** The nodes a step may name: the sequencer, the followers, and the prover node when there is one. */
export function scheduleNodeNames(options: Pick<SimOptions, 'followerCount' | 'proverNode'>): string[] {
  return [
    SEQUENCER_NAME,
    ...Array.from({ length: options.followerCount }, (_, i) => `follower-${i + 1}`),
    ...(options.proverNode === true ? [PROVER_NAME] : []),
  ];
}

/** When the safety phase ends: the run's end minus the liveness bound (0 when the run is shorter than the bound). */
export function safetyEndMs(options: ScheduleOptions): number {
  const endMs = options.simulatedSeconds * 1000;
  const safetyMs = endMs - livenessBoundMs(options);
  return safetyMs <= 0 ? 0 : Math.floor(safetyMs / SCHEDULE_TIME_GRID_MS) * SCHEDULE_TIME_GRID_MS;
}

export function scheduleRanges(
  swarm: SimSwarm,
  options: Pick<SimOptions, 'followerCount' | 'proverNode'>,
): SimStepFieldRanges {
  return stepFieldRanges({ ...swarm.limits, nodeNames: scheduleNodeNames(options) });
}

function drawField(prng: Prng, range: SimFieldRange): number | string | boolean {
  return 'int' in range ? prng.int(range.int[0], range.int[1]) : prng.pick(range.oneOf);
}

/** A schedule from a seed's stream: `stepsPerMinute` steps a minute on average, kinds uniform among the enabled. */
export function drawSchedule(prng: Prng, swarm: SimSwarm, options: ScheduleOptions): SimSchedule {
  const endMs = safetyEndMs(options);
  if (endMs === 0 || swarm.kinds.length === 0) return { safetyEndMs: endMs, steps: [] };
  const ranges = scheduleRanges(swarm, options);
  const count = Math.min(SIM_SCHEDULE_STEPS_MAX, Math.round((swarm.stepsPerMinute * endMs) / 60_000));
  const steps: SimStep[] = [];
  for (let i = 0; i < count; i++) {
    const kind = prng.pick(swarm.kinds);
    const atMs = prng.int(0, endMs / SCHEDULE_TIME_GRID_MS - 1) * SCHEDULE_TIME_GRID_MS;
    const fields: Record<string, unknown> = {};
    for (const [name, range] of Object.entries(ranges[kind] as Readonly<Record<string, SimFieldRange>>))
      fields[name] = drawField(prng, range);
    steps.push(makeStep(kind, atMs, fields, ranges));
  }
  return { safetyEndMs: endMs, steps: sortedSteps(steps) };
}

function fieldArbitrary(range: SimFieldRange): fc.Arbitrary<number | string | boolean> {
  return 'int' in range ? fc.integer({ min: range.int[0], max: range.int[1] }) : fc.constantFrom(...range.oneOf);
}

function stepArbitrary(kind: SimStepKind, ranges: SimStepFieldRanges, endMs: number): fc.Arbitrary<SimStep> {
  const fields: Record<string, fc.Arbitrary<number | string | boolean>> = {};
  for (const [name, range] of Object.entries(ranges[kind] as Readonly<Record<string, SimFieldRange>>))
    fields[name] = fieldArbitrary(range);
  const time = fc.integer({ min: 0, max: endMs / SCHEDULE_TIME_GRID_MS - 1 }).map((t) => t * SCHEDULE_TIME_GRID_MS);
  return fc.tuple(time, fc.record(fields)).map(([atMs, values]) => makeStep(kind, atMs, values, ranges));
}

/**
 * Schedules of up to `stepsMax` steps of the swarm's kinds, for fast-check; shrinks towards fewer and simpler steps.
 * `size` is fast-check's: how long generated schedules tend to be ('max': any length up to `stepsMax` alike).
 */
export function scheduleArbitrary(
  swarm: SimSwarm,
  options: ScheduleOptions,
  stepsMax = SCHEDULE_ARBITRARY_STEPS_MAX,
  size: fc.SizeForArbitrary = 'max',
): fc.Arbitrary<SimSchedule> {
  const endMs = safetyEndMs(options);
  assert(
    endMs > 0,
    `a run of ${options.simulatedSeconds} s leaves no time for a safety phase before its liveness phase`,
  );
  assert(swarm.kinds.length > 0, 'a schedule arbitrary needs at least one step kind');
  const ranges = scheduleRanges(swarm, options);
  const step = fc.oneof(...swarm.kinds.map((kind) => stepArbitrary(kind, ranges, endMs)));
  return fc
    .array(step, { maxLength: Math.min(stepsMax, SIM_SCHEDULE_STEPS_MAX), size })
    .map((steps) => ({ safetyEndMs: endMs, steps: sortedSteps(steps) }));
}
