/**
 * Readable log lines for a terminal (`--log-format pretty`, or `auto` on a TTY), made from the JSON lines pino writes:
 *
 *     07:53:06.123 INFO  [archiver] checkpoint stored blocks=2 checkpointNumber=3
 *
 * The node does not ship pino-pretty; this is the small part of it the node needs. The JSON line has already been
 * redacted (adapters/logger/pinoLogger.ts), so nothing here can reveal a secret the JSON would not.
 */
import type { DestinationStream } from 'pino';

/** Fields shown in the line's frame rather than as `key=value`. */
const FRAME_KEYS = new Set(['time', 'level', 'msg', 'module', 'component', 'pid', 'hostname']);
/** Width the level label is padded to, so messages line up. */
const LEVEL_LABEL_WIDTH = 5;
/** Characters of an ISO time from the hour to the milliseconds: `HH:MM:SS.mmm`. */
const TIME_OF_DAY = { start: 11, end: 23 } as const;

const plainValue = /^[^\s"=]+$/;

function formatValue(value: unknown): string {
  if (typeof value === 'string') return plainValue.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** One readable line for one JSON log line; a line that is not a JSON object is passed through. */
export function formatLogLine(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(jsonLine);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return jsonLine.trimEnd();
    record = parsed as Record<string, unknown>;
  } catch {
    return jsonLine.trimEnd();
  }
  const time = typeof record.time === 'string' ? record.time.slice(TIME_OF_DAY.start, TIME_OF_DAY.end) : '';
  const level = String(record.level ?? '')
    .toUpperCase()
    .padEnd(LEVEL_LABEL_WIDTH);
  const where = record.module ?? record.component;
  const fields = Object.entries(record)
    .filter(([key]) => !FRAME_KEYS.has(key))
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  return [time, level, where !== undefined ? `[${String(where)}]` : undefined, String(record.msg ?? ''), ...fields]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
}

/** A pino destination that writes each line readable to `out`. */
export function prettyDestination(out: DestinationStream): DestinationStream {
  return { write: (line: string) => void out.write(`${formatLogLine(line)}\n`) };
}
