/**
 * A campaign queue worker (`npm run sim -- worker --queue redis://...`): takes jobs (a range of one campaign's
 * seeds each) with BullMQ, runs their seeds on this machine's worker threads (threadPool.ts over campaignWorker.ts),
 * and stores each seed's run in Redis as soon as it is in (campaignQueue.ts). Exempt from the determinism lint
 * (network, threads, wall clock, signals through its caller).
 *
 * - A job of a campaign whose code (commit and fingerprint of uncommitted changes) is not this checkout's is
 *   refused: put back for a matching worker, the refusal recorded for the coordinator, and this worker stops.
 * - A job whose payload is not a campaign job fails at once, without retries (BullMQ's UnrecoverableError).
 * - A killed worker's job is retried elsewhere once its lock expires (BullMQ's stalled-job check); the retry skips
 *   the seeds that already have a run.
 * - Stopping (the signal aborts): each running job gives itself back after its current seed; nothing is lost.
 * - Without `forever`, the worker stops once the queue has had no waiting, delayed or active job for
 *   WORKER_IDLE_EXIT_MS.
 */
import os from 'node:os';
import { DelayedError, Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  QUEUE_KEY_PREFIX,
  campaignKeys,
  hasCampaignRun,
  parseCampaignJobData,
  recordRefusal,
  storeCampaignRun,
  type CampaignJobData,
  type CodeIdentity,
  readCampaignRecord,
} from './campaignQueue.js';
import type { CampaignRun } from './campaignRun.js';
import { runAsStored, type TallyRange } from './campaignTally.js';
import { openQueueConnection, probeQueue, queueClientName } from './queueConnection.js';
import { codeIdentity } from './runCampaign.js';
import { openThreadPool, type ThreadPool } from './threadPool.js';

/**
 * A job's lock: a worker that stops renewing it (killed, cut off) loses the job to the stalled-job check after this
 * long. Renewals run on the main thread, which the simulation (on worker threads) leaves free.
 */
export const QUEUE_JOB_LOCK_MS = 10_000;
/** How often a worker looks for stalled jobs (those whose lock expired) and puts them back. */
export const QUEUE_STALLED_CHECK_INTERVAL_MS = 5_000;
/** Times a job may stall (its worker killed or cut off) before it fails for good. */
export const QUEUE_JOB_STALLS_MAX = 5;
/** How long the queue must stay empty before a worker without `forever` stops. */
export const WORKER_IDLE_EXIT_MS = 3_000;
const WORKER_IDLE_CHECK_INTERVAL_MS = 1_000;
/** A refused job waits this long before a worker may take it again (so the refusing one is gone by then). */
const REFUSED_JOB_DELAY_MS = 2_000;
/** Shortest gap between two logged worker errors (a Redis outage raises one per command). */
const WORKER_ERROR_LOG_INTERVAL_MS = 10_000;

export interface QueueWorkerOptions {
  readonly queueUrl: string;
  readonly queueName: string;
  readonly threads: number;
  /** Keep waiting for jobs when the queue is empty (stop only on the signal). */
  readonly forever: boolean;
  readonly log: (line: string) => void;
  /** Aborted to stop: running jobs give themselves back after their current seed. */
  readonly signal?: AbortSignal;
}

export interface QueueWorkerOutcome {
  readonly jobsDone: number;
  readonly seedsRun: number;
  /** Set when the worker stopped because it refused a campaign whose code is not its own. */
  readonly refusal?: string;
  /** Set when the worker stopped because its threads cannot run seeds. */
  readonly fatal?: string;
}

export function sameCode(a: CodeIdentity, b: CodeIdentity): boolean {
  return a.commit === b.commit && a.codeFingerprint === b.codeFingerprint;
}

function describeCode(code: CodeIdentity): string {
  return `commit ${code.commit}${code.codeFingerprint === 'clean' ? ' without uncommitted changes' : ` with uncommitted changes ${code.codeFingerprint}`}`;
}

export function refusalMessage(worker: string, own: CodeIdentity, job: CampaignJobData): string {
  return `worker ${worker} refuses campaign ${job.campaignId}: the campaign runs ${describeCode(job)}, this worker's checkout is ${describeCode(own)}. Check out the campaign's code (same commit, same changes) and start the worker again.`;
}

interface WorkerState {
  readonly name: string;
  readonly identity: CodeIdentity;
  readonly redis: Redis;
  readonly pool: ThreadPool;
  readonly options: QueueWorkerOptions;
  stopping: boolean;
  jobsDone: number;
  seedsRun: number;
  refusal: string | undefined;
  fatal: string | undefined;
  /** Campaigns' seed ranges by id, as read from their records. */
  readonly ranges: Map<string, TallyRange | undefined>;
  stop: () => void;
}

/** The seed range of a campaign, from its record (read once per campaign); undefined when the record is gone. */
async function campaignRange(state: WorkerState, campaignId: string): Promise<TallyRange | undefined> {
  if (!state.ranges.has(campaignId)) {
    const record = await readCampaignRecord(state.redis, state.options.queueName, campaignId);
    state.ranges.set(campaignId, record === undefined ? undefined : { from: record.from, seeds: record.seeds });
  }
  return state.ranges.get(campaignId);
}

