/**
 * What a campaign keeps of its runs while they arrive, in memory bounded whatever the number of seeds: counts and
 * sums for the summary, the lowest failing runs in full, a few passing runs chosen in advance for the report's
 * plots, one compact table row per run for the lowest seeds, and the union of machine coverage. A nightly campaign
 * of 100,000 seeds would otherwise hold some 100 KB per run (tips, events, coverage) in the coordinator.
 *
 * Runs may arrive in any order (worker threads, queue workers); what the tally holds depends only on the set of
 * runs it was given, so a local campaign and a queued one of the same seeds write the same summary and report.
 */
import { assert } from '../../core/assert.js';
import type { Hex } from '../../spec/chain.js';
import type { SimFailure } from '../runSimulation.js';
import type { CampaignCoverageView, CampaignMachineCoverage, CampaignRun } from './campaignRun.js';

/** Failing runs kept whole, lowest seeds first: the summary's failing seeds, the report's plots, replay lines. */
export const TALLY_FAILING_RUNS_KEPT = 100;
/** Passing runs plotted for comparison: the lowest passing seed of each of this many equal parts of the range. */
export const TALLY_PASSING_RUNS_PLOTTED = 3;
/**
 * Seeds at the start of each part that may be its plotted passing run: a part whose first seeds all fail plots
 * none. Bounded so that whoever stores runs (queue workers) knows which passing runs need their tips and events.
 */
export const TALLY_PASSING_CANDIDATES_PER_PART = 8;
/** Runs listed in the report's table: the lowest seeds of the range (every kept failing run is listed too). */
export const TALLY_TABLE_ROWS_MAX = 1_000;

/** One line of the report's table of runs. */
export interface CampaignRunRow {
  readonly seed: bigint;
  readonly failureKinds: readonly SimFailure['kind'][];
  readonly followerCount: number;
  readonly slotDurationSeconds: number;
  readonly blockDurationMs: number;
  readonly inclusionDelayProbability: number;
  readonly finalTips: readonly {
    readonly name: string;
    readonly proposed: number;
    readonly checkpointedBlock: number;
  }[];
  readonly eventsRun: number;
  readonly wallMs: number;
  readonly simulatedSeconds: number;
  readonly traceHash: Hex | undefined;
}

export interface TallyRange {
  readonly from: bigint;
  readonly seeds: number;
}

interface ViewUnion {
  readonly hit: Set<string>;
  readonly all: Set<string>;
}

interface MachineUnion {
  readonly transitions: ViewUnion;
  readonly events: ViewUnion;
  readonly guards: ViewUnion;
}

const bySeed = (a: { seed: bigint }, b: { seed: bigint }): number => (a.seed < b.seed ? -1 : a.seed > b.seed ? 1 : 0);

export function rowOf(run: CampaignRun): CampaignRunRow {
  const o = run.options;
  return {
    seed: run.seed,
    failureKinds: [...new Set(run.failures.map((f) => f.kind))],
    followerCount: o.followerCount,
    slotDurationSeconds: o.slotDurationSeconds,
    blockDurationMs: o.blockDurationMs,
    inclusionDelayProbability: o.inclusionDelay.probability,
    finalTips: run.nodes.map((n) => ({ name: n.name, proposed: n.proposed, checkpointedBlock: n.checkpointedBlock })),
    eventsRun: run.eventsRun,
    wallMs: run.wallMs,
    simulatedSeconds: run.simulatedSeconds,
    traceHash: run.traceHash,
  };
}

export class CampaignTally {
  runs = 0;
  failed = 0;
  simulatedSeconds = 0;
  private threadMs = 0;
  private slowest: { seed: bigint; wallMs: number } | undefined;
  private readonly kinds = new Map<string, number>();
  /** The lowest failing runs, sorted by seed, at most TALLY_FAILING_RUNS_KEPT. */
  private readonly failing: CampaignRun[] = [];
  /** Per part of the seed range, its lowest passing run. */
  private readonly passingPicks: (CampaignRun | undefined)[];
  private readonly rows = new Map<bigint, CampaignRunRow>();
  private readonly machines = new Map<string, MachineUnion>();
  private coverageSeen = false;

  constructor(private readonly range: TallyRange) {
    assert(Number.isSafeInteger(range.seeds) && range.seeds >= 0, `seed count ${range.seeds} must be an integer >= 0`);
    this.passingPicks = new Array<CampaignRun | undefined>(Math.min(TALLY_PASSING_RUNS_PLOTTED, range.seeds));
  }

  add(run: CampaignRun): void {
    this.runs++;
    this.simulatedSeconds += run.simulatedSeconds;
    this.threadMs += run.wallMs;
    const s = this.slowest;
    if (s === undefined || run.wallMs > s.wallMs || (run.wallMs === s.wallMs && run.seed < s.seed))
      this.slowest = { seed: run.seed, wallMs: run.wallMs };
    this.addCoverage(run.coverage);
    if (run.failures.length > 0) this.addFailing(run);
    else this.addPassing(run);
    if (run.seed < this.range.from + BigInt(TALLY_TABLE_ROWS_MAX)) this.rows.set(run.seed, rowOf(run));
  }

