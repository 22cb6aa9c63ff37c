import type { L2Tips } from '../../spec/chain.js';

/** One point of a node's tips: simulated ms since the run started, then the block number of each tip. */
export type TipSample = readonly [
  atMs: number,
  proposed: number,
  checkpointed: number,
  proven: number,
  finalized: number,
];

export interface NodeTipSeries {
  readonly node: string;
  readonly samples: readonly TipSample[];
}

/**
 * Samples kept per node. Past it the series is thinned to every other point (first and last kept), so a long run
 * still gives a plot of the whole run at a coarser grain and a result stays small enough to post between threads.
 */
export const TIP_SAMPLES_PER_NODE_MAX = 400;

export interface TipRecorder {
  /** Records a node's tips at a time; a sample equal to the node's previous one is skipped. */
  record(node: string, atMs: number, tips: L2Tips): void;
  series(): NodeTipSeries[];
}

function sampleOf(atMs: number, tips: L2Tips): TipSample {
  return [
    atMs,
    tips.proposed.number,
    tips.checkpointed.block.number,
    tips.proven.block.number,
    tips.finalized.block.number,
  ];
}

function sameTips(a: TipSample, b: TipSample): boolean {
  return a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];
}

/** Every other sample, keeping the first and the last. */
export function thinSamples(samples: readonly TipSample[]): TipSample[] {
  const kept = samples.filter((_, index) => index % 2 === 0);
  const last = samples[samples.length - 1];
  if (last !== undefined && kept[kept.length - 1] !== last) kept.push(last);
  return kept;
}

export function createTipRecorder(samplesMax = TIP_SAMPLES_PER_NODE_MAX): TipRecorder {
  const byNode = new Map<string, TipSample[]>();
  return {
    record(node, atMs, tips) {
      const samples = byNode.get(node) ?? [];
      byNode.set(node, samples);
      const sample = sampleOf(atMs, tips);
      const previous = samples[samples.length - 1];
      if (previous !== undefined && sameTips(previous, sample)) return;
      samples.push(sample);
      if (samples.length > samplesMax) byNode.set(node, thinSamples(samples));
    },
    series() {
      return [...byNode].map(([node, samples]) => ({ node, samples: samples.slice() }));
    },
  };
}