/** Runs one job's seeds, skipping those already stored; gives the job back if the worker is stopping. */
async function processJob(state: WorkerState, job: Job, token: string | undefined): Promise<{ ran: number }> {
  let data: CampaignJobData;
  try {
    data = parseCampaignJobData(job.data);
  } catch (error) {
    throw new UnrecoverableError((error as Error).message);
  }
  if (!sameCode(state.identity, data)) {
    const message = refusalMessage(state.name, state.identity, data);
    await recordRefusal(state.redis, campaignKeys(state.options.queueName, data.campaignId), state.name, message);
    if (state.refusal === undefined) state.options.log(message);
    state.refusal = message;
    await job.moveToDelayed(Date.now() + REFUSED_JOB_DELAY_MS, token);
    state.stop();
    throw new DelayedError();
  }
  const keys = campaignKeys(state.options.queueName, data.campaignId);
  const range = await campaignRange(state, data.campaignId);
  let ran = 0;
  for (let i = 0; i < data.count; i++) {
    if (state.stopping) {
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const seed = BigInt(data.from) + BigInt(i);
    if (await hasCampaignRun(state.redis, keys, seed)) continue;
    let run: CampaignRun;
    try {
      run = await state.pool.run(seed, data.simulatedSeconds);
    } catch (error) {
      // The threads cannot run at all (a thread dies before it is ready: a broken checkout). Failing the job would
      // burn it, and every later one: give it back for a healthy worker, and stop.
      if (state.fatal === undefined) state.options.log(`campaign worker: ${(error as Error).message}; stopping`);
      state.fatal ??= (error as Error).message;
      await job.moveToWait(token);
      state.stop();
      throw new WaitingError();
    }
    await storeCampaignRun(state.redis, keys, range === undefined ? run : runAsStored(range, run), state.name);
    ran++;
    state.seedsRun++;
  }
  state.jobsDone++;
  return { ran };
}

/** Takes jobs until the queue stays empty (or forever), or the signal aborts; resolves once everything is closed. */
export async function runQueueWorker(options: QueueWorkerOptions): Promise<QueueWorkerOutcome> {
  await probeQueue(options.queueUrl);
  const name = `${os.hostname()}:${process.pid}`;
  const clientName = queueClientName(options.queueName, `worker:${name}`);
  const redis = openQueueConnection(options.queueUrl, options.log, clientName);
  const workerConnection = openQueueConnection(options.queueUrl, () => undefined, clientName);
  const queue = new Queue(options.queueName, { connection: redis, prefix: QUEUE_KEY_PREFIX });
  queue.on('error', () => undefined);
  const pool = openThreadPool(options.threads);
  let stopped: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const state: WorkerState = {
    name,
    identity: codeIdentity(),
    redis,
    pool,
    options,
    stopping: false,
    jobsDone: 0,
    seedsRun: 0,
    refusal: undefined,
    fatal: undefined,
    ranges: new Map(),
    stop: () => void stop(),
  };
  const worker = new Worker(options.queueName, (job, token) => processJob(state, job, token), {
    connection: workerConnection,
    prefix: QUEUE_KEY_PREFIX,
    name,
    concurrency: options.threads,
    lockDuration: QUEUE_JOB_LOCK_MS,
    stalledInterval: QUEUE_STALLED_CHECK_INTERVAL_MS,
    maxStalledCount: QUEUE_JOB_STALLS_MAX,
    drainDelay: 1,
  });
  let lastErrorLogMs = Number.NEGATIVE_INFINITY;
  worker.on('error', (error) => {
    if (performance.now() - lastErrorLogMs < WORKER_ERROR_LOG_INTERVAL_MS) return;
    lastErrorLogMs = performance.now();
    options.log(`campaign worker: ${error.message} (retrying)`);
  });
  const idle = watchIdle(queue, options, () => void stop());
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      state.stopping = true;
      clearInterval(idle);
      await worker.close();
      await pool.close();
      await queue.close();
      redis.disconnect();
      workerConnection.disconnect();
      markClosed();
    })());
  options.signal?.addEventListener('abort', () => void stop(), { once: true });
  if (options.signal?.aborted === true) void stop();
  options.log(
    `campaign worker ${name}: ${options.threads} threads on queue ${options.queueName}, ${describeCode(state.identity)}`,
  );
  await closed;
  return {
    jobsDone: state.jobsDone,
    seedsRun: state.seedsRun,
    ...(state.refusal !== undefined ? { refusal: state.refusal } : {}),
    ...(state.fatal !== undefined ? { fatal: state.fatal } : {}),
  };
}

/** Stops the worker (through `stop`) once the queue has had nothing to do for WORKER_IDLE_EXIT_MS. */
function watchIdle(queue: Queue, options: QueueWorkerOptions, stop: () => void): NodeJS.Timeout {
  let idleSinceMs: number | undefined;
  let checking = false;
  return setInterval(() => {
    if (options.forever || checking) return;
    checking = true;
    void queue
      .getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children')
      .then((counts) => {
        const pending = Object.values(counts).reduce((sum, n) => sum + n, 0);
        if (pending > 0) idleSinceMs = undefined;
        else idleSinceMs ??= performance.now();
        if (idleSinceMs !== undefined && performance.now() - idleSinceMs >= WORKER_IDLE_EXIT_MS) stop();
      })
      .catch(() => (idleSinceMs = undefined))
      .finally(() => (checking = false));
  }, WORKER_IDLE_CHECK_INTERVAL_MS);
}
