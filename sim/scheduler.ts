import { assert } from '../core/assert.js';

/**
 * Simulated time and the one event queue every simulated node, and the simulated L1, share.
 *
 * Events are ordered by (time, insertion sequence): two events due at the same millisecond fire in the order they
 * were scheduled, so the order never depends on anything but the run's own history.
 *
 * The run loop, and why it is deterministic:
 * - Simulated code is asynchronous (promises) but reaches the world only through simulated ports. Every simulated
 *   port resolves its promises either at once (a microtask) or from an event on this queue. So once an event's
 *   callback has returned, all the work it caused is either queued as microtasks / process.nextTick callbacks, or
 *   scheduled here as a later event.
 * - Node runs the nextTick queue and the microtask queue to exhaustion (including work queued while draining them)
 *   before the event loop moves on to any macrotask. A `setImmediate` callback is a macrotask of the check phase, so
 *   by the time `await new Promise((r) => setImmediate(r))` resumes, every continuation the event caused, however
 *   long the chain of awaits, has run. One such turn per event is therefore enough, and more would only cost time.
 * - Which continuations run, and in which order, is fixed by the order in which promises were created and settled,
 *   and that is fixed by the event order. Real macrotasks of the host (the test runner's I/O) may run during the
 *   turn, but they never touch simulated state.
 * - The rule this relies on: nothing under simulation may wait on a real macrotask (real timers, file or network
 *   I/O, thread-pool crypto such as `crypto.subtle`, worker threads). Hash synchronously (node:crypto `hash`,
 *   `createHash`), and use the simulated store (sim/simLevel.ts): its operations settle through microtasks only.
 */

/** Unix milliseconds at which a simulation starts unless told otherwise (2023-11-14T22:13:20Z). */
export const SIM_START_TIME_MS_DEFAULT = 1_700_000_000_000;
/** Events pending at once. More means a runaway timer loop or a leak; the simulator asserts. */
export const SCHEDULER_QUEUE_LENGTH_MAX = 100_000;
/** Events run without simulated time advancing. More means a zero-delay loop (livelock); the simulator asserts. */
export const SCHEDULER_EVENTS_PER_INSTANT_MAX = 100_000;

/** Handle of a scheduled event, unique within one scheduler. */
export type SimTimerId = number;

export interface ScheduleOptions {
  /** Who scheduled the event (a node id, 'l1'); `cancelOwner` cancels all of one owner's events. */
  readonly owner?: string;
  /** What the event is, for diagnostics. */
  readonly label?: string;
}

interface QueuedEvent {
  readonly id: SimTimerId;
  readonly timeMs: number;
  readonly owner: string;
  readonly label: string;
  readonly callback: () => void;
  heapIndex: number;
}

export interface PendingEventInfo {
  readonly id: SimTimerId;
  readonly timeMs: number;
  readonly owner: string;
  readonly label: string;
}

function isEarlier(a: QueuedEvent, b: QueuedEvent): boolean {
  return a.timeMs < b.timeMs || (a.timeMs === b.timeMs && a.id < b.id);
}

/** One macrotask turn; see the module comment for why this drains everything an event started. */
function drainPendingContinuations(): Promise<void> {
  // The one real macrotask of the simulator: it only lets queued continuations run and never carries simulated
  // state (see the module comment).
  // eslint-disable-next-line no-restricted-globals
  return new Promise((resolve) => setImmediate(resolve));
}

export class Scheduler {
  private nowMs: number;
  private nextId = 1;
  private readonly heap: QueuedEvent[] = [];
  private readonly byId = new Map<SimTimerId, QueuedEvent>();
  private running = false;
  private eventsRunTotal = 0;
  /** Time of the last event run, and how many events ran at that time. */
  private lastEventTimeMs = -1;
  private eventsAtLastEventTime = 0;

  constructor(startTimeMs: number = SIM_START_TIME_MS_DEFAULT) {
    assert(
      Number.isSafeInteger(startTimeMs) && startTimeMs >= 0,
      `start time ${startTimeMs} must be a non-negative integer`,
    );
    this.nowMs = startTimeMs;
  }

  /** Simulated Unix milliseconds (the true time; node clocks add their skew). */
  now(): number {
    return this.nowMs;
  }

  get pendingCount(): number {
    return this.heap.length;
  }

  get eventsRun(): number {
    return this.eventsRunTotal;
  }

  /**
   * Runs `callback` `delayMs` from now. A negative delay counts as 0; a fractional one is rounded up to whole
   * milliseconds so simulated time stays integral.
   */
  schedule(delayMs: number, callback: () => void, options: ScheduleOptions = {}): SimTimerId {
    assert(Number.isFinite(delayMs), `timer delay ${delayMs} is not finite`);
    return this.scheduleAt(this.nowMs + Math.max(0, Math.ceil(delayMs)), callback, options);
  }

