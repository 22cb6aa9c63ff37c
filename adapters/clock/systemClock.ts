/**
 * The production clock: wall-clock time and Node's timers. Timers stay referenced, so a pending one keeps the process
 * alive; the node decides when to stop by clearing them, not by letting the event loop run dry. The timer functions
 * are looked up on each call, so a test that swaps in fake timers drives this clock too.
 *
 * `now()` is `Date.now()`: Unix milliseconds as the operating system reports them, which can step backwards if the
 * system clock is corrected.
 */
import type { ClockPort, TimerId } from '../../core/ports.js';

export function createSystemClock(): ClockPort {
  return {
    now: () => Date.now(),
    setTimeout: (callback: () => void, delayMs: number): TimerId => globalThis.setTimeout(callback, delayMs),
    clearTimeout: (id: TimerId): void => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
  };
}
