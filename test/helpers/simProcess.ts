/**
 * `npm run sim -- ...` as a child process (node with tsx directly, as the npm script runs it), with its output
 * collected line by line, for tests that need real processes: campaign coordinators and queue workers, and a
 * module hook (`--import` through NODE_OPTIONS) that vi.mock cannot give another process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { collectLines } from './streamLines.js';

const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../..');

/** The preload that breaks the pool's bump rule in every process and thread it reaches (see the file). */
export const BROKEN_BUMP_RULE_IMPORT = path.join(REPOSITORY_ROOT, 'test/helpers/brokenBumpRule.mjs');
/** Preloads that break one protocol rule in every node the same way (see each file), one per reference checker. */
export const BROKEN_FEE_FLOOR_IMPORT = path.join(REPOSITORY_ROOT, 'test/helpers/brokenFeeFloor.mjs');
export const BROKEN_L1_REPLACEMENT_IMPORT = path.join(REPOSITORY_ROOT, 'test/helpers/brokenL1Replacement.mjs');
export const BROKEN_PROPOSER_DRAW_IMPORT = path.join(REPOSITORY_ROOT, 'test/helpers/brokenProposerDraw.mjs');

export interface SimProcess {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Resolves with the first line of either stream that matches (rejects if the process exits first). */
  waitForLine(pattern: RegExp): Promise<string>;
}

export function startSim(args: readonly string[], options: { preloads?: readonly string[] } = {}): SimProcess {
  const nodeOptions = (options.preloads ?? []).map((module) => `--import ${module}`).join(' ');
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', 'sim/main.ts', ...args], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const onLine = (into: string[]) => (line: string) => {
    into.push(line);
    for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  collectLines(child.stdout, onLine(stdout));
  collectLines(child.stderr, onLine(stderr));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    stdout,
    stderr,
    exited,
    waitForLine(pattern) {
      const seen = [...stdout, ...stderr].find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        void exited.then((code) =>
          reject(new Error(`sim ${args.join(' ')} exited (${code}) before printing ${pattern}:\n${stderr.join('\n')}`)),
        );
      });
    },
  };
}
