/**
 * Runs a command that fills every core with campaign threads in a Node started with V8's `--single-threaded`.
 * Exempt from the determinism lint: it starts a process and reads no simulated state.
 *
 * Why: V8 gives each process helper threads for concurrent marking, parallel scavenges and background compiles.
 * Next to one simulation thread on an idle core they help; when the campaign's threads already take every core they
 * only compete with them (in a 2-worker campaign on 2 cores they took a third of the CPU the workers got). Measured on
 * this project's 2-core machine, 1,000 seeds on 2 workers: 140.8 s as before, 132.0 s single-threaded; with an outside
 * load on the machine, 100 seeds in 54.6 s against 39.8 s. V8 reads these flags only as it starts (setting them at run
 * time, through `v8.setFlagsFromString`, crashes its garbage collector), so the command runs again in a child Node.
 *
 * The child gets its own process group and the parent passes it SIGINT, SIGTERM and SIGHUP: a terminal's Ctrl-C
 * then reaches the command once (twice would mean "quit now" to a queue worker), and so does a supervisor's SIGTERM.
 * The parent exits with the child's code. SIM_V8_SINGLE_THREADED=0 turns the relaunch off.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

const SINGLE_THREADED_FLAG = '--single-threaded';
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** Exit code of a process ended by a signal, as shells report it. */
const SIGNAL_EXIT_CODE_BASE = 128;

/** Whether a command running `threads` campaign threads should relaunch itself single-threaded. */
export function shouldRelaunchSingleThreaded(
  threads: number,
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return (
    threads >= os.availableParallelism() &&
    !execArgv.includes(SINGLE_THREADED_FLAG) &&
    env.SIM_V8_SINGLE_THREADED !== '0'
  );
}

/** The commands that run campaign threads in this process, with the flags that name their thread count. */
const THREADED_COMMANDS = new Set(['campaign', 'determinism']);
/** Flags with which those commands start no threads here (a queue's workers run elsewhere) or only print help. */
const THREADLESS_FLAGS = new Set(['--queue', '--status', '--resume', '--help', '-h']);

/**
 * Whether the command line `args` (after `sim/main.ts`) names a campaign or determinism check that should relaunch
 * single-threaded, read from the arguments alone so that the relaunch happens before the simulator's modules load
 * (about 1.6 s here, which the parent would otherwise spend for nothing). It is the only place that decides: what it
 * cannot read (a missing or odd `--workers` value) runs without the relaunch, and the full parser reports any error.
 */
export function argsNeedSingleThreadedRelaunch(
  args: readonly string[],
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (!THREADED_COMMANDS.has(args[0] ?? '')) return false;
  let threads = os.availableParallelism();
  for (let i = 1; i < args.length; i++) {
    const [flag, inline] = args[i]!.split('=', 2) as [string, string | undefined];
    if (THREADLESS_FLAGS.has(flag)) return false;
    if (flag !== '--workers') continue;
    const value = inline ?? args[++i];
    if (value === undefined || !/^[1-9]\d*$/.test(value)) return false;
    threads = Number(value);
  }
  return shouldRelaunchSingleThreaded(threads, execArgv, env);
}

/** Runs this process's command again in a Node started with `--single-threaded`; resolves to its exit code. */
export function relaunchSingleThreaded(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, SINGLE_THREADED_FLAG, ...process.argv.slice(1)], {
    stdio: 'inherit',
    detached: true,
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const handlers = FORWARDED_SIGNALS.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const [name, handler] of handlers) process.off(name, handler);
      resolve(code ?? SIGNAL_EXIT_CODE_BASE + (signal === null ? 0 : os.constants.signals[signal]));
    });
  });
}
