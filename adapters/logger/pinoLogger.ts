/**
 * The production logger: pino, one JSON object per line (or a readable line on a terminal, adapters/logger/
 * prettyLogLines.ts), to stdout unless told otherwise. Its level can change while the node runs (svcAdmin_setConfig
 * logLevel), for every child at once.
 *
 * Fields and child bindings are made safe for JSON before pino sees them: bigints become decimal strings (pino would
 * write them as bare numbers, which JSON readers round), errors become `{ type, message, stack, ... }` with their
 * causes, byte arrays become hex, and the value of any key that names a credential is replaced by "[Redacted]", at
 * any depth. That redaction is done here rather than with pino's `redact` option because `redact` takes exact paths:
 * it cannot match "any key containing `secret`", nor a key at an unknown depth.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFields, LoggerPort } from '../../core/ports.js';
import { prettyDestination } from './prettyLogLines.js';

/** The levels an operator can choose, lowest first; 'silent' logs nothing. For the CLI's `choices`. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const isLogLevel = (value: string): value is LogLevel => (LOG_LEVELS as readonly string[]).includes(value);

/** How lines are written: JSON, readable, or readable exactly when the destination is a terminal. */
export type LogFormat = 'json' | 'pretty' | 'auto';

export interface PinoLoggerOptions {
  /** Lines below this level are dropped; 'silent' drops all. Changeable later with `setLevel`. */
  readonly level: LogLevel;
  /** Default 'json'. 'auto' is 'pretty' when standard output is a terminal (`isTerminal`), else 'json'. */
  readonly format?: LogFormat;
  /** Whether standard output is a terminal, for 'auto' (default: `process.stdout.isTTY`). */
  readonly isTerminal?: boolean;
  /** Where the lines go. Default: stdout, written synchronously so that no line is lost when the process exits. */
  readonly destination?: DestinationStream;
}

/** The production logger: a LoggerPort whose level (shared by all its children) can change at run time. */
export interface PinoLogger extends LoggerPort {
  readonly level: LogLevel;
  setLevel(level: LogLevel): void;
}

/** Numeric order of the levels; a line is written when its level is at least the logger's. */
const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50, silent: Infinity };

export function createPinoLogger(options: PinoLoggerOptions): PinoLogger {
  const sink = options.destination ?? pino.destination({ dest: 1, sync: true });
  const terminal = options.isTerminal ?? process.stdout.isTTY === true;
  const format = options.format === 'auto' ? (terminal ? 'pretty' : 'json') : (options.format ?? 'json');
  // pino itself writes every level; the shared threshold below filters, so that children follow setLevel too
  // (a pino child keeps the level it was created with).
  const logger = pino(
    {
      level: 'debug',
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    format === 'pretty' ? prettyDestination(sink) : sink,
  );
  const threshold = { level: options.level };
  const port = wrap(logger, threshold);
  return {
    ...port,
    get level() {
      return threshold.level;
    },
    setLevel(level) {
      threshold.level = level;
    },
  };
}

function wrap(logger: Logger, threshold: { level: LogLevel }): LoggerPort {
  const writes = (level: Exclude<LogLevel, 'silent'>) => LEVEL_RANK[level] >= LEVEL_RANK[threshold.level];
  return {
    debug: (message, fields) => void (writes('debug') && logger.debug(toLogObject(fields), message)),
    info: (message, fields) => void (writes('info') && logger.info(toLogObject(fields), message)),
    warn: (message, fields) => void (writes('warn') && logger.warn(toLogObject(fields), message)),
    error: (message, fields) => void (writes('error') && logger.error(toLogObject(fields), message)),
    child: (bindings) => wrap(logger.child(toLogObject(bindings)), threshold),
  };
}

// ---------------------------------------------------------------------------------------------------------------

export const REDACTED = '[Redacted]';

/** Keys whose values never reach a log line, compared case-insensitively; also any containing "secret" or "password". */
const CREDENTIAL_KEYS = new Set(['apikey', 'privatekey', 'publisherprivatekey']);

const isCredentialKey = (key: string): boolean => {
  const lower = key.toLowerCase();
  return CREDENTIAL_KEYS.has(lower) || lower.includes('secret') || lower.includes('password');
};

/** How deep into nested fields values are converted; deeper values are replaced by a marker. */
const LOG_FIELD_DEPTH_MAX = 10;
/** Longest byte array written out in full as hex; longer ones are cut and their length noted. */
const LOG_BYTES_MAX = 64;

function toLogObject(fields: LogFields | undefined): Record<string, unknown> {
  return fields === undefined ? {} : toLogRecord(fields, 0, new Set());
}

function toLogRecord(record: object, depth: number, ancestors: Set<object>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  ancestors.add(record);
  for (const [key, value] of Object.entries(record)) {
    result[key] = isCredentialKey(key) ? REDACTED : toLogValue(value, depth + 1, ancestors);
  }
  ancestors.delete(record);
  return result;
}

function toLogValue(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'bigint') return value.toString(10);
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return '[Circular]';
  if (depth > LOG_FIELD_DEPTH_MAX) return '[Too deep]';
  if (value instanceof Uint8Array) return bytesToHex(value);
  if (value instanceof Error) return toLogRecord(pino.stdSerializers.errWithCause(value), depth, ancestors);
  if (Array.isArray(value)) {
    ancestors.add(value);
    const items = value.map((item: unknown) => toLogValue(item, depth + 1, ancestors));
    ancestors.delete(value);
    return items;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  return toLogRecord(value, depth, ancestors);
}

function bytesToHex(bytes: Uint8Array): string {
  const shown = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, LOG_BYTES_MAX)).toString('hex');
  return bytes.length > LOG_BYTES_MAX ? `0x${shown}… (${bytes.length} bytes)` : `0x${shown}`;
}
