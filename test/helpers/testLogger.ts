/**
 * Loggers for tests: a silent one, and a capturing one that hands every line to the test (its child loggers' lines
 * too, with their bindings), so that each test keeps what it checks in the form it checks it.
 */
import type { LogFields, LoggerPort } from '../../core/ports.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One logged line, as a capturing logger hands it on. */
export interface LogLine {
  readonly level: LogLevel;
  readonly message: string;
  /** The fields passed with the message, if any. */
  readonly fields: LogFields | undefined;
  /** The bindings of the child logger that logged it (empty for the root). */
  readonly bindings: LogFields;
}

/** A logger that drops every line. */
export const silentLogger: LoggerPort = capturingLogger(() => undefined);

/** A logger that hands every line, at every level and from every child logger, to `onLine`. */
export function capturingLogger(onLine: (line: LogLine) => void, bindings: LogFields = {}): LoggerPort {
  const write = (level: LogLevel) => (message: string, fields?: LogFields) =>
    onLine({ level, message, fields, bindings });
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (more) => capturingLogger(onLine, { ...bindings, ...more }),
  };
}
