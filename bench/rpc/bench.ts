/**
 * `npm run bench -- rpc`: throughput and latency of a cheap read, `svc_getBlockNumber`, on our JSON-RPC server,
 * against anvil's `eth_blockNumber` and a bare node:http JSON-RPC server, all driven by the same load generator.
 *
 * Every party is its own process: the server under test (a node child, or the anvil binary), the load generator (a
 * node child: node:http keep-alive Agent, `connections` closed-loop clients) and this orchestrator, which is idle
 * while a target runs. The load generator marks its measurement window; the orchestrator reads the server's CPU time
 * at both ends: node servers report their own process.cpuUsage(), anvil's comes from /proc/<pid>/stat (and /proc is
 * read for all three as a cross-check). On 2 cores the load generator saturates one core before a fast server does,
 * so the server's CPU time per request is the fairer cost figure; both are reported.
 *
 * Environment (all optional):
 *   RPC_BENCH_DURATION_S  measured seconds per target (default 5), after RPC_BENCH_WARMUP_S (default 1)
 *   RPC_BENCH_CONNECTIONS concurrent keep-alive connections (default 64)
 *   RPC_BENCH_TARGETS     comma-separated subset of ours,anvil,bare,express (default ours,anvil,bare; the ratios
 *                         need those three; express is our listener without its fast path, for comparison)
 *   RPC_BENCH_CPU_PROF    a directory: node server children run with --cpu-prof there, and a summary of each
 *                         profile is printed (profiling slows the server: do not compare those figures)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { anvilBinaryPath, findFreePort } from '../../adapters/l1/anvil.js';
import { summarizeProfileFile } from './profileSummary.js';
import {
  machineJiffies,
  procCpuTime,
  type CpuTime,
  type LoadConfig,
  type LoadMessage,
  type LoadResult,
  type NodeServerKind,
  type ServerChildCommand,
  type ServerChildMessage,
  type TargetKind,
} from './protocol.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const SERVER_CHILD = path.join(HERE, 'serverChild.ts');
const LOAD_GENERATOR = path.join(HERE, 'loadGenerator.ts');

/** Every target, in run order; `express` (our listener with every request through Express) runs only when named. */
const TARGET_ORDER: readonly TargetKind[] = ['ours', 'anvil', 'bare', 'express'];
const DEFAULT_TARGETS: readonly TargetKind[] = ['ours', 'anvil', 'bare'];
const METHOD_OF: Readonly<Record<TargetKind, string>> = {
  ours: 'svc_getBlockNumber',
  anvil: 'eth_blockNumber',
  bare: 'svc_getBlockNumber',
  express: 'svc_getBlockNumber',
};
const LABEL_OF: Readonly<Record<TargetKind, string>> = {
  ours: 'ours (startRpcServers, svc_getBlockNumber)',
  anvil: 'anvil --quiet (eth_blockNumber)',
  bare: 'bare node:http JSON-RPC',
  express: 'ours, every request through Express',
};

/** Targets of the brief: ours/anvil throughput at least this, bare/ours at most this. */
const OURS_OVER_ANVIL_MIN = 1;
const BARE_OVER_OURS_MAX = 1.5;

const SERVER_START_TIMEOUT_MS = 30_000;
const SERVER_STOP_TIMEOUT_MS = 8_000;
const CPU_QUERY_TIMEOUT_MS = 5_000;
const ANVIL_READY_TIMEOUT_MS = 10_000;
const ANVIL_READY_POLL_MS = 25;
const ANVIL_START_ATTEMPTS_MAX = 3;
const LOAD_STALL_MS = 10_000;
/** Slack on top of warm-up + duration + stall before the load generator is killed. */
const LOAD_TIMEOUT_SLACK_MS = 30_000;
const PAUSE_BETWEEN_TARGETS_MS = 500;
/** Above this many cores used by other processes during a window, the run is flagged as disturbed. */
const OTHER_CORES_WARN = 0.15;

interface Settings {
  readonly durationMs: number;
  readonly warmupMs: number;
  readonly connections: number;
  readonly targets: readonly TargetKind[];
  readonly cpuProfileDir?: string;
}

function positiveNumber(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max)
    throw new Error(`${name} must be a number in (0, ${max}], got ${raw}`);
  return value;
}