  scheduleAt(timeMs: number, callback: () => void, options: ScheduleOptions = {}): SimTimerId {
    assert(Number.isSafeInteger(timeMs), `event time ${timeMs} must be an integer`);
    assert(timeMs >= this.nowMs, `event at ${timeMs} is in the past (now ${this.nowMs})`);
    assert(
      this.heap.length < SCHEDULER_QUEUE_LENGTH_MAX,
      `event queue full (SCHEDULER_QUEUE_LENGTH_MAX = ${SCHEDULER_QUEUE_LENGTH_MAX})`,
    );
    const event: QueuedEvent = {
      id: this.nextId++,
      timeMs,
      owner: options.owner ?? 'sim',
      label: options.label ?? '',
      callback,
      heapIndex: this.heap.length,
    };
    this.heap.push(event);
    this.byId.set(event.id, event);
    this.siftUp(event.heapIndex);
    return event.id;
  }

  /** Removes a pending event; false when it already ran, was cancelled, or never existed. */
  cancel(id: SimTimerId): boolean {
    const event = this.byId.get(id);
    if (event === undefined) return false;
    this.removeAt(event.heapIndex);
    return true;
  }

  /** Cancels every pending event of `owner`, in scheduling order; returns how many. */
  cancelOwner(owner: string): number {
    const ids = [...this.byId.values()].filter((e) => e.owner === owner).map((e) => e.id);
    ids.sort((a, b) => a - b);
    for (const id of ids) this.cancel(id);
    return ids.length;
  }

  /** A promise settled by an event `delayMs` from now (for simulated latencies). */
  sleep(delayMs: number, options: ScheduleOptions = {}): Promise<void> {
    return new Promise((resolve) => {
      this.schedule(delayMs, resolve, options);
    });
  }

  /** Pending events in firing order (diagnostics; O(n log n)). */
  pendingEvents(): PendingEventInfo[] {
    return [...this.heap]
      .sort((a, b) => (isEarlier(a, b) ? -1 : 1))
      .map(({ id, timeMs, owner, label }) => ({ id, timeMs, owner, label }));
  }

  /** Runs every event due at or before `endTimeMs`, then sets the time to `endTimeMs`. Returns the events run. */
  async runUntil(endTimeMs: number): Promise<number> {
    const before = this.eventsRunTotal;
    await this.runUntilCondition(() => false, endTimeMs);
    this.nowMs = endTimeMs;
    return this.eventsRunTotal - before;
  }

  runFor(durationMs: number): Promise<number> {
    assert(durationMs >= 0, `runFor(${durationMs}): negative duration`);
    return this.runUntil(this.nowMs + durationMs);
  }

  /**
   * Runs events until `condition()` holds (checked after continuations have drained, before the first event and
   * after each one) or the next event is later than `deadlineMs`. Returns whether the condition held; the time is
   * then that of the last event run.
   */
  async runUntilCondition(condition: () => boolean, deadlineMs: number): Promise<boolean> {
    assert(!this.running, 'the run loop is not re-entrant: do not run the scheduler from inside an event');
    assert(
      Number.isSafeInteger(deadlineMs) && deadlineMs >= this.nowMs,
      `deadline ${deadlineMs} is before now ${this.nowMs}`,
    );
    this.running = true;
    try {
      await drainPendingContinuations();
      while (!condition()) {
        const next = this.heap[0];
        if (next === undefined || next.timeMs > deadlineMs) return false;
        this.runEvent(next);
        await drainPendingContinuations();
      }
      return true;
    } finally {
      this.running = false;
    }
  }

  private runEvent(event: QueuedEvent): void {
    this.removeAt(0);
    this.nowMs = event.timeMs;
    if (event.timeMs === this.lastEventTimeMs) {
      this.eventsAtLastEventTime++;
      assert(
        this.eventsAtLastEventTime <= SCHEDULER_EVENTS_PER_INSTANT_MAX,
        `more than SCHEDULER_EVENTS_PER_INSTANT_MAX events at ${this.nowMs} ms (last: ${event.owner} ${event.label})`,
      );
    } else {
      this.lastEventTimeMs = event.timeMs;
      this.eventsAtLastEventTime = 1;
    }
    this.eventsRunTotal++;
    event.callback();
  }

  private removeAt(index: number): void {
    const removed = this.heap[index]!;
    this.byId.delete(removed.id);
    const last = this.heap.pop()!;
    if (index === this.heap.length) return;
    this.heap[index] = last;
    last.heapIndex = index;
    this.siftDown(this.siftUp(index));
  }

  /** Moves the event at `index` towards the root while it is earlier than its parent; returns its final index. */
  private siftUp(index: number): number {
    let i = index;
    const event = this.heap[i]!;
    while (i > 0) {
      const parentIndex = (i - 1) >> 1;
      const parent = this.heap[parentIndex]!;
      if (!isEarlier(event, parent)) break;
      this.place(parent, i);
      i = parentIndex;
    }
    this.place(event, i);
    return i;
  }

  private siftDown(index: number): void {
    let i = index;
    const event = this.heap[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.heap.length) break;
      const right = left + 1;
      const child = right < this.heap.length && isEarlier(this.heap[right]!, this.heap[left]!) ? right : left;
      if (!isEarlier(this.heap[child]!, event)) break;
      this.place(this.heap[child]!, i);
      i = child;
    }
    this.place(event, i);
  }

  private place(event: QueuedEvent, index: number): void {
    this.heap[index] = event;
    event.heapIndex = index;
  }
}

export function createScheduler(options: { readonly startTimeMs?: number } = {}): Scheduler {
  return new Scheduler(options.startTimeMs ?? SIM_START_TIME_MS_DEFAULT);
}
