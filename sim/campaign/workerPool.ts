/**
 * Runs seeds on worker threads. Exempt from the determinism lint: it starts threads and reads no simulated state.
 *
 * Each worker belongs to a lane and takes jobs of its lane only, one at a time. A campaign uses one lane; the
 * determinism check uses two, so the two runs of a seed always happen in two different threads.
 */
import { Worker } from 'node:worker_threads';
import { crashedRun, type CampaignRun } from './campaignRun.js';

/**
 * Young-generation size of each campaign worker (MB): V8's default semi-spaces (16 MB) fill within milliseconds of
 * a run, whose garbage is nearly all short-lived; 64 MB semi-spaces (a 192 MB young generation) halve the scavenges
 * (measured: the 4-node steady bench about 4% faster, swarm seeds about 1%). The npm scripts `sim` and `bench` give
 * their main thread the same (--max-semi-space-size=64).
 */
export const SIM_YOUNG_GENERATION_MB = 192;

export type WorkerRequest =
  | { readonly type: 'run'; readonly jobId: number; readonly seed: bigint; readonly simulatedSeconds: number }
  | { readonly type: 'stop' };

export type WorkerReply =
  { readonly type: 'ready' } | { readonly type: 'done'; readonly jobId: number; readonly run: CampaignRun };

export interface CampaignJob {
  readonly seed: bigint;
  readonly simulatedSeconds: number;
  /** Which lane runs it (0 when there is one lane). */
  readonly lane: number;
}

export interface WorkerPoolOptions {
  readonly workers: number;
  /** Default 1. Workers are dealt to lanes round robin; there are at least as many workers as lanes. */
  readonly lanes?: number;
  readonly onDone: (job: CampaignJob, run: CampaignRun) => void;
}

interface QueuedJob {
  readonly id: number;
  readonly job: CampaignJob;
}

/** Whether an `--import` preload is a TypeScript loader: tsx, or sim/tsLoader/register.mjs, which the bootstrap registers. */
function isTypeScriptLoader(module: string): boolean {
  return module === 'tsx' || module.startsWith('tsx/') || module.endsWith('tsLoader/register.mjs');
}

/**
 * The `--import` preloads of NODE_OPTIONS other than the TypeScript loaders, for a worker thread's execArgv. Threads
 * start with `execArgv: []` (the young generation is set through resourceLimits, and the bootstrap registers the
 * project's own TypeScript hooks, sim/tsLoader, which make tsx unneeded there),
 * which also drops the process's NODE_OPTIONS: a module preloaded that way (a test's module hook, a profiler)
 * reaches the threads only when passed explicitly. Whitespace separates arguments (no quoting).
 */
export function threadExecArgv(nodeOptions: string | undefined = process.env.NODE_OPTIONS): string[] {
  const words = (nodeOptions ?? '').split(/\s+/).filter((w) => w !== '');
  const preloads: string[] = [];
  words.forEach((word, i) => {
    const module = word === '--import' ? words[i + 1] : word.startsWith('--import=') ? word.slice(9) : undefined;
    if (module !== undefined && !isTypeScriptLoader(module)) preloads.push('--import', module);
  });
  return preloads;
}

/**
 * The worker's entry. From source (this file is .ts) a plain .mjs bootstrap registers the module hooks and loads the
 * TypeScript entry; from a build the compiled entry runs directly.
 */
export function workerEntry(): { url: URL; workerData: unknown } {
  const own = import.meta.url;
  if (own.endsWith('.ts'))
    return {
      url: new URL('./workerBootstrap.mjs', own),
      workerData: { entryUrl: new URL('./campaignWorker.ts', own).href },
    };
  return { url: new URL('./campaignWorker.js', own), workerData: {} };
}

/** Starts one campaign thread (campaignWorker.ts): the entry, the preloads and the young generation every pool uses. */
export function startCampaignThread(): Worker {
  const entry = workerEntry();
  return new Worker(entry.url, {
    workerData: entry.workerData,
    execArgv: threadExecArgv(),
    resourceLimits: { maxYoungGenerationSizeMb: SIM_YOUNG_GENERATION_MB },
  });
}

/** How many workers each lane gets: the requested count dealt round robin, none beyond a lane's job count. */
function workersPerLane(jobs: readonly CampaignJob[], workers: number, lanes: number): number[] {
  return Array.from({ length: lanes }, (_, lane) => {
    const dealt = Math.floor(workers / lanes) + (lane < workers % lanes ? 1 : 0);
    return Math.min(Math.max(1, dealt), jobs.filter((j) => j.lane === lane).length);
  });
}

/** Runs every job; resolves when each has a result, rejects only when a worker cannot start at all. */
export function runJobsOnWorkers(jobs: readonly CampaignJob[], options: WorkerPoolOptions): Promise<void> {
  const lanes = options.lanes ?? 1;
  const queues = Array.from({ length: lanes }, (_, lane) =>
    jobs.map((job, id) => ({ id, job })).filter((q) => q.job.lane === lane),
  );
  const live = new Set<Worker>();
  let remaining = jobs.length;
  let respawnsLeft = jobs.length;
  let settled = false;
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      void Promise.all([...live].map((w) => w.terminate())).then(() => (error ? reject(error) : resolve()));
    };
    const finish = (queued: QueuedJob, run: CampaignRun) => {
      options.onDone(queued.job, run);
      if (--remaining === 0) settle();
    };
    const spawn = (lane: number): void => {
      const worker = startCampaignThread();
      live.add(worker);
      let ready = false;
      let current: QueuedJob | undefined;
      let lastError: Error | undefined;
      let startedMs = 0;
      const next = () => {
        current = queues[lane]!.shift();
        if (current === undefined) return worker.postMessage({ type: 'stop' } satisfies WorkerRequest);
        startedMs = performance.now();
        const { seed, simulatedSeconds } = current.job;
        worker.postMessage({ type: 'run', jobId: current.id, seed, simulatedSeconds } satisfies WorkerRequest);
      };
      worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') ready = true;
        else if (current !== undefined && reply.jobId === current.id) finish(current, reply.run);
        next();
      });
      worker.on('error', (error) => (lastError = error));
      worker.on('exit', (code) => {
        live.delete(worker);
        if (settled) return;
        if (!ready)
          return settle(
            new Error(
              `a campaign worker exited (code ${code}) before it was ready: ${lastError?.stack ?? 'no error reported'}`,
            ),
          );
        if (current === undefined) return;
        const detail = `worker thread died (exit code ${code}): ${lastError?.message ?? 'no error reported'}`;
        finish(
          current,
          crashedRun(current.job.seed, current.job.simulatedSeconds, detail, performance.now() - startedMs),
        );
        if (queues[lane]!.length === 0) return;
        if (respawnsLeft-- > 0) return spawn(lane);
        // Workers keep dying: give up on this lane's remaining seeds rather than wait for them forever.
        for (const left of queues[lane]!.splice(0))
          finish(left, crashedRun(left.job.seed, left.job.simulatedSeconds, `not run: ${detail}`, 0));
      });
    };
    if (jobs.length === 0) return settle();
    workersPerLane(jobs, Math.max(options.workers, lanes), lanes).forEach((count, lane) => {
      for (let i = 0; i < count; i++) spawn(lane);
    });
  });
}
