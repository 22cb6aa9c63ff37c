import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The Node flags of older checkouts' `sim` script, whose package.json says no more than this. */
const SIM_NODE_FLAGS_BEFORE_TS_LOADER = ['--max-semi-space-size=64', '--import', 'tsx'];

/**
 * The Node flags of the `sim` npm script in the checkout at `root` (its package.json): the words between `node` and
 * the script's file. Each checkout runs with its own flags, so a baseline commit is timed the way it ran.
 */
export function simNodeFlags(root: string): string[] {
  const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const words = (packageJson.scripts?.sim ?? '').split(/\s+/);
  const first = words.indexOf('node') + 1;
  const script = words.findIndex((word, i) => i >= first && word.endsWith('.ts'));
  return first > 0 && script > first ? words.slice(first, script) : SIM_NODE_FLAGS_BEFORE_TS_LOADER;
}

/** A started Node script: its process id, and its exit code and printed output once it ends. */
export interface StartedScript {
  readonly pid: number;
  readonly done: Promise<{ code: number; stdout: string }>;
}

/**
 * Starts `script` (a path under `root`) with `args`, from `root`, with the Node flags of `root`'s own `sim` script.
 * Its standard output is collected; its standard error goes to this process's.
 */
export function startNodeScript(root: string, script: string, args: readonly string[]): StartedScript {
  const child = spawn(process.execPath, [...simNodeFlags(root), script, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<{ code: number; stdout: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
  return { pid: child.pid ?? -1, done };
}

/** Runs a script as `startNodeScript` starts it; its exit code and what it printed. */
export function runNodeScript(
  root: string,
  script: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string }> {
  return startNodeScript(root, script, args).done;
}

let tasksetFound: boolean | undefined;

/** Whether util-linux's `taskset` and procps's `ps` are on the PATH (to move processes between CPUs). */
export function canPinProcesses(): boolean {
  if (tasksetFound === undefined) {
    try {
      execFileSync('taskset', ['--version'], { stdio: 'ignore' });
      execFileSync('ps', ['-o', 'pid=', '-p', String(process.pid)], { stdio: 'ignore' });
      tasksetFound = true;
    } catch {
      tasksetFound = false;
    }
  }
  return tasksetFound;
}

/** `pid` and every process descended from it (a campaign relaunches itself, then starts its threads). */
export function processTree(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (child === undefined || parent === undefined || Number.isNaN(child)) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const tree: number[] = [];
  for (let pending = [pid]; pending.length > 0;) {
    const next = pending.pop()!;
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** Puts every thread of `pid` and its descendants on `cpu` alone; a process that has just ended is skipped. */
export function pinProcessTree(pid: number, cpu: number): void {
  for (const member of processTree(pid)) {
    try {
      execFileSync('taskset', ['--all-tasks', '--pid', '--cpu-list', String(cpu), String(member)], { stdio: 'ignore' });
    } catch {
      // It ended between the listing and the pinning.
    }
  }
}
