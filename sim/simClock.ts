import { assert } from '../core/assert.js';
import type { ClockPort, TimerId } from '../core/ports.js';
import type { Scheduler, SimTimerId } from './scheduler.js';

/**
 * One node's clock on the shared scheduler. `now()` is the scheduler's time plus the node's skew; timers are
 * relative delays, so skew moves what the node reads, never when its timers fire. Its timers are scheduled under the
 * node's owner name, so a crash can take them all away.
 */
export interface SimClock extends ClockPort {
  readonly owner: string;
  skewMs(): number;
  /** A clock jump: from now on `now()` reads the true time plus `skewMs`. */
  setSkewMs(skewMs: number): void;
  /** Timers set through this clock that have neither fired nor been cleared. */
  pendingTimerCount(): number;
  /**
   * The node crashed: cancels its pending timers, and from now on ignores `setTimeout` (a crashed incarnation's
   * leftover promise chains may still call it; their timers never fire).
   */
  halt(): void;
  isHalted(): boolean;
  /**
   * The node's process is stopped (SIGSTOP): `now()` goes on, but a timer that comes due waits, and fires only
   * after `resume()`, in the order the timers came due. Timers cleared meanwhile never fire.
   */
  pause(): void;
  resume(): void;
  isPaused(): boolean;
}

export interface NodeClockOptions {
  /** Name the node's events are scheduled under (default 'node'). */
  readonly owner?: string;
  /** Offset of this node's clock from the true simulated time, in ms (default 0). */
  readonly skewMs?: number;
}

/** The id `setTimeout` returns on a halted clock: it names no event, so clearing it does nothing. */
const HALTED_TIMER_ID: SimTimerId = 0;

export function createNodeClock(scheduler: Scheduler, options: NodeClockOptions = {}): SimClock {
  const owner = options.owner ?? 'node';
  let skewMs = checkedSkew(options.skewMs ?? 0);
  let halted = false;
  let paused = false;
  const pending = new Set<SimTimerId>();
  /** Timers that came due while paused, in the order they did. */
  const deferred: { readonly id: SimTimerId; readonly callback: () => void }[] = [];

  /** A timer comes due: runs it, or keeps it for `resume()` while the node is paused. */
  const fire = (id: SimTimerId, callback: () => void): void => {
    if (halted || !pending.has(id)) return;
    if (paused) {
      deferred.push({ id, callback });
      return;
    }
    pending.delete(id);
    callback();
  };

  return {
    owner,
    now: () => scheduler.now() + skewMs,
    setTimeout(callback: () => void, delayMs: number): TimerId {
      if (halted) return HALTED_TIMER_ID;
      const id = scheduler.schedule(delayMs, () => fire(id, callback), { owner, label: 'timer' });
      pending.add(id);
      return id;
    },
    clearTimeout(id: TimerId): void {
      if (typeof id !== 'number' || !pending.has(id)) return;
      pending.delete(id);
      scheduler.cancel(id);
    },
    skewMs: () => skewMs,
    setSkewMs(next: number): void {
      skewMs = checkedSkew(next);
    },
    pendingTimerCount: () => pending.size,
    halt(): void {
      halted = true;
      for (const id of pending) scheduler.cancel(id);
      pending.clear();
      deferred.length = 0;
    },
    isHalted: () => halted,
    pause(): void {
      paused = true;
    },
    resume(): void {
      paused = false;
      // Each late timer gets its own event now, so the run loop drains what it starts before the next one runs.
      for (const late of deferred.splice(0))
        scheduler.schedule(0, () => fire(late.id, late.callback), { owner, label: 'timer (late)' });
    },
    isPaused: () => paused,
  };
}

function checkedSkew(skewMs: number): number {
  assert(Number.isSafeInteger(skewMs), `clock skew ${skewMs} must be an integer number of ms`);
  return skewMs;
}
