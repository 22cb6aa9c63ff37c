/**
 * The campaign's HTML report: one self-contained page (inline CSS and SVG, no script, nothing fetched) with the
 * summary, transition coverage, plots of the selected runs (every failing one up to a bound, a few passing ones)
 * and a table of all runs.
 */
import {
  replayCommand,
  type CampaignCoverageView,
  type CampaignMachineCoverage,
  type CampaignRun,
} from './campaignRun.js';
import { tallyOf, TALLY_PASSING_RUNS_PLOTTED, type CampaignRunRow, type CampaignTally } from './campaignTally.js';
import type { CampaignSummary } from './campaignSummary.js';
import { escapeHtml, eventTimelineSvg, tipChartSvg, tipLegendHtml } from './reportCharts.js';

/** Failing runs plotted, lowest seeds first (the table lists more). */
export const REPORT_FAILING_RUNS_PLOTTED_MAX = 40;
/** Passing runs plotted for comparison: the lowest passing seed of each equal part of the seed range. */
export const REPORT_PASSING_RUNS_PLOTTED = TALLY_PASSING_RUNS_PLOTTED;
/** Events listed under a run's timeline (the timeline itself marks every kept event). */
const REPORT_EVENTS_LISTED_MAX = 100;

export interface CampaignReportInput {
  readonly title: string;
  readonly summary: CampaignSummary;
  /** What the campaign kept of its runs. */
  readonly tally: CampaignTally;
  /** When the report was written (the caller's wall clock, as text). */
  readonly generatedAt: string;
}

/** The lowest failing runs up to the bound, then the passing runs picked over the seed range. */
export function selectPlotted(tally: CampaignTally): CampaignRun[] {
  return [...tally.lowestFailing().slice(0, REPORT_FAILING_RUNS_PLOTTED_MAX), ...tally.passingPicked()];
}

/** `selectPlotted` for a campaign whose runs are all at hand. */
export function selectRunsToPlot(runs: readonly CampaignRun[]): CampaignRun[] {
  return selectPlotted(tallyOf(runs));
}

/**
 * Union over all runs that recorded coverage: per machine, the transitions some run took and those no run took, and
 * likewise the events received and the guard outcomes seen.
 */
export function mergeCoverage(runs: readonly CampaignRun[]): CampaignMachineCoverage[] | undefined {
  return tallyOf(runs).coverage();
}

const STYLE = `
body { font: 13px/1.4 system-ui, sans-serif; margin: 20px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; } h3 { font-size: 14px; margin: 18px 0 6px; }
table { border-collapse: collapse; } td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed td { background: #fdecea; } .ok { color: #2a7d2a; } .bad { color: #b3261e; font-weight: 600; }
code { font: 12px ui-monospace, monospace; background: #f4f4f4; padding: 1px 3px; overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 8px; } .chart text { font: 10px system-ui, sans-serif; fill: #555; }
.chart .label { font-weight: 600; fill: #222; } .chart .unit { fill: #888; } .chart .grid { stroke: #eee; }
td code { white-space: nowrap; overflow-wrap: normal; }
.legend { margin-right: 12px; white-space: nowrap; } .run { border-top: 1px solid #ccc; padding-top: 6px; }
.muted { color: #777; }`;

function failureText(run: CampaignRun): string {
  return run.failures.map((f) => `${f.kind}${'node' in f ? ` (${f.node})` : ''}: ${f.detail}`).join('; ');
}