function readSettings(): Settings {
  const targets = (process.env['RPC_BENCH_TARGETS'] ?? DEFAULT_TARGETS.join(','))
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const unknown = targets.filter((t) => !(TARGET_ORDER as readonly string[]).includes(t));
  if (unknown.length > 0 || targets.length === 0)
    throw new Error(`RPC_BENCH_TARGETS: pick from ${TARGET_ORDER.join(',')}`);
  const profileDir = process.env['RPC_BENCH_CPU_PROF'];
  return {
    durationMs: positiveNumber('RPC_BENCH_DURATION_S', 5, 120) * 1000,
    warmupMs: positiveNumber('RPC_BENCH_WARMUP_S', 1, 60) * 1000,
    connections: Math.round(positiveNumber('RPC_BENCH_CONNECTIONS', 64, 1024)),
    targets: TARGET_ORDER.filter((t) => targets.includes(t)),
    ...(profileDir === undefined || profileDir === '' ? {} : { cpuProfileDir: path.resolve(profileDir) }),
  };
}

// --- children -------------------------------------------------------------------------------------------------

/** Every child still running, killed if the orchestrator exits without stopping it. */
const children = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const running of children) running.kill('SIGKILL');
    });
  }
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopChild(child: ChildProcess, graceful: () => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  graceful();
  let timer: NodeJS.Timeout | undefined;
  const lingered = await Promise.race([
    exited(child).then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), SERVER_STOP_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (lingered) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

/** A node child running a TypeScript entry through tsx, with an IPC channel. */
function spawnTsChild(entry: string, config: unknown, nodeFlags: readonly string[] = []): ChildProcess {
  return track(
    spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry, JSON.stringify(config)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

// --- targets --------------------------------------------------------------------------------------------------

interface RunningTarget {
  readonly kind: TargetKind;
  readonly url: string;
  readonly pid: number;
  /** CPU time of the server process so far, as the target reports it (see the module comment). */
  cpuTime(): Promise<CpuTime>;
  stop(): Promise<void>;
}

async function startNodeServer(kind: NodeServerKind, settings: Settings): Promise<RunningTarget> {
  const flags =
    settings.cpuProfileDir === undefined
      ? []
      : // One directory per server; node names each thread's profile CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile
        // (tsx's module-hooks worker writes one too).
        ['--cpu-prof', `--cpu-prof-dir=${path.join(settings.cpuProfileDir, `rpc-${kind}-${Date.now()}`)}`];
  const child = spawnTsChild(SERVER_CHILD, { kind }, flags);
  const pending = new Map<number, (cpu: CpuTime) => void>();
  let seq = 0;
  const ready = new Promise<string>((resolve, reject) => {
    child.on('message', (message: ServerChildMessage) => {
      if (message.type === 'ready') resolve(message.url);
      else pending.get(message.seq)?.({ user: message.userMicros, system: message.systemMicros });
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the ${kind} server exited (${code ?? signal}) before it was ready`)),
    );
    child.once('error', reject);
  });
  let url: string;
  try {
    url = await withTimeout(ready, SERVER_START_TIMEOUT_MS, `starting the ${kind} server`);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const command = (message: ServerChildCommand) => child.send(message);
  return {
    kind,
    url,
    pid: child.pid!,
    cpuTime: () => {
      const id = ++seq;
      const answer = new Promise<CpuTime>((resolve) => pending.set(id, resolve));
      command({ type: 'cpu', seq: id });
      return withTimeout(answer, CPU_QUERY_TIMEOUT_MS, `cpu usage of the ${kind} server`).finally(() =>
        pending.delete(id),
      );
    },
    stop: () => stopChild(child, () => command({ type: 'shutdown' })),
  };
}

/** One JSON-RPC POST over a fresh connection; resolves to the answer's text. */
function postOnce(url: string, body: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, timeout: timeoutMs },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}`))));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

async function launchAnvil(port: number): Promise<RunningTarget> {
  const url = `http://127.0.0.1:${port}`;
  // --quiet: anvil logs every call otherwise. Its stdout is dropped and its stderr kept for error messages.
  const child = track(
    spawn(anvilBinaryPath(), ['--port', String(port), '--host', '127.0.0.1', '--quiet'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4_096)));
  const stop = () => stopChild(child, () => child.kill('SIGTERM'));
  const deadline = performance.now() + ANVIL_READY_TIMEOUT_MS;
  const probe = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
  for (
    let attempt = 0;
    performance.now() < deadline && attempt < ANVIL_READY_TIMEOUT_MS / ANVIL_READY_POLL_MS;
    attempt++
  ) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      if ((await postOnce(url, probe, 1_000)).includes('"result"')) {
        const cpuTime = () => Promise.resolve(procCpuTime(child.pid!) ?? { user: Number.NaN, system: Number.NaN });
        return { kind: 'anvil', url, pid: child.pid!, cpuTime, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, ANVIL_READY_POLL_MS));
  }
  await stop();
  throw new Error(`anvil did not answer on ${url}${stderr === '' ? '' : `; it printed: ${stderr.trim().slice(-500)}`}`);
}

async function startAnvilTarget(): Promise<RunningTarget> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= ANVIL_START_ATTEMPTS_MAX; attempt++) {
    try {
      return await launchAnvil(await findFreePort());
    } catch (error) {
      lastError = error; // the free port may have been taken before anvil bound it: try another
    }
  }
  throw lastError;
}

const startTarget = (kind: TargetKind, settings: Settings): Promise<RunningTarget> =>
  kind === 'anvil' ? startAnvilTarget() : startNodeServer(kind, settings);

// --- one measurement ------------------------------------------------------------------------------------------

interface Snapshot {
  readonly reportedCpu: CpuTime;
  readonly procCpu: CpuTime | undefined;
  readonly machine: { readonly busy: number; readonly total: number } | undefined;
}

export interface TargetFigures {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Server CPU time per request, microseconds: the server's own cpuUsage (node) or /proc (anvil). */
  readonly serverCpuUsPerReq: number;
  /** Of which in the kernel (system time): socket writes and reads, wake-ups of the peer. */
  readonly serverSysUsPerReq: number;
  /** The same total from /proc/<pid>/stat, for all targets (10 ms tick resolution). */
  readonly serverCpuUsPerReqProc: number;
  /** Server CPU time over wall time: 1 = one core busy. */
  readonly serverCores: number;
  readonly loadGenCpuUsPerReq: number;
  readonly loadGenSysUsPerReq: number;
  readonly loadGenCores: number;
  /** Share of all cores busy during the window (everything on the machine). */
  readonly machineBusy: number;
  /** Cores used by anything but the server and the load generator: other work on the machine skews the run. */
  readonly otherCores: number;
  readonly completed: number;
  readonly errors: number;
  readonly sockets: number;
  readonly p90Ms: number;
  readonly maxMs: number;
}

async function snapshot(target: RunningTarget): Promise<Snapshot> {
  const machine = machineJiffies();
  const procCpu = procCpuTime(target.pid);
  const reportedCpu = await target.cpuTime();
  return { reportedCpu, procCpu, machine };
}

function runLoad(
  target: RunningTarget,
  settings: Settings,
): Promise<{ result: LoadResult; start: Snapshot; end: Snapshot }> {
  const config: LoadConfig = {
    url: target.url,
    method: METHOD_OF[target.kind],
    connections: settings.connections,
    warmupMs: settings.warmupMs,
    durationMs: settings.durationMs,
    requestsMax: 50_000_000,
    stallMs: LOAD_STALL_MS,
  };
  const child = spawnTsChild(LOAD_GENERATOR, config);
  let start: Promise<Snapshot> | undefined;
  let end: Promise<Snapshot> | undefined;
  const done = new Promise<LoadResult>((resolve, reject) => {
    child.on('message', (message: LoadMessage) => {
      if (message.type === 'measureStart') start = snapshot(target);
      else if (message.type === 'measureEnd') end = snapshot(target);
      else if (message.type === 'result') resolve(message.result);
      else reject(new Error(`load generator on ${target.kind}: ${message.message}`));
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the load generator exited (${code ?? signal}) without a result`)),
    );
    child.once('error', reject);
  });
  const limit = settings.warmupMs + settings.durationMs + LOAD_STALL_MS + LOAD_TIMEOUT_SLACK_MS;
  return withTimeout(done, limit, `load on ${target.kind}`)
    .then(async (result) => {
      if (start === undefined || end === undefined) throw new Error('the load generator did not mark its window');
      return { result, start: await start, end: await end };
    })
    .finally(() => stopChild(child, () => child.kill('SIGTERM')));
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));

function figuresOf(run: { result: LoadResult; start: Snapshot; end: Snapshot }): TargetFigures {
  const { result, start, end } = run;
  const seconds = result.windowMs / 1000;
  const perRequest = (micros: number) => (result.completed > 0 ? micros / result.completed : Number.NaN);
  const serverSystem = end.reportedCpu.system - start.reportedCpu.system;
  const serverMicros = end.reportedCpu.user - start.reportedCpu.user + serverSystem;
  const procMicros =
    start.procCpu !== undefined && end.procCpu !== undefined
      ? end.procCpu.user + end.procCpu.system - start.procCpu.user - start.procCpu.system
      : Number.NaN;
  const loadGenMicros = result.cpu.user + result.cpu.system;
  const machineBusy =
    start.machine !== undefined && end.machine !== undefined
      ? (end.machine.busy - start.machine.busy) / Math.max(1, end.machine.total - start.machine.total)
      : Number.NaN;
  return {
    reqPerSec: Math.round(result.completed / seconds),
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    serverCpuUsPerReq: round(perRequest(serverMicros), 1),
    serverSysUsPerReq: round(perRequest(serverSystem), 1),
    serverCpuUsPerReqProc: round(perRequest(procMicros), 1),
    serverCores: round(serverMicros / 1e6 / seconds, 2),
    loadGenCpuUsPerReq: round(perRequest(loadGenMicros), 1),
    loadGenSysUsPerReq: round(perRequest(result.cpu.system), 1),
    loadGenCores: round(loadGenMicros / 1e6 / seconds, 2),
    machineBusy: round(machineBusy, 2),
    otherCores: round(Math.max(0, machineBusy * os.cpus().length - (serverMicros + loadGenMicros) / 1e6 / seconds), 2),
    completed: result.completed,
    errors: result.errors,
    sockets: result.socketsOpened,
    p90Ms: result.p90Ms,
    maxMs: result.maxMs,
  };
}

async function measure(kind: TargetKind, settings: Settings): Promise<{ figures: TargetFigures; sample: string }> {
  const target = await startTarget(kind, settings);
  try {
    const run = await runLoad(target, settings);
    const figures = figuresOf(run);
    if (figures.otherCores > OTHER_CORES_WARN) {
      process.stderr.write(
        `rpc bench: other processes used ${figures.otherCores} cores while ${kind} was measured: its figures are skewed\n`,
      );
    }
    if (run.result.errors > 0) {
      process.stderr.write(
        `rpc bench: ${run.result.errors} bad answers from ${kind}, first: ${run.result.firstError ?? '?'}\n`,
      );
    }
    return { figures, sample: run.result.sampleBody };
  } finally {
    await target.stop();
  }
}

// --- report ---------------------------------------------------------------------------------------------------

function table(results: ReadonlyMap<TargetKind, TargetFigures>): string {
  const columns: readonly [string, (f: TargetFigures) => string][] = [
    ['req/s', (f) => String(f.reqPerSec)],
    ['p50 ms', (f) => f.p50Ms.toFixed(2)],
    ['p99 ms', (f) => f.p99Ms.toFixed(2)],
    ['srv µs/req', (f) => f.serverCpuUsPerReq.toFixed(1)],
    ['of it sys', (f) => f.serverSysUsPerReq.toFixed(1)],
    ['(/proc)', (f) => f.serverCpuUsPerReqProc.toFixed(1)],
    ['srv cores', (f) => f.serverCores.toFixed(2)],
    ['gen µs/req', (f) => f.loadGenCpuUsPerReq.toFixed(1)],
    ['of it sys', (f) => f.loadGenSysUsPerReq.toFixed(1)],
    ['gen cores', (f) => f.loadGenCores.toFixed(2)],
    ['box busy', (f) => `${Math.round(f.machineBusy * 100)}%`],
    ['other cores', (f) => f.otherCores.toFixed(2)],
    ['errors', (f) => String(f.errors)],
  ];
  const labelWidth = Math.max(...[...results.keys()].map((k) => LABEL_OF[k].length));
  const widths = columns.map(([title, cell]) =>
    Math.max(title.length, ...[...results.values()].map((f) => cell(f).length)),
  );
  const line = (label: string, cells: readonly string[]) =>
    `${label.padEnd(labelWidth)}  ${cells.map((c, i) => c.padStart(widths[i]!)).join('  ')}`;
  return [
    line(
      'target',
      columns.map(([title]) => title),
    ),
    ...[...results.entries()].map(([kind, f]) =>
      line(
        LABEL_OF[kind],
        columns.map(([, cell]) => cell(f)),
      ),
    ),
  ].join('\n');
}

/** The main-thread profiles (thread id 0) written under `dir` since `before`. */
async function printProfiles(dir: string, before: ReadonlySet<string>): Promise<void> {
  const runs = (await readdir(dir)).filter((d) => d.startsWith('rpc-') && !before.has(d)).sort();
  for (const run of runs) {
    const files = (await readdir(path.join(dir, run))).filter((f) =>
      /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f),
    );
    for (const file of files) {
      const full = path.join(dir, run, file);
      process.stdout.write(`\n== ${full}\n${await summarizeProfileFile(full, 20)}\n`);
    }
  }
}

export async function benchRpc(): Promise<{
  readonly name: string;
  readonly figures: Record<string, number | string>;
}> {
  const settings = readSettings();
  let profilesBefore = new Set<string>();
  if (settings.cpuProfileDir !== undefined) {
    await mkdir(settings.cpuProfileDir, { recursive: true });
    profilesBefore = new Set(await readdir(settings.cpuProfileDir));
  }
  const results = new Map<TargetKind, TargetFigures>();
  const samples: Record<string, string> = {};
  for (const kind of settings.targets) {
    if (results.size > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_TARGETS_MS));
    const { figures, sample } = await measure(kind, settings);
    results.set(kind, figures);
    samples[kind] = sample.trim();
  }

  const figures: Record<string, number | string> = {
    method: 'svc_getBlockNumber (ours, bare) / eth_blockNumber (anvil)',
    connections: settings.connections,
    warmupSeconds: settings.warmupMs / 1000,
    durationSeconds: settings.durationMs / 1000,
    loadGenerator: 'node:http Agent keepAlive, maxSockets = connections, closed loop, own process',
  };
  for (const [kind, f] of results) {
    for (const [key, value] of Object.entries(f)) figures[`${kind}.${key}`] = value as number;
    figures[`${kind}.sampleAnswer`] = samples[kind] ?? '';
  }
  const anvil = results.get('anvil');
  const bare = results.get('bare');
  const verdicts: string[] = [];
  // The targets' ratios for ours; the same ratios for the Express-only listener when it ran, to show what the fast path buys.
  for (const [kind, prefix] of [
    ['ours', 'ours'],
    ['express', 'express'],
  ] as const) {
    const candidate = results.get(kind);
    if (candidate === undefined) continue;
    const name = prefix[0]!.toUpperCase() + prefix.slice(1);
    if (anvil !== undefined) {
      const ratio = round(candidate.reqPerSec / anvil.reqPerSec, 3);
      const met = ratio >= OURS_OVER_ANVIL_MIN ? 'yes' : 'no';
      figures[`${prefix}OverAnvilThroughput`] = ratio;
      figures[`${prefix}OverAnvilThroughputTarget`] = `>= ${OURS_OVER_ANVIL_MIN}`;
      figures[`${prefix}OverAnvilThroughputMet`] = met;
      // What the ratio would be if each server had a core to itself: the inverse ratio of CPU per request.
      figures[`${prefix}OverAnvilByServerCpu`] = round(anvil.serverCpuUsPerReq / candidate.serverCpuUsPerReq, 3);
      verdicts.push(`${prefix}/anvil throughput ${ratio} (target >= ${OURS_OVER_ANVIL_MIN}: ${met})`);
    }
    if (bare !== undefined) {
      const ratio = round(bare.reqPerSec / candidate.reqPerSec, 3);
      const met = ratio <= BARE_OVER_OURS_MAX ? 'yes' : 'no';
      figures[`bareOver${name}Throughput`] = ratio;
      figures[`bareOver${name}ThroughputTarget`] = `<= ${BARE_OVER_OURS_MAX}`;
      figures[`bareOver${name}ThroughputMet`] = met;
      figures[`bareOver${name}ByServerCpu`] = round(candidate.serverCpuUsPerReq / bare.serverCpuUsPerReq, 3);
      verdicts.push(`bare/${prefix} throughput ${ratio} (target <= ${BARE_OVER_OURS_MAX}: ${met})`);
    }
  }
  const verdict = verdicts.join('; ');
  process.stdout.write(`\n${table(results)}\n${verdict}\n\n`);
  if (settings.cpuProfileDir !== undefined) await printProfiles(settings.cpuProfileDir, profilesBefore);
  return { name: 'rpc', figures };
}
