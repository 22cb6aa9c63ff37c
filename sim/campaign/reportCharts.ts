/**
 * Inline SVG charts for the campaign report: plain strings, no script, no network, so the page renders the same
 * anywhere it is opened.
 */
import type { CampaignEvent } from './campaignRun.js';
import type { NodeTipSeries, TipSample } from './tipRecorder.js';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The four tips as plotted: column in a TipSample, colour, dash pattern (proposed drawn wide, under the rest). */
export const TIP_LINES = [
  { name: 'proposed', column: 1, colour: '#6baed6', dash: '' },
  { name: 'checkpointed', column: 2, colour: '#2ca02c', dash: '' },
  { name: 'proven', column: 3, colour: '#ff7f0e', dash: '6 3' },
  { name: 'finalized', column: 4, colour: '#d62728', dash: '2 3' },
] as const;

const EVENT_COLOURS = ['#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#ff7f0e', '#1f77b4'];

interface Frame {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

const TIP_FRAME: Frame = { width: 420, height: 170, left: 44, right: 10, top: 10, bottom: 26 };

/** A round step (1, 2 or 5 times a power of ten) giving about `count` ticks over `span`. */
export function niceStep(span: number, count: number): number {
  const raw = Math.max(span / Math.max(1, count), 1e-9);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step ?? 10 * power;
}

function ticks(max: number, count: number): number[] {
  const step = niceStep(max, count);
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

function xOf(frame: Frame, atMs: number, endMs: number): number {
  return frame.left + ((frame.width - frame.left - frame.right) * Math.min(atMs, endMs)) / Math.max(1, endMs);
}

function yOf(frame: Frame, value: number, yMax: number): number {
  return frame.height - frame.bottom - ((frame.height - frame.top - frame.bottom) * value) / Math.max(1, yMax);
}

function timeAxis(frame: Frame, endMs: number): string {
  const baseline = frame.height - frame.bottom;
  const marks = ticks(endMs / 1000, 6).map((s) => {
    const x = xOf(frame, s * 1000, endMs).toFixed(1);
    return `<line x1="${x}" x2="${x}" y1="${frame.top}" y2="${baseline}" class="grid"/><text x="${x}" y="${baseline + 14}" text-anchor="middle">${s}</text>`;
  });
  return `${marks.join('')}<text x="${frame.width - frame.right}" y="${frame.height - 1}" text-anchor="end" class="unit">simulated s</text>`;
}

function blockAxis(frame: Frame, yMax: number): string {
  return ticks(yMax, 4)
    .map((n) => {
      const y = yOf(frame, n, yMax).toFixed(1);
      return `<line x1="${frame.left}" x2="${frame.width - frame.right}" y1="${y}" y2="${y}" class="grid"/><text x="${frame.left - 4}" y="${y}" dy="3" text-anchor="end">${n}</text>`;
    })
    .join('');
}

/** A step line through the samples of one tip, held at its last value until the end of the run. */
function stepPath(
  frame: Frame,
  samples: readonly TipSample[],
  column: 1 | 2 | 3 | 4,
  endMs: number,
  yMax: number,
): string {
  const first = samples[0];
  if (first === undefined) return '';
  const parts = [`M${xOf(frame, first[0], endMs).toFixed(1)},${yOf(frame, first[column], yMax).toFixed(1)}`];
  for (const sample of samples.slice(1))
    parts.push(`H${xOf(frame, sample[0], endMs).toFixed(1)}V${yOf(frame, sample[column], yMax).toFixed(1)}`);
  parts.push(`H${xOf(frame, endMs, endMs).toFixed(1)}`);
  return parts.join('');
}

/** Tips of one node over the run: block number against simulated time, one line per tip. */
export function tipChartSvg(series: NodeTipSeries, endMs: number, yMax: number): string {
  const frame = TIP_FRAME;
  const lines = TIP_LINES.map(
    (line) =>
      `<path d="${stepPath(frame, series.samples, line.column, endMs, yMax)}" fill="none" stroke="${line.colour}" stroke-width="${line.column === 1 ? 3.2 : 1.6}"${line.dash ? ` stroke-dasharray="${line.dash}"` : ''}><title>${line.name}</title></path>`,
  );
  return [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="0 0 ${frame.width} ${frame.height}" role="img" aria-label="tips of ${escapeHtml(series.node)}">`,
    blockAxis(frame, yMax),
    timeAxis(frame, endMs),
    ...lines,
    `<text x="${frame.left + 4}" y="${frame.top + 10}" class="label">${escapeHtml(series.node)}</text>`,
    '</svg>',
  ].join('');
}

/** A small stable hash of a string, to give each event kind its own colour. */
function colourOf(kind: string): string {
  let h = 0;
  for (let i = 0; i < kind.length; i++) h = (h * 31 + kind.charCodeAt(i)) >>> 0;
  return EVENT_COLOURS[h % EVENT_COLOURS.length]!;
}

const TIMELINE_ROW_HEIGHT = 20;

/** One row per event kind, one mark per event (its detail in the mark's tooltip). */
export function eventTimelineSvg(events: readonly CampaignEvent[], endMs: number): string {
  const kinds = [...new Set(events.map((e) => e.kind))].sort();
  const frame: Frame = {
    width: 860,
    height: 10 + kinds.length * TIMELINE_ROW_HEIGHT + 26,
    left: 150,
    right: 10,
    top: 10,
    bottom: 26,
  };
  const rows = kinds.map((kind, row) => {
    const y = frame.top + row * TIMELINE_ROW_HEIGHT + TIMELINE_ROW_HEIGHT / 2;
    const marks = events
      .filter((e) => e.kind === kind)
      .map((e) => {
        const x = xOf(frame, e.atMs, endMs).toFixed(1);
        const tip = `${(e.atMs / 1000).toFixed(3)} s ${e.kind}${e.node ? ` ${e.node}` : ''}: ${e.detail}`;
        return `<rect x="${x}" y="${y - 6}" width="3" height="12" fill="${colourOf(kind)}"><title>${escapeHtml(tip)}</title></rect>`;
      });
    return `<text x="${frame.left - 6}" y="${y}" dy="4" text-anchor="end">${escapeHtml(kind)}</text>${marks.join('')}`;
  });
  return [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="0 0 ${frame.width} ${frame.height}" role="img" aria-label="event timeline">`,
    timeAxis(frame, endMs),
    ...rows,
    '</svg>',
  ].join('');
}

/** The legend of the tip charts, as a line of HTML. */
export function tipLegendHtml(): string {
  return TIP_LINES.map(
    (line) =>
      `<span class="legend"><svg width="26" height="10"><line x1="0" x2="26" y1="5" y2="5" stroke="${line.colour}" stroke-width="${line.column === 1 ? 3.2 : 2}"${line.dash ? ` stroke-dasharray="${line.dash}"` : ''}/></svg> ${line.name}</span>`,
  ).join(' ');
}
