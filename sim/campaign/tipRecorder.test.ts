import { describe, expect, it } from 'vitest';
import type { L2Tips } from '../../spec/chain.js';
import { createTipRecorder, thinSamples, type TipSample } from './tipRecorder.js';

function tips(proposed: number, checkpointed: number, proven = 0, finalized = 0): L2Tips {
  const ref = (number: number) => ({ number, hash: `0x${number.toString(16).padStart(64, '0')}` as const });
  const checkpoint = (number: number) => ({ block: ref(number), checkpoint: { number, hash: ref(number).hash } });
  return {
    proposed: ref(proposed),
    checkpointed: checkpoint(checkpointed),
    proven: checkpoint(proven),
    finalized: checkpoint(finalized),
  };
}

describe('tip recorder', () => {
  it('keeps one series per node and skips samples equal to the previous one', () => {
    const recorder = createTipRecorder();
    recorder.record('a', 10, tips(1, 0));
    recorder.record('a', 20, tips(1, 0));
    recorder.record('b', 20, tips(0, 0));
    recorder.record('a', 30, tips(2, 1));
    expect(recorder.series()).toEqual([
      {
        node: 'a',
        samples: [
          [10, 1, 0, 0, 0],
          [30, 2, 1, 0, 0],
        ],
      },
      { node: 'b', samples: [[20, 0, 0, 0, 0]] },
    ]);
  });

  it('thins a series past its bound, keeping the first and the last sample', () => {
    const recorder = createTipRecorder(8);
    for (let n = 1; n <= 100; n++) recorder.record('a', n * 1000, tips(n, n - 1));
    const samples = recorder.series()[0]!.samples;
    expect(samples.length).toBeLessThanOrEqual(8);
    expect(samples[0]).toEqual([1000, 1, 0, 0, 0]);
    expect(samples[samples.length - 1]).toEqual([100_000, 100, 99, 0, 0]);
    expect(samples.map((s) => s[0])).toEqual([...samples.map((s) => s[0])].sort((x, y) => x - y));
  });

  it('thinSamples keeps every other sample and the last one', () => {
    const samples: TipSample[] = [0, 1, 2, 3, 4, 5].map((t) => [t, t, 0, 0, 0]);
    expect(thinSamples(samples).map((s) => s[0])).toEqual([0, 2, 4, 5]);
    expect(thinSamples(samples.slice(0, 5)).map((s) => s[0])).toEqual([0, 2, 4]);
    expect(thinSamples([])).toEqual([]);
  });
});
