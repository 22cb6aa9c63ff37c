import type { ClockPort } from '../../core/ports.js';

/** Lets queued promise continuations run (several macrotask turns, enough for chains of awaits in fakes). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A clock for unit tests: time moves only when the test advances it; timers fire in (time, insertion) order. */
export class ManualClock implements ClockPort {
  private timers: { id: number; at: number; callback: () => void }[] = [];
  private nextId = 1;
  constructor(private current = 1_700_000_000_000) {}

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): number {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + Math.max(0, delayMs), callback });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  /** Advances time by `ms`, firing due timers in order and settling async work after each. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await settle();
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.callback();
      await settle();
    }
    this.current = end;
  }
}
