import { describe, expect, it } from 'vitest';
import { crashedRun, type CampaignRun } from './campaignRun.js';
import {
  mergeCoverage,
  renderCampaignReport,
  REPORT_PASSING_RUNS_PLOTTED,
  selectRunsToPlot,
} from './campaignReport.js';
import { summarizeCampaign } from './campaignSummary.js';
import { tallyOf } from './campaignTally.js';

function run(seed: bigint, failed: boolean, extra: Partial<CampaignRun> = {}): CampaignRun {
  return {
    ...crashedRun(seed, 120, 'unused', 50),
    traceHash: `0x${'ab'.repeat(32)}`,
    failures: failed ? [{ kind: 'nodesDiverged', node: 'follower-1', detail: 'block 3: <a> vs <b>' }] : [],
    nodes: [
      {
        name: 'sequencer-0',
        role: 'sequencer',
        proposed: 9,
        checkpointedBlock: 8,
        checkpoint: 2,
        machines: { archiver: 'Idle', sequencer: 'Idle', chainTips: 'Synced' },
      },
    ],
    tips: [
      {
        node: 'sequencer-0',
        samples: [
          [20_000, 1, 0, 0, 0],
          [40_000, 5, 4, 0, 0],
          [90_000, 9, 8, 4, 4],
        ],
      },
    ],
    ...extra,
  };
}

function render(runs: CampaignRun[]): string {
  const summary = summarizeCampaign(
    { from: 1n, seeds: runs.length, simulatedSecondsPerRun: 120, workers: 2, commit: 'abc', worktreeDirty: true },
    runs,
    1_000,
  );
  return renderCampaignReport({ title: 'test campaign', summary, tally: tallyOf(runs), generatedAt: 'now' });
}

describe('campaign report', () => {
  it('plots every failing run and a few passing ones', () => {
    const runs = Array.from({ length: 20 }, (_, i) => run(BigInt(i + 1), i === 4 || i === 11));
    const selected = selectRunsToPlot(runs).map((r) => r.seed);
    expect(selected.slice(0, 2)).toEqual([5n, 12n]);
    expect(selected).toHaveLength(2 + REPORT_PASSING_RUNS_PLOTTED);
  });

  it('is one self-contained page: charts, fault timeline, escaped details, a row per run', () => {
    const events = [
      { atMs: 30_000, kind: 'l1.reorg', detail: 'depth 2' },
      { atMs: 45_000, kind: 'node.crash', node: 'follower-1', detail: 'batch <lost>' },
    ];
    const html = render([run(1n, false), run(2n, true, { events }), run(3n, false)]);
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(/i);
    expect(html.match(/https?:\/\/[^"]*/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg') ?? []).toEqual([]);
    expect(html).toContain('id="seed-2"');
    expect(html).toContain('npm run sim -- --seed 2 --simulated-seconds 120');
    expect(html).toContain('aria-label="event timeline"');
    expect(html).toContain('batch &lt;lost&gt;');
    expect(html).not.toContain('<a> vs <b>');
    expect(html).toContain('not recorded');
    expect(html.match(/<tr class="failed">/g)).toHaveLength(1);
    expect(html.match(/aria-label="tips of sequencer-0"/g)).toHaveLength(3);
  });

  it('merges coverage over runs: a transition counts as taken when any run took it', () => {
    const a = run(1n, false, { coverage: [{ machine: 'archiver', hit: ['x'], missed: ['y', 'z'] }] });
    const b = run(2n, false, { coverage: [{ machine: 'archiver', hit: ['y'], missed: ['x', 'z'] }] });
    expect(mergeCoverage([a, b, run(3n, false)])).toEqual([{ machine: 'archiver', hit: ['x', 'y'], missed: ['z'] }]);
    expect(mergeCoverage([run(3n, false)])).toBeUndefined();
    const html = render([a, b]);
    expect(html).toContain('2 / 3 (67%)');
    expect(html).not.toContain('not recorded');
  });

  it('merges the events received and the guard outcomes seen the same way', () => {
    const guards = (hit: string[], missed: string[]) => ({ hit, missed });
    const a = run(1n, false, {
      coverage: [
        {
          machine: 'prover',
          hit: [],
          missed: ['t'],
          events: guards(['e1'], ['e2']),
          guards: guards([], ['g held', 'g failed']),
        },
      ],
    });
    const b = run(2n, false, {
      coverage: [
        {
          machine: 'prover',
          hit: ['t'],
          missed: [],
          events: guards([], ['e1', 'e2']),
          guards: guards(['g failed'], ['g held']),
        },
      ],
    });
    expect(mergeCoverage([a, b])).toEqual([
      {
        machine: 'prover',
        hit: ['t'],
        missed: [],
        events: { hit: ['e1'], missed: ['e2'] },
        guards: { hit: ['g failed'], missed: ['g held'] },
      },
    ]);
    const html = render([a, b]);
    expect(html).toContain('1 never received');
    expect(html).toContain('1 never seen');
  });
});