function stringifyOptions(run: CampaignRun): string {
  return JSON.stringify(run.options, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

function summaryHtml(summary: CampaignSummary): string {
  const kinds = Object.entries(summary.failuresByKind);
  const rows: [string, string][] = [
    ['seeds', `${summary.from} .. ${BigInt(summary.from) + BigInt(Math.max(0, summary.seeds - 1))} (${summary.seeds})`],
    ['simulated time per run', `${summary.simulatedSecondsPerRun} s`],
    [
      'runs',
      `${summary.runs}: <span class="ok">${summary.passed} passed</span>, <span class="${summary.failed > 0 ? 'bad' : 'ok'}">${summary.failed} failed</span>`,
    ],
    ['failures by checker', kinds.length === 0 ? 'none' : kinds.map(([k, n]) => `${escapeHtml(k)}: ${n}`).join(', ')],
    [
      'throughput',
      `${summary.simulatedSecondsPerWallSecond}x real time over ${summary.workers} workers (${summary.simulatedSecondsPerThreadSecond}x per thread)`,
    ],
    ['wall time', `${summary.wallSeconds.toFixed(1)} s`],
    ['commit', `<code>${escapeHtml(summary.commit)}</code>${summary.worktreeDirty ? ' with uncommitted changes' : ''}`],
  ];
  return `<table>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>`;
}

function coverageCells(view: CampaignCoverageView | undefined, never: string): string {
  if (view === undefined) return '<td class="num">-</td><td></td>';
  const total = view.hit.length + view.missed.length;
  const percent = total > 0 ? ` (${((100 * view.hit.length) / total).toFixed(0)}%)` : '';
  const missed =
    view.missed.length === 0
      ? 'none'
      : `<details><summary>${view.missed.length} ${never}</summary>${view.missed.map((k) => `<code>${escapeHtml(k)}</code>`).join('<br>')}</details>`;
  return `<td class="num">${view.hit.length} / ${total}${percent}</td><td>${missed}</td>`;
}

function coverageHtml(tally: CampaignTally): string {
  const coverage = tally.coverage();
  if (coverage === undefined) return '<p class="muted">Machine coverage: not recorded (no run result carried it).</p>';
  const rows = coverage.map(
    (m) =>
      `<tr><td>${escapeHtml(m.machine)}</td>${coverageCells(m, 'never taken')}${coverageCells(m.events, 'never received')}${coverageCells(m.guards, 'never seen')}</tr>`,
  );
  const head =
    '<tr><th>machine</th><th>transitions taken</th><th>never taken in any run</th><th>events received</th><th>never received</th><th>guard outcomes seen (held / failed)</th><th>never seen</th></tr>';
  return `<table>${head}${rows.join('')}</table>`;
}

function eventsHtml(run: CampaignRun, endMs: number): string {
  if (run.events.length === 0) return '<p class="muted">Fault timeline: no events recorded in this run.</p>';
  const listed = run.events
    .slice(0, REPORT_EVENTS_LISTED_MAX)
    .map(
      (e) =>
        `<tr><td class="num">${(e.atMs / 1000).toFixed(3)}</td><td>${escapeHtml(e.kind)}</td><td>${escapeHtml(e.node ?? '')}</td><td>${escapeHtml(e.detail)}</td></tr>`,
    );
  const more =
    run.events.length > listed.length
      ? `<p class="muted">${run.events.length - listed.length} more not listed</p>`
      : '';
  const heading =
    '<p class="muted">Timeline: faults injected and what the nodes observed (hover a mark for its detail).</p>';
  return `${heading}${eventTimelineSvg(run.events, endMs)}<details><summary>${run.events.length} events</summary><table><tr><th>s</th><th>kind</th><th>node</th><th>detail</th></tr>${listed.join('')}</table>${more}</details>`;
}

function runSectionHtml(run: CampaignRun): string {
  const endMs = run.simulatedSeconds * 1000;
  const yMax = Math.max(1, ...run.tips.flatMap((s) => s.samples.map((sample) => sample[1])));
  const status =
    run.failures.length === 0
      ? '<span class="ok">passed</span>'
      : `<span class="bad">${escapeHtml(failureText(run))}</span>`;
  const charts =
    run.tips.length === 0
      ? '<p class="muted">no tips recorded</p>'
      : `<div class="charts">${run.tips.map((s) => tipChartSvg(s, endMs, yMax)).join('')}</div>`;
  return [
    `<div class="run" id="seed-${run.seed}"><h3>seed ${run.seed}: ${status}</h3>`,
    `<p>replay: <code>${escapeHtml(replayCommand(run.seed, run.simulatedSeconds))}</code><br>`,
    `trace hash: <code>${run.traceHash ?? 'none'}</code></p>`,
    `<details><summary>options and schedule</summary><code>${escapeHtml(stringifyOptions(run))}</code></details>`,
    charts,
    eventsHtml(run, endMs),
    '</div>',
  ].join('');
}

function finalTips(row: CampaignRunRow): string {
  return row.finalTips.map((n) => `${escapeHtml(n.name)} ${n.proposed}/${n.checkpointedBlock}`).join('<br>');
}

function runRowHtml(row: CampaignRunRow, plotted: ReadonlySet<bigint>): string {
  const seed = plotted.has(row.seed) ? `<a href="#seed-${row.seed}">${row.seed}</a>` : `${row.seed}`;
  const result =
    row.failureKinds.length === 0
      ? '<span class="ok">ok</span>'
      : `<span class="bad">${escapeHtml(row.failureKinds.join(', '))}</span>`;
  const shape = `${row.followerCount} followers, slot ${row.slotDurationSeconds} s, block ${row.blockDurationMs} ms, delay p=${row.inclusionDelayProbability}`;
  const speed = row.wallMs > 0 ? Math.round(row.simulatedSeconds / (row.wallMs / 1000)) : 0;
  return `<tr${row.failureKinds.length > 0 ? ' class="failed"' : ''}><td class="num">${seed}</td><td>${result}</td><td>${escapeHtml(shape)}</td><td>${finalTips(row)}</td><td class="num">${row.eventsRun}</td><td class="num">${Math.round(row.wallMs)}</td><td class="num">${speed}x</td><td><code>${row.traceHash?.slice(0, 14) ?? 'none'}</code></td></tr>`;
}

function runTableHtml(tally: CampaignTally, plotted: ReadonlySet<bigint>): string {
  const rows = tally.tableRows();
  const head =
    '<tr><th>seed</th><th>result</th><th>shape</th><th>final proposed/checkpointed</th><th>events</th><th>wall ms</th><th>speed</th><th>trace hash</th></tr>';
  const notListed =
    tally.runs > rows.length
      ? `<p class="muted">${tally.runs - rows.length} more runs are not listed: the table holds the lowest seeds and the lowest failing ones; failures.jsonl has every failing seed.</p>`
      : '';
  return `<table>${head}${rows.map((r) => runRowHtml(r, plotted)).join('')}</table>${notListed}`;
}

export function renderCampaignReport(input: CampaignReportInput): string {
  const selected = selectPlotted(input.tally);
  const failingNotPlotted = input.summary.failed - selected.filter((r) => r.failures.length > 0).length;
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(input.title)}</h1><p class="muted">written ${escapeHtml(input.generatedAt)}</p>`,
    summaryHtml(input.summary),
    '<h2>Transition coverage</h2>',
    coverageHtml(input.tally),
    `<h2>Selected runs</h2><p>${tipLegendHtml()}</p>`,
    failingNotPlotted > 0
      ? `<p class="muted">${failingNotPlotted} further failing runs are not plotted (the lowest are in the table).</p>`
      : '',
    ...selected.map(runSectionHtml),
    `<h2>All runs (${input.tally.runs})</h2>`,
    runTableHtml(input.tally, new Set(selected.map((r) => r.seed))),
    '</body></html>\n',
  ].join('\n');
}
