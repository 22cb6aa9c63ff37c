import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crashedRun, type CampaignRun } from './campaignRun.js';
import { summarizeTally, type CampaignContext } from './campaignSummary.js';
import {
  CampaignTally,
  plotCandidatePart,
  runAsStored,
  TALLY_FAILING_RUNS_KEPT,
  TALLY_PASSING_CANDIDATES_PER_PART,
  TALLY_TABLE_ROWS_MAX,
  type TallyRange,
} from './campaignTally.js';

const FROM = 1n;

/** A small run: failing or not, with a wall time and a coverage entry drawn from its seed. */
function run(seed: bigint, failed: boolean, wallMs = 10, hit: readonly string[] = []): CampaignRun {
  const base = crashedRun(seed, 60, 'unused', wallMs);
  return {
    ...base,
    traceHash: `0x${seed.toString(16).padStart(64, '0')}`,
    failures: failed ? [{ kind: 'nodesDiverged', node: 'n', detail: `seed ${seed}` }] : [],
    tips: [{ node: 'sequencer-0', samples: [[1_000, 1, 0, 0, 0]] }],
    events: [{ atMs: 5, kind: 'l1.reorg', detail: 'depth 1' }],
    coverage: [{ machine: 'm', hit: [...hit], missed: ['a', 'b', 'c'].filter((k) => !hit.includes(k)) }],
  };
}

const context = (seeds: number): CampaignContext => ({
  from: FROM,
  seeds,
  simulatedSecondsPerRun: 60,
  workers: 2,
  commit: 'abc',
  worktreeDirty: false,
});

function tallied(range: TallyRange, runs: readonly CampaignRun[]): CampaignTally {
  const tally = new CampaignTally(range);
  for (const r of runs) tally.add(r);
  return tally;
}

/** What a tally shows: summary, plotted seeds, table seeds, coverage. */
function view(tally: CampaignTally, seeds: number) {
  return {
    summary: summarizeTally(context(seeds), tally, 1_000),
    failing: tally.lowestFailing().map((r) => r.seed),
    passing: tally.passingPicked().map((r) => r.seed),
    rows: tally.tableRows().map((r) => r.seed),
    coverage: tally.coverage(),
  };
}

const campaign = fc
  .array(fc.record({ failed: fc.boolean(), wallMs: fc.nat(50), hit: fc.subarray(['a', 'b', 'c']) }), {
    minLength: 1,
    maxLength: 60,
  })
  .map((draws) => draws.map((d, i) => run(FROM + BigInt(i), d.failed, d.wallMs, d.hit)));

describe('campaign tally', () => {
  it('shows the same whatever order the runs arrive in', () => {
    fc.assert(
      fc.property(
        campaign.chain((runs) => fc.tuple(fc.constant(runs), fc.shuffledSubarray(runs, { minLength: runs.length }))),
        ([runs, shuffled]) => {
          const range = { from: FROM, seeds: runs.length };
          expect(view(tallied(range, shuffled), runs.length)).toEqual(view(tallied(range, runs), runs.length));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('agrees with the definitions over every run: counts, lowest failing seeds, slowest run, coverage union', () => {
    fc.assert(
      fc.property(campaign, (runs) => {
        const tally = tallied({ from: FROM, seeds: runs.length }, runs);
        const failing = runs.filter((r) => r.failures.length > 0);
        const summary = summarizeTally(context(runs.length), tally, 1_000);
        expect(summary).toMatchObject({ runs: runs.length, failed: failing.length });
        expect(summary.failingSeeds).toEqual(failing.map((r) => r.seed.toString()));
        const slowest = runs.reduce((w, r) => (r.wallMs > w.wallMs ? r : w));
        expect(summary.slowestRun?.seed).toBe(slowest.seed.toString());
        const hit = new Set(runs.flatMap((r) => r.coverage![0]!.hit));
        expect(tally.coverage()).toEqual([
          { machine: 'm', hit: [...hit].sort(), missed: ['a', 'b', 'c'].filter((k) => !hit.has(k)) },
        ]);
        for (const picked of tally.passingPicked()) expect(picked.failures).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('holds a bounded amount of a campaign of 100,000 seeds', () => {
    const seeds = 100_000;
    const tally = new CampaignTally({ from: FROM, seeds });
    const [passing, failing] = [run(FROM, false), run(FROM, true)];
    for (let i = seeds - 1; i >= 0; i--) tally.add({ ...(i % 7 === 3 ? failing : passing), seed: FROM + BigInt(i) });
    expect(tally.runs).toBe(seeds);
    expect(tally.lowestFailing()).toHaveLength(TALLY_FAILING_RUNS_KEPT);
    expect(tally.lowestFailing()[0]!.seed).toBe(4n);
    expect(tally.tableRows().length).toBeLessThanOrEqual(TALLY_TABLE_ROWS_MAX + TALLY_FAILING_RUNS_KEPT);
    expect(tally.passingPicked().map((r) => r.seed)).toEqual([1n, 33_334n, 66_667n]);
  });

  it('stores passing runs that cannot be plotted without their tips and events, and every other run whole', () => {
    const range = { from: FROM, seeds: 300 };
    expect(plotCandidatePart(range, 1n)).toBe(0);
    expect(plotCandidatePart(range, 101n)).toBe(1);
    expect(plotCandidatePart(range, 101n + BigInt(TALLY_PASSING_CANDIDATES_PER_PART))).toBeUndefined();
    expect(plotCandidatePart(range, 301n)).toBeUndefined();
    const far = run(150n, false);
    expect(runAsStored(range, far)).toMatchObject({ tips: [], events: [], traceHash: far.traceHash });
    expect(runAsStored(range, run(150n, true))).toEqual(run(150n, true));
    expect(runAsStored(range, run(201n, false))).toEqual(run(201n, false));
  });

  it('plots no passing run for a part whose candidate seeds all failed', () => {
    const runs = Array.from({ length: 30 }, (_, i) => run(FROM + BigInt(i), i < TALLY_PASSING_CANDIDATES_PER_PART));
    const tally = tallied({ from: FROM, seeds: 30 }, runs);
    expect(tally.passingPicked().map((r) => r.seed)).toEqual([11n, 21n]);
  });
});
