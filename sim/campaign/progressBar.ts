/**
 * Campaign progress on stderr. Exempt from the determinism lint (wall clock, terminal). On a terminal one line is
 * redrawn in place; otherwise (CI logs, pipes) a plain line is printed every tenth of the way or every
 * PROGRESS_LINE_INTERVAL_MS, whichever comes first.
 */

/** Shortest gap between two redraws on a terminal. */
const PROGRESS_REDRAW_INTERVAL_MS = 100;
/** Longest gap between two plain lines when not on a terminal. */
const PROGRESS_LINE_INTERVAL_MS = 10_000;
const BAR_WIDTH = 24;

export interface ProgressState {
  readonly done: number;
  /** Runs that failed a checker so far (left out of the line when undefined). */
  readonly failed?: number;
  readonly simulatedSeconds: number;
}

export interface ProgressBar {
  update(state: ProgressState): void;
  /** Ends the bar's line (on a terminal) so later output starts on a fresh line. */
  finish(): void;
}

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** `95s`, or `2m05s` from two minutes on; rounded to the whole second first, so 539.6 s reads 9m00s, not 8m60s. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  return whole >= 120 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

function describe(label: string, total: number, state: ProgressState, elapsedMs: number, bar: boolean): string {
  const fraction = total > 0 ? state.done / total : 1;
  const filled = Math.round(fraction * BAR_WIDTH);
  const speed = elapsedMs > 0 ? Math.round(state.simulatedSeconds / (elapsedMs / 1000)) : 0;
  const etaSeconds = state.done > 0 ? ((total - state.done) * elapsedMs) / state.done / 1000 : Number.NaN;
  const parts = [
    bar ? `${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]` : label,
    `${state.done}/${total}`,
    ...(state.failed === undefined ? [] : [state.failed > 0 ? `${state.failed} FAILED` : '0 failed']),
    `${speed}x`,
    `elapsed ${formatSeconds(elapsedMs / 1000)}`,
    state.done < total ? `eta ${formatSeconds(etaSeconds)}` : 'done',
  ];
  return parts.join('  ');
}

/** A progress bar over `total` runs; a null stream draws nothing. */
export function createProgressBar(label: string, total: number, stream: ProgressStream | null): ProgressBar {
  const startedMs = performance.now();
  let lastDrawMs = Number.NEGATIVE_INFINITY;
  let lastTenth = 0;
  let drewOnTerminal = false;
  return {
    update(state) {
      if (stream === null) return;
      const nowMs = performance.now();
      const complete = state.done >= total;
      if (stream.isTTY === true) {
        if (!complete && nowMs - lastDrawMs < PROGRESS_REDRAW_INTERVAL_MS) return;
        const line = describe(label, total, state, nowMs - startedMs, true);
        stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, (stream.columns || 100) - 1))}`);
        drewOnTerminal = true;
      } else {
        const tenth = total > 0 ? Math.floor((10 * state.done) / total) : 10;
        if (!complete && tenth === lastTenth && nowMs - lastDrawMs < PROGRESS_LINE_INTERVAL_MS) return;
        lastTenth = tenth;
        stream.write(`${describe(label, total, state, nowMs - startedMs, false)}\n`);
      }
      lastDrawMs = nowMs;
    },
    finish() {
      if (stream !== null && drewOnTerminal) stream.write('\n');
      drewOnTerminal = false;
    },
  };
}
