/**
 * Replay files: one run, written down so that it runs again exactly, whatever later changes to how options and
 * schedules are drawn from a seed. A file holds the full options (the seed, which still drives every PRNG stream of
 * the run, the network, and the schedule of faults and workload, shrunk or not) and the failure kinds the run is
 * expected to show (none, for a fixed bug kept as a regression).
 *
 * Checked-in replays live in test/regressions/; test/simulator/regressions.test.ts replays every one and
 * `npm run sim -- replay <file>` replays one. This module only turns text into a run and back: the callers read and
 * write the files.
 */
import { SIM_FAILURE_KINDS_ALL, type SimFailureKind } from './checkers/simFailure.js';
import { parseStep, sortedSteps, stepFieldRanges, type SimSchedule } from './faults.js';
import type { SimOptions } from './runSimulation.js';
import { scheduleNodeNames } from './schedule.js';
import { fullSwarm } from './swarm.js';

export const REPLAY_FORMAT = 'svc-sim-replay/1';

export interface SimReplay {
  readonly format: typeof REPLAY_FORMAT;
  /** What the run shows, in a sentence (where it came from, what it once broke). */
  readonly note: string;
  readonly options: SimOptions;
  readonly expectedFailureKinds: readonly SimFailureKind[];
}

const NUMERIC_OPTIONS = [
  'simulatedSeconds',
  'followerCount',
  'slotDurationSeconds',
  'blockDurationMs',
  'publishingAllowanceSeconds',
  'archiverPollIntervalMs',
  'sequencerPollIntervalMs',
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The replay's JSON text (bigints as decimal strings; stable key order as built). */
export function serializeReplay(replay: SimReplay): string {
  return `${JSON.stringify(replay, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`;
}

function parseSchedule(
  value: unknown,
  nodes: { readonly followerCount: number; readonly proverNode?: boolean },
): SimSchedule {
  if (!isRecord(value) || !Number.isSafeInteger(value.safetyEndMs) || !Array.isArray(value.steps))
    throw new Error('options.schedule must be { safetyEndMs, steps: [...] }');
  // Replays are checked against the widest limits: a schedule drawn under any swarm fits them.
  const ranges = stepFieldRanges({ ...fullSwarm().limits, nodeNames: scheduleNodeNames(nodes) });
  return {
    safetyEndMs: value.safetyEndMs as number,
    steps: sortedSteps(value.steps.map((step: unknown) => parseStep(step, ranges))),
  };
}

function parseOptions(value: unknown): SimOptions {
  if (!isRecord(value)) throw new Error('options must be an object');
  if (typeof value.seed !== 'string' || !/^\d+$/.test(value.seed) || BigInt(value.seed) >= 2n ** 64n)
    throw new Error('options.seed must be a decimal string below 2^64');
  for (const name of NUMERIC_OPTIONS) {
    if (!Number.isSafeInteger(value[name]) || (value[name] as number) < 0)
      throw new Error(`options.${name} must be a non-negative integer`);
  }
  const delay = value.inclusionDelay;
  if (!isRecord(delay) || typeof delay.probability !== 'number' || !Number.isSafeInteger(delay.blocksMax))
    throw new Error('options.inclusionDelay must be { probability, blocksMax }');
  if (
    value.txPoolCapacity !== undefined &&
    !(Number.isSafeInteger(value.txPoolCapacity) && (value.txPoolCapacity as number) > 0)
  )
    throw new Error('options.txPoolCapacity must be a positive integer');
  if (value.proverNode !== undefined && typeof value.proverNode !== 'boolean')
    throw new Error('options.proverNode must be a boolean');
  const nodes = { followerCount: value.followerCount as number, proverNode: value.proverNode === true };
  const schedule = value.schedule === undefined ? undefined : parseSchedule(value.schedule, nodes);
  // Options this module does not know (added by later code) pass through as written.
  return {
    ...value,
    seed: BigInt(value.seed),
    ...(schedule !== undefined ? { schedule } : {}),
  } as unknown as SimOptions;
}

/** Reads a replay file's text; throws an Error saying what is wrong with it. */
export function parseReplay(text: string): SimReplay {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || value.format !== REPLAY_FORMAT)
    throw new Error(`a replay file has "format": "${REPLAY_FORMAT}"`);
  if (typeof value.note !== 'string') throw new Error('a replay file has a "note" string');
  const expected = value.expectedFailureKinds ?? [];
  if (
    !Array.isArray(expected) ||
    !expected.every((kind) => (SIM_FAILURE_KINDS_ALL as readonly unknown[]).includes(kind))
  ) {
    throw new Error(`expectedFailureKinds must list kinds of ${SIM_FAILURE_KINDS_ALL.join(', ')}`);
  }
  return {
    format: REPLAY_FORMAT,
    note: value.note,
    options: parseOptions(value.options),
    expectedFailureKinds: expected as SimFailureKind[],
  };
}

/** A replay of a run with these options. */
export function replayOf(
  options: SimOptions,
  note: string,
  expectedFailureKinds: readonly SimFailureKind[] = [],
): SimReplay {
  return { format: REPLAY_FORMAT, note, options, expectedFailureKinds };
}

/** The distinct failure kinds of a run, in first-seen order (what a replay compares). */
export function failureKindsOf(failures: readonly { readonly kind: SimFailureKind }[]): SimFailureKind[] {
  return [...new Set(failures.map((f) => f.kind))];
}
