/**
 * The crash soak's pure parts (bench/crash/): the checks a restarted follower's tips must pass, and the kill plan,
 * which must be a function of the seed alone so that a failing soak can be replayed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tipsOrderProblems, tipsRegressionProblems } from '../../bench/crash/consistency.js';
import { drawKillPlan } from '../../bench/crash/crashSoak.js';
import type { L2Tips } from '../../spec/chain.js';

const hash = `0x${'00'.repeat(32)}` as const;

function tipsOf(finalized: number, proven: number, checkpointed: number, proposed: number): L2Tips {
  const ref = (number: number) => ({ block: { number, hash }, checkpoint: { number, hash } });
  return {
    proposed: { number: proposed, hash },
    checkpointed: ref(checkpointed),
    proven: ref(proven),
    finalized: ref(finalized),
  };
}

const blockNumbers = fc.array(fc.nat({ max: 1_000 }), { minLength: 4, maxLength: 4 });

describe('the crash soak checks', () => {
  it('find tips in order exactly when finalized <= proven <= checkpointed <= proposed', () => {
    fc.assert(
      fc.property(blockNumbers, ([a, b, c, d]) => {
        const ordered = a! <= b! && b! <= c! && c! <= d!;
        expect(tipsOrderProblems(tipsOf(a!, b!, c!, d!)).length === 0).toBe(ordered);
      }),
    );
  });

  it('find a regression exactly when a checkpointed, proven or finalized tip went down', () => {
    fc.assert(
      fc.property(blockNumbers, blockNumbers, (before, after) => {
        const [b0, b1, b2, b3] = before.sort((x, y) => x - y);
        const [a0, a1, a2, a3] = after.sort((x, y) => x - y);
        const wentDown = a0! < b0! || a1! < b1! || a2! < b2!;
        const problems = tipsRegressionProblems(tipsOf(b0!, b1!, b2!, b3!), tipsOf(a0!, a1!, a2!, a3!));
        expect(problems.length > 0).toBe(wentDown);
      }),
    );
    expect(tipsRegressionProblems(undefined, tipsOf(0, 0, 0, 0))).toEqual([]);
  });

  it('draw the same kill plan from the same seed, every moment and down time within its bounds', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.nat({ max: 50 }), (seed, kills) => {
        const plan = drawKillPlan(seed, kills, 10_000, 4_000);
        expect(drawKillPlan(seed, kills, 10_000, 4_000)).toEqual(plan);
        expect(plan).toHaveLength(kills);
        for (const kill of plan) {
          expect(kill.afterOpenMs).toBeGreaterThanOrEqual(0);
          expect(kill.afterOpenMs).toBeLessThanOrEqual(10_000);
          expect(kill.downMs).toBeGreaterThanOrEqual(0);
          expect(kill.downMs).toBeLessThanOrEqual(4_000);
        }
      }),
    );
  });
});
