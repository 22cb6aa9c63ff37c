/**
 * A follower node as a child process, wired as in production (`svc start --node`, test/helpers/svcCommand.ts: the
 * test suite's prebuilt JavaScript, or tsx from the bench), so that SIGKILL is a real crash: no handler runs, no
 * buffer is flushed by the process, LevelDB is left as the kill found it.
 */
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { NODE_DATABASE_DIRECTORY_NAME } from '../../adapters/storage/classicLevelStorage.js';
import { collectLines } from '../../test/helpers/streamLines.js';
import { REPOSITORY_ROOT, svcNodeArgs } from '../../test/helpers/svcCommand.js';

/** The last lines of a child's output kept for a failure report. */
const OUTPUT_LINES_KEPT_MAX = 200;
/** How often the database's info log is looked at to see the node open the database. */
const OPEN_POLL_INTERVAL_MS = 5;
/** pino's level labels at which a line counts as a problem. */
const ERROR_LEVELS = new Set(['error', 'fatal']);
const WARNING_LEVELS = new Set(['warn']);

export interface FollowerArgs {
  readonly l1RpcUrl: string;
  readonly rollupAddress: string;
  readonly dataDirectory: string;
}

export interface FollowerProcess {
  /** `performance.now()` when the process was spawned. */
  readonly spawnedAtMs: number;
  /** The public JSON-RPC URL once the node serves (its database is open); rejects if it exits first. */
  readonly serving: Promise<string>;
  /** Resolves when the process has exited, however. */
  readonly exited: Promise<void>;
  /**
   * `performance.now()` when the node opened its database (LevelDB starts a new info log, `LOG`, at each open), if
   * it did: the start of the part of startup that reads and writes the database.
   */
  openedAtMs(): number | undefined;
  /** Resolves at `openedAtMs()`, or when the process exits without having opened it. */
  readonly opened: Promise<void>;
  /** `performance.now()` when it printed its JSON-RPC URLs, if it did. */
  servedAtMs(): number | undefined;
  hasExited(): boolean;
  /** Messages of the log lines at error level or above. */
  errors(): string[];
  /** Messages of the log lines at warn level. */
  warnings(): string[];
  /** Its last output lines, for a failure report. */
  output(): string;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
}

interface LogLine {
  readonly level?: string;
  readonly msg?: string;
}

export async function spawnFollower(args: FollowerArgs): Promise<FollowerProcess> {
  const infoLog = path.join(args.dataDirectory, NODE_DATABASE_DIRECTORY_NAME, 'LOG');
  const infoLogBefore = await inodeOf(infoLog);
  let openedAtMs: number | undefined;
  const child = spawn(process.execPath, svcNodeArgs('start', '--node', ...argv(args)), {
    cwd: REPOSITORY_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawnedAtMs = performance.now();
  const lines: string[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  let servedAtMs: number | undefined;
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exitedPromise.then(() => (exited = true));
  const opened = (async () => {
    while (!exited && (await inodeOf(infoLog)) === infoLogBefore) await sleep(OPEN_POLL_INTERVAL_MS);
    if (!exited) openedAtMs = performance.now();
  })();
  const serving = new Promise<string>((resolve, reject) => {
    const onLine = (line: string) => {
      lines.push(line);
      if (lines.length > OUTPUT_LINES_KEPT_MAX) lines.shift();
      const log = parseLogLine(line);
      if (log?.level !== undefined && ERROR_LEVELS.has(log.level)) errors.push(log.msg ?? line);
      if (log?.level !== undefined && WARNING_LEVELS.has(log.level)) warnings.push(log.msg ?? line);
      const publicUrl = /^public JSON-RPC: (\S+)/.exec(line)?.[1];
      if (publicUrl === undefined) return;
      servedAtMs = performance.now();
      resolve(publicUrl);
    };
    collectLines(child.stdout, onLine);
    collectLines(child.stderr, onLine);
    void exitedPromise.then(() => reject(new Error('the follower exited before serving JSON-RPC')));
  });
  serving.catch(() => undefined);
  return {
    spawnedAtMs,
    serving,
    exited: exitedPromise,
    openedAtMs: () => openedAtMs,
    opened,
    servedAtMs: () => servedAtMs,
    hasExited: () => exited,
    errors: () => [...errors],
    warnings: () => [...warnings],
    output: () => lines.join('\n'),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exitedPromise;
    },
  };
}

async function inodeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).ino;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function argv(args: FollowerArgs): string[] {
  return [
    ...['--l1-rpc-urls', args.l1RpcUrl, '--l1-consensus-host-urls', args.l1RpcUrl],
    ...['--rollup-address', args.rollupAddress, '--data-directory', args.dataDirectory],
    ...['--port', '0', '--admin-port', '0', '--disable-admin-api-key', '--log-level', 'warn'],
  ];
}

function parseLogLine(line: string): LogLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return undefined;
  }
}
