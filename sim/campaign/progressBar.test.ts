import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSeconds } from './progressBar.js';

describe('the progress bar durations', () => {
  it('reads whole seconds, then minutes and seconds from two minutes on', () => {
    expect(formatSeconds(95.4)).toBe('95s');
    expect(formatSeconds(119.6)).toBe('2m00s');
    expect(formatSeconds(539.6)).toBe('9m00s');
    expect(formatSeconds(605)).toBe('10m05s');
    expect(formatSeconds(Number.POSITIVE_INFINITY)).toBe('?');
  });

  it('never shows 60 seconds, and names the duration to the nearest second', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (seconds) => {
        const text = formatSeconds(seconds);
        const match = /^(?:(\d+)m(\d\d)s|(\d+)s)$/.exec(text);
        expect(match).not.toBeNull();
        const total = match![3] !== undefined ? Number(match![3]) : Number(match![1]) * 60 + Number(match![2]);
        if (match![2] !== undefined) expect(Number(match![2])).toBeLessThan(60);
        expect(total).toBe(Math.round(seconds));
      }),
    );
  });
});
