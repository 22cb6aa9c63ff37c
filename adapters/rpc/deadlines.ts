/**
 * Per-call timeouts without a timer per call: calls register a deadline in one set, and a single unref'd sweep
 * timer, running only while calls are pending, rejects those past their deadline. A call may thus time out up to
 * one sweep period late (DEADLINE_SWEEP_MS_MAX, or a tenth of the timeout when shorter), which is fine for limits of
 * seconds and saves a setTimeout/clearTimeout pair on every call of the hot path.
 */

/** The longest wait between two sweeps. */
export const DEADLINE_SWEEP_MS_MAX = 100;

interface Pending {
  readonly deadlineMs: number;
  readonly reject: (error: Error) => void;
}

export class Deadlines {
  private readonly pending = new Set<Pending>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;

  constructor(
    private readonly timeoutMs: number,
    private readonly timeoutError: () => Error,
  ) {
    this.sweepMs = Math.max(1, Math.min(DEADLINE_SWEEP_MS_MAX, Math.floor(timeoutMs / 10)));
  }

  /** `work`, or a rejection with the timeout error once its deadline has passed. */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { deadlineMs: Date.now() + this.timeoutMs, reject };
      this.pending.add(entry);
      this.ensureSweeping();
      work.then(
        (value) => {
          this.pending.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          this.pending.delete(entry);
          reject(error);
        },
      );
    });
  }

  private ensureSweeping(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.sweep(), this.sweepMs);
    this.timer.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const entry of this.pending) {
      if (entry.deadlineMs > now) continue;
      this.pending.delete(entry);
      entry.reject(this.timeoutError());
    }
    if (this.pending.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
