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
  const pending = new Set<SimTimerId>();

  return {
    owner,
    now: () => scheduler.now() + skewMs,
    setTimeout(callback: () => void, delayMs: number): TimerId {
      if (halted) return HALTED_TIMER_ID;
      const id = scheduler.schedule(
        delayMs,
        () => {
          pending.delete(id);
          callback();
        },
        { owner, label: 'timer' },
      );
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
    },
    isHalted: () => halted,
  };
}

function checkedSkew(skewMs: number): number {
  assert(Number.isSafeInteger(skewMs), `clock skew ${skewMs} must be an integer number of ms`);
  return skewMs;
}
