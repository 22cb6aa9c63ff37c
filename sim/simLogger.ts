import type { LogFields, LoggerPort } from '../core/ports.js';
import { SIM_START_TIME_MS_DEFAULT } from './scheduler.js';
import type { Trace } from './trace.js';
import { canonicalJson, toTraceJson } from './trace.js';

/**
 * A logger that writes into the run's trace: each call becomes a `log.<level>` entry stamped with simulated time,
 * its fields being the bindings, then the call's fields, then `msg`. Log lines are part of the run's behaviour, so
 * they are in the trace hash. Printing is optional and goes to a sink the caller chooses.
 */

export type SimLogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_RANK: Readonly<Record<SimLogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface SimLoggerOptions {
  readonly trace: Trace;
  /** Lowest level recorded into the trace (default 'debug'). */
  readonly traceLevelMin?: SimLogLevel;
  /** Receives a formatted line for each entry at or above `printLevelMin`. */
  readonly print?: (line: string) => void;
  /** Lowest level printed (default 'info'). */
  readonly printLevelMin?: SimLogLevel;
  /** Fields added to every entry (e.g. { node: 'node-1' }). */
  readonly bindings?: LogFields;
  /** Clock whose time starts each printed line (default: lines carry no time). */
  readonly now?: () => number;
  /** Printed times are relative to this (default SIM_START_TIME_MS_DEFAULT). */
  readonly startTimeMs?: number;
}

export function createSimLogger(options: SimLoggerOptions): LoggerPort {
  return new SimLogger(options, options.bindings ?? {});
}

/** A class rather than an object of arrow functions: nodes make child loggers often, and methods cost nothing to make. */
class SimLogger implements LoggerPort {
  readonly #traceRank: number;
  readonly #printRank: number;

  constructor(
    private readonly options: SimLoggerOptions,
    private readonly bindings: LogFields,
  ) {
    this.#traceRank = LEVEL_RANK[options.traceLevelMin ?? 'debug'];
    this.#printRank = LEVEL_RANK[options.printLevelMin ?? 'info'];
  }

  debug(message: string, fields?: LogFields): void {
    this.#write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.#write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.#write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.#write('error', message, fields);
  }

  child(childBindings: LogFields): LoggerPort {
    return new SimLogger(this.options, { ...this.bindings, ...childBindings });
  }

  #write(level: SimLogLevel, message: string, fields: LogFields | undefined): void {
    const { options } = this;
    const rank = LEVEL_RANK[level];
    if (rank < this.#traceRank && (options.print === undefined || rank < this.#printRank)) return;
    const entry = { ...this.bindings, ...fields, msg: message };
    if (rank >= this.#traceRank) options.trace.record(`log.${level}`, withoutStackFrames(entry));
    if (options.print !== undefined && rank >= this.#printRank) options.print(formatLine(options, level, entry));
  }
}

/** Where a JavaScript stack trace's frames start in an error's `stack` text. */
const STACK_FRAMES_RE = /\n\s+at /;

/**
 * The entry as the trace keeps it: a field holding an error's stack keeps only the text before its frames. Frames
 * name files by absolute path and lines as the running code has them, so with them a run's trace hash would depend
 * on where the checkout is and on whether it runs from source or from a build, and the same seed on two machines of
 * one campaign would disagree. Printed lines keep the frames.
 */
function withoutStackFrames(entry: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  let trimmed: Record<string, unknown> | undefined;
  for (const key of Object.keys(entry)) {
    const value = entry[key];
    if (typeof value !== 'string') continue;
    const frames = value.search(STACK_FRAMES_RE);
    if (frames < 0) continue;
    trimmed ??= { ...entry };
    trimmed[key] = value.slice(0, frames);
  }
  return trimmed ?? entry;
}

function formatLine(options: SimLoggerOptions, level: SimLogLevel, entry: Readonly<Record<string, unknown>>): string {
  const { msg, ...rest } = entry;
  const time =
    options.now === undefined
      ? ''
      : `${formatSimTime(options.now(), options.startTimeMs ?? SIM_START_TIME_MS_DEFAULT)} `;
  return `${time}${level.toUpperCase().padEnd(5)} ${String(msg)} ${canonicalJson(toTraceJson(rest))}`;
}

/** Simulated Unix ms as `+<seconds>.<ms>s` since `startTimeMs`, for printed lines. */
export function formatSimTime(timeMs: number, startTimeMs: number): string {
  const elapsed = timeMs - startTimeMs;
  const sign = elapsed < 0 ? '-' : '+';
  const abs = Math.abs(elapsed);
  return `${sign}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}s`;
}
