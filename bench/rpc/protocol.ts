/**
 * Messages and settings shared by the RPC benchmark's processes: the orchestrator (bench.ts, inside `npm run bench`),
 * one server child per target (serverChild.ts; anvil is its own binary) and the load-generator child
 * (loadGenerator.ts). Each runs in its own process so that the CPU time of a server is its own, measured the same
 * way for our server, the bare baseline and anvil.
 */
import { readFileSync } from 'node:fs';

/**
 * Node servers the benchmark starts in a child: ours (startRpcServers: fast path, Express for the rest, dispatcher,
 * zod), the bare node:http baseline, and `express` (createRpcApp alone: what the fast path saves; opt-in).
 */
export type NodeServerKind = 'ours' | 'bare' | 'express';
export type TargetKind = NodeServerKind | 'anvil';

/** CPU time of a process, microseconds, split as the kernel accounts it. */
export interface CpuTime {
  readonly user: number;
  readonly system: number;
}

/** The block number the benchmark's node (and the bare baseline) answer: a cached value, as a synced node has. */
export const CACHED_BLOCK_NUMBER = 12_345;

// --- server child <-> orchestrator ---

export type ServerChildMessage =
  | { readonly type: 'ready'; readonly url: string }
  /** process.cpuUsage() of the server child, in microseconds, answering a `cpu` request. */
  | { readonly type: 'cpu'; readonly seq: number; readonly userMicros: number; readonly systemMicros: number };

export type ServerChildCommand = { readonly type: 'cpu'; readonly seq: number } | { readonly type: 'shutdown' };

// --- load generator <-> orchestrator ---

export interface LoadConfig {
  readonly url: string;
  /** The JSON-RPC method every request calls (params: []). */
  readonly method: string;
  readonly connections: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Requests started in one run, at most (a bound, far above what the duration allows). */
  readonly requestsMax: number;
  /** No completed request for this long aborts the run. */
  readonly stallMs: number;
}

export interface LoadResult {
  /** Requests completed inside the measurement window. */
  readonly completed: number;
  /** Of those, answers that were not HTTP 200 with a JSON-RPC `result` and the request's id. */
  readonly errors: number;
  readonly windowMs: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** CPU time of the load generator inside the window. */
  readonly cpu: CpuTime;
  /** Sockets the agent opened over the whole run (keep-alive: should equal `connections`). */
  readonly socketsOpened: number;
  /** One raw answer, for the record. */
  readonly sampleBody: string;
  readonly firstError?: string;
}

export type LoadMessage =
  | { readonly type: 'measureStart' }
  | { readonly type: 'measureEnd' }
  | { readonly type: 'result'; readonly result: LoadResult }
  | { readonly type: 'failed'; readonly message: string };

/** The child's JSON config is passed as its only argument. */
export function parseConfigArg<T>(argv: readonly string[]): T {
  const raw = argv[2];
  if (raw === undefined) throw new Error('missing the JSON config argument');
  return JSON.parse(raw) as T;
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ; `getconf CLK_TCK` is 100 on Linux x86-64 and arm64

/** utime and stime of a process (all its threads) from /proc/<pid>/stat; undefined off Linux. */
export function procCpuTime(pid: number): CpuTime | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so utime (field 14) is fields[11] and stime (field 15) fields[12].
  const [user, system] = [Number(fields[11]), Number(fields[12])];
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  const micros = (ticks: number) => (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  return { user: micros(user), system: micros(system) };
}

/** Busy and total jiffies of the whole machine, from /proc/stat; undefined off Linux. */
export function machineJiffies(): { readonly busy: number; readonly total: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  const line = stat.split('\n', 1)[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  if (values.length < 5 || values.some((v) => !Number.isFinite(v))) return undefined;
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0); // user nice system idle iowait irq softirq steal
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}