  private addFailing(run: CampaignRun): void {
    this.failed++;
    for (const kind of new Set(run.failures.map((f) => f.kind))) this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
    const full = this.failing.length >= TALLY_FAILING_RUNS_KEPT;
    if (full && run.seed > this.failing[this.failing.length - 1]!.seed) return;
    this.failing.push(run);
    this.failing.sort(bySeed);
    if (this.failing.length > TALLY_FAILING_RUNS_KEPT) this.failing.pop();
  }

  private addPassing(run: CampaignRun): void {
    const part = plotCandidatePart(this.range, run.seed);
    if (part === undefined) return;
    const held = this.passingPicks[part];
    if (held === undefined || run.seed < held.seed) this.passingPicks[part] = run;
  }

  private addCoverage(coverage: readonly CampaignMachineCoverage[] | undefined): void {
    if (coverage === undefined) return;
    this.coverageSeen = true;
    const empty = (): ViewUnion => ({ hit: new Set<string>(), all: new Set<string>() });
    for (const machine of coverage) {
      const entry = this.machines.get(machine.machine) ?? { transitions: empty(), events: empty(), guards: empty() };
      this.machines.set(machine.machine, entry);
      addView(entry.transitions, machine);
      addView(entry.events, machine.events);
      addView(entry.guards, machine.guards);
    }
  }

  /** Checker kinds with how many runs reported each at least once. */
  failuresByKind(): Record<string, number> {
    return Object.fromEntries(this.kinds);
  }

  /** The lowest failing runs, whole, sorted by seed (at most TALLY_FAILING_RUNS_KEPT). */
  lowestFailing(): readonly CampaignRun[] {
    return this.failing;
  }

  /** The passing runs picked for plots, by seed. */
  passingPicked(): CampaignRun[] {
    return this.passingPicks.filter((r): r is CampaignRun => r !== undefined);
  }

  /** Table rows, sorted by seed: the lowest TALLY_TABLE_ROWS_MAX seeds' runs and every kept failing run. */
  tableRows(): CampaignRunRow[] {
    const rows = new Map(this.rows);
    for (const run of this.failing) if (!rows.has(run.seed)) rows.set(run.seed, rowOf(run));
    return [...rows.values()].sort(bySeed);
  }

  threadSeconds(): number {
    return this.threadMs / 1000;
  }

  slowestRun(): { readonly seed: bigint; readonly wallMs: number } | undefined {
    return this.slowest;
  }

  /** Union over all runs that carried coverage, or undefined when none did. */
  coverage(): CampaignMachineCoverage[] | undefined {
    if (!this.coverageSeen) return undefined;
    return [...this.machines].map(([machine, { transitions, events, guards }]) => ({
      machine,
      ...viewOfUnion(transitions),
      ...(events.all.size > 0 ? { events: viewOfUnion(events) } : {}),
      ...(guards.all.size > 0 ? { guards: viewOfUnion(guards) } : {}),
    }));
  }
}

/**
 * The part of the range whose plotted passing run `seed` may be (parts start at from + floor(i * seeds / parts);
 * the first TALLY_PASSING_CANDIDATES_PER_PART seeds of each are candidates), or undefined.
 */
export function plotCandidatePart(range: TallyRange, seed: bigint): number | undefined {
  const parts = Math.min(TALLY_PASSING_RUNS_PLOTTED, range.seeds);
  const offset = Number(seed - range.from);
  if (parts === 0 || offset < 0 || offset >= range.seeds) return undefined;
  for (let i = parts - 1; i >= 0; i--) {
    const start = Math.floor((i * range.seeds) / parts);
    if (offset >= start) return offset - start < TALLY_PASSING_CANDIDATES_PER_PART ? i : undefined;
  }
  return undefined;
}

/**
 * A run as a campaign needs it stored: whole when it failed or may be plotted, else without its tips and events
 * (plots only), which are most of a passing run's size.
 */
export function runAsStored(range: TallyRange, run: CampaignRun): CampaignRun {
  if (run.failures.length > 0 || plotCandidatePart(range, run.seed) !== undefined) return run;
  return { ...run, tips: [], events: [] };
}

function addView(union: ViewUnion, view: CampaignCoverageView | undefined): void {
  if (view === undefined) return;
  for (const key of view.hit) {
    union.hit.add(key);
    union.all.add(key);
  }
  for (const key of view.missed) union.all.add(key);
}

function viewOfUnion(union: ViewUnion): CampaignCoverageView {
  return { hit: [...union.hit].sort(), missed: [...union.all].filter((k) => !union.hit.has(k)).sort() };
}

/** A tally of `runs` over the range they cover (for callers holding every run, such as tests). */
export function tallyOf(runs: readonly CampaignRun[], range?: TallyRange): CampaignTally {
  const seeds = runs.map((r) => r.seed);
  const from = seeds.reduce((low, s) => (s < low ? s : low), seeds[0] ?? 1n);
  const to = seeds.reduce((high, s) => (s > high ? s : high), seeds[0] ?? 0n);
  const tally = new CampaignTally(range ?? { from, seeds: runs.length === 0 ? 0 : Number(to - from) + 1 });
  for (const run of runs) tally.add(run);
  return tally;
}
