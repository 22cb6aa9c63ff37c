/**
 * The clock port's contract, run against the system clock and the simulator's clock. The suite never sleeps by
 * itself: time passes only through the harness's `advance`, so a simulated clock drives it as well as a real one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClockPort, TimerId } from '../../core/ports.js';

export interface ClockHarness {
  readonly clock: ClockPort;
  /** Lets `ms` milliseconds pass on `clock`, running the timers that fall due: a real sleep, or a simulated step. */
  advance(ms: number): Promise<void>;
  /**
   * How much earlier than its delay, as measured by `now()`, a timer may fire. 0 for a simulated clock; 1 for the
   * system clock, whose timers count on the event loop's monotonic milliseconds while `now()` reads the wall clock.
   */
  readonly timerEarlyToleranceMs: number;
}

/** Timer delays the suite uses: short, so that a real clock runs it quickly. */
const DELAY_MS = 20;
/** Extra time to advance past a due timer, so a real clock has surely run it. */
const SETTLE_MS = 10;

export function describeClockPort(name: string, make: () => ClockHarness | Promise<ClockHarness>): void {
  describe(`ClockPort contract: ${name}`, () => {
    let harness: ClockHarness;
    let timers: TimerId[];
    /** Sets a timer through the port and remembers it, so that none outlives its test. */
    const schedule = (callback: () => void, delayMs: number): TimerId => {
      const id = harness.clock.setTimeout(callback, delayMs);
      timers.push(id);
      return id;
    };

    beforeEach(async () => {
      harness = await make();
      timers = [];
      // Start each test at the beginning of a turn of the clock, not at the end of whatever ran before it.
      await harness.advance(0);
    });
    afterEach(() => {
      for (const id of timers) harness.clock.clearTimeout(id);
    });

    it('reads a finite time that never decreases and moves on by what was advanced', async () => {
      const { clock, advance, timerEarlyToleranceMs } = harness;
      const start = clock.now();
      const readings = [start];
      for (let step = 0; step < 5; step++) {
        readings.push(clock.now(), clock.now());
        await advance(2);
        readings.push(clock.now());
      }
      for (const reading of readings) expect(Number.isFinite(reading)).toBe(true);
      for (let index = 1; index < readings.length; index++) {
        expect(readings[index]).toBeGreaterThanOrEqual(readings[index - 1] ?? Number.NaN);
      }
      expect(clock.now() - start).toBeGreaterThanOrEqual(10 - timerEarlyToleranceMs);
    });

    it('never calls a timer back from inside setTimeout, even with zero delay', async () => {
      const fired: string[] = [];
      schedule(() => fired.push('zero'), 0);
      expect(fired).toEqual([]);
      await harness.advance(SETTLE_MS);
      expect(fired).toEqual(['zero']);
    });

    it('fires a timer once, and no earlier than its delay', async () => {
      const { clock, advance, timerEarlyToleranceMs } = harness;
      const firedAt: number[] = [];
      const start = clock.now();
      schedule(() => firedAt.push(clock.now()), DELAY_MS);
      await advance(DELAY_MS - 5);
      expect(firedAt).toEqual([]);
      await advance(SETTLE_MS);
      expect(firedAt).toHaveLength(1);
      expect((firedAt[0] ?? Number.NaN) - start).toBeGreaterThanOrEqual(DELAY_MS - timerEarlyToleranceMs);
      await advance(DELAY_MS + SETTLE_MS);
      expect(firedAt).toHaveLength(1);
    });

    it('does not fire a cleared timer, and leaves the others alone', async () => {
      const fired: string[] = [];
      schedule(() => fired.push('first'), DELAY_MS);
      const cleared = schedule(() => fired.push('cleared'), DELAY_MS);
      schedule(() => fired.push('last'), DELAY_MS);
      harness.clock.clearTimeout(cleared);
      await harness.advance(DELAY_MS + SETTLE_MS);
      expect(fired).toEqual(['first', 'last']);
    });

    it('ignores clearing a timer that already fired, or one cleared before', async () => {
      const fired: string[] = [];
      const done = schedule(() => fired.push('done'), 5);
      await harness.advance(5 + SETTLE_MS);
      harness.clock.clearTimeout(done);
      const twice = schedule(() => fired.push('twice'), 5);
      harness.clock.clearTimeout(twice);
      harness.clock.clearTimeout(twice);
      await harness.advance(5 + SETTLE_MS);
      expect(fired).toEqual(['done']);
    });

    it('fires timers with equal delays in the order they were set', async () => {
      const fired: number[] = [];
      for (let index = 0; index < 5; index++) schedule(() => fired.push(index), DELAY_MS);
      await harness.advance(DELAY_MS + SETTLE_MS);
      expect(fired).toEqual([0, 1, 2, 3, 4]);
    });

    it('fires timers in the order they fall due', async () => {
      const fired: number[] = [];
      for (const delayMs of [15, 5, 20, 10]) schedule(() => fired.push(delayMs), delayMs);
      await harness.advance(20 + SETTLE_MS);
      expect(fired).toEqual([5, 10, 15, 20]);
    });
  });
}
