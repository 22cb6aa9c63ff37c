/**
 * The coordinator of a campaign on a queue (`npm run sim -- campaign --queue redis://...`): records the campaign in
 * Redis, enqueues its seeds as BullMQ jobs of a range each, follows the results the workers (queueWorker.ts) store
 * with the local campaign's progress bar, and writes the same files as a local campaign through the same code
 * (`writeCampaignOutputs`). Exempt from the determinism lint (network, wall clock, files).
 *
 * Results are keyed by seed in Redis, so a job that ran twice (a worker killed mid-job, its job retried elsewhere)
 * counts each seed once, and a coordinator that stopped picks the campaign up again with `--resume`: it reads every
 * result from the start, and enqueues again only the ranges that still lack some.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  CAMPAIGN_JOB_ATTEMPTS,
  CAMPAIGN_JOB_FORMAT,
  CAMPAIGN_RESULTS_TTL_SECONDS,
  QUEUE_KEY_PREFIX,
  campaignJobId,
  campaignKeys,
  campaignsKey,
  markCampaignDone,
  newCampaignId,
  readArrivedRuns,
  readCampaignRecord,
  seedRanges,
  storedSeeds,
  writeCampaignRecord,
  type CampaignJobData,
  type CampaignKeys,
  type CampaignRecord,
  type SeedRange,
} from './campaignQueue.js';
import { CampaignQueueError } from './campaignQueueError.js';
import { failureRecord, openFailureDatabase, type FailureDatabase } from './failureDatabase.js';
import { createProgressBar, formatSeconds, type ProgressStream } from './progressBar.js';
import { displayQueueUrl, openQueueConnection, probeQueue, queueClientName } from './queueConnection.js';
import { codeIdentity, writeCampaignOutputs, type CampaignOutcome } from './runCampaign.js';
import { CampaignTally } from './campaignTally.js';

/** The file in the out dir that names the campaign, so that `--resume` finds it from the out dir alone. */
export const CAMPAIGN_FILE = 'campaign.json';
/** How often the coordinator reads new results. */
const COORDINATOR_POLL_INTERVAL_MS = 500;
/** How often it looks for refusing workers and failed jobs. */
const COORDINATOR_CHECK_INTERVAL_MS = 2_000;
/** Jobs added per round trip. */
const ENQUEUE_BATCH = 500;
/** Failed jobs the coordinator reads per check (the newest). */
const FAILED_JOBS_READ_MAX = 1_000;

export interface QueuedCampaignOptions {
  readonly queueUrl: string;
  readonly queueName: string;
  readonly from: bigint;
  readonly seeds: number;
  readonly simulatedSeconds: number;
  readonly seedsPerJob: number;
  readonly outDir: string;
  /** A campaign id to resume, or true to resume the one the out dir names; undefined for a new campaign. */
  readonly resume: string | true | undefined;
  readonly progress: ProgressStream | null;
  /** Where the coordinator's notes go (a lost connection, a refusing worker, a failed job). */
  readonly log: (line: string) => void;
}

export type QueuedCampaignOutcome = CampaignOutcome & { readonly campaignId: string };

export function createCampaignQueue(redis: Redis, queueName: string): Queue {
  const queue = new Queue(queueName, { connection: redis, prefix: QUEUE_KEY_PREFIX });
  // Connection trouble is reported once by the connection's own watcher (queueConnection.ts).
  queue.on('error', () => undefined);
  return queue;
}

function jobOf(record: CampaignRecord, range: SeedRange) {
  const data: CampaignJobData = {
    format: CAMPAIGN_JOB_FORMAT,
    campaignId: record.id,
    from: range.from.toString(),
    count: range.count,
    simulatedSeconds: record.simulatedSeconds,
    commit: record.commit,
    worktreeDirty: record.worktreeDirty,
    codeFingerprint: record.codeFingerprint,
  };
  return {
    name: 'seeds',
    data,
    opts: {
      jobId: campaignJobId(record.id, range.from),
      attempts: CAMPAIGN_JOB_ATTEMPTS,
      backoff: { type: 'fixed', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: { age: CAMPAIGN_RESULTS_TTL_SECONDS },
    },
  };
}

/** Enqueues the ranges that lack a result: new jobs, or a retry of those that failed for good. */
async function enqueueMissing(
  queue: Queue,
  record: CampaignRecord,
  stored: ReadonlySet<string>,
  resuming: boolean,
): Promise<number> {
  const ranges = seedRanges(record.from, record.seeds, record.seedsPerJob).filter((range) =>
    Array.from({ length: range.count }, (_, i) => range.from + BigInt(i)).some((s) => !stored.has(s.toString())),
  );
  let enqueued = 0;
  for (let i = 0; i < ranges.length; i += ENQUEUE_BATCH) {
    const batch = ranges.slice(i, i + ENQUEUE_BATCH);
    const fresh: SeedRange[] = [];
    for (const range of batch) {
      const job = !resuming ? undefined : await queue.getJob(campaignJobId(record.id, range.from));
      if (job === undefined) fresh.push(range);
      else if ((await job.getState()) === 'failed') await job.retry('failed');
    }
    await queue.addBulk(fresh.map((range) => jobOf(record, range)));
    enqueued += batch.length;
  }
  return enqueued;
}

async function campaignIdToResume(options: QueuedCampaignOptions): Promise<string> {
  if (typeof options.resume === 'string') return options.resume;
  const file = path.join(options.outDir, CAMPAIGN_FILE);
  try {
    const named = JSON.parse(await readFile(file, 'utf8')) as { id?: unknown };
    if (typeof named.id === 'string') return named.id;
  } catch {
    // Reported below.
  }
  throw new CampaignQueueError(
    'CAMPAIGN_NOT_FOUND',
    `no campaign to resume: ${file} does not name one; give its id (--resume <id>, see campaign --status)`,
    { file },
  );
}

async function openCampaign(redis: Redis, options: QueuedCampaignOptions): Promise<CampaignRecord> {
  if (options.resume !== undefined) {
    const id = await campaignIdToResume(options);
    const record = await readCampaignRecord(redis, options.queueName, id);
    if (record === undefined)
      throw new CampaignQueueError(
        'CAMPAIGN_NOT_FOUND',
        `the queue ${options.queueName} at ${displayQueueUrl(options.queueUrl)} has no campaign ${id} (finished campaigns are kept ${CAMPAIGN_RESULTS_TTL_SECONDS / 86_400} days)`,
        { id },
      );
    return record;
  }
  const record: CampaignRecord = {
    id: newCampaignId(randomBytes(6).toString('hex')),
    ...codeIdentity(),
    from: options.from,
    seeds: options.seeds,
    simulatedSeconds: options.simulatedSeconds,
    seedsPerJob: options.seedsPerJob,
    createdAtMs: Date.now(),
    status: 'running',
  };
  await writeCampaignRecord(redis, options.queueName, record);
  return record;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a campaign through the queue (new, or resumed) and writes its files once every seed has a result. */
export async function runQueuedCampaign(options: QueuedCampaignOptions): Promise<QueuedCampaignOutcome> {
  await probeQueue(options.queueUrl);
  const redis = openQueueConnection(options.queueUrl, options.log, queueClientName(options.queueName, 'coordinator'));
  const queue = createCampaignQueue(redis, options.queueName);
  try {
    const record = await openCampaign(redis, options);
    await mkdir(options.outDir, { recursive: true });
    await writeFile(
      path.join(options.outDir, CAMPAIGN_FILE),
      `${JSON.stringify({ id: record.id, queueName: options.queueName, queueUrl: displayQueueUrl(options.queueUrl) }, null, 2)}\n`,
      'utf8',
    );
    const enqueued = await enqueueMissing(
      queue,
      record,
      await storedSeeds(redis, campaignKeys(options.queueName, record.id)),
      options.resume !== undefined,
    );
    options.log(
      `campaign ${record.id}: seeds ${record.from}..${record.from + BigInt(record.seeds - 1)} on ${options.queueName} at ${displayQueueUrl(options.queueUrl)}, ${enqueued} jobs of ${record.seedsPerJob} seeds enqueued; start workers with: npm run sim -- worker --queue ${displayQueueUrl(options.queueUrl)}${options.queueName === 'sim-campaign' ? '' : ` --queue-name ${options.queueName}`}`,
    );
    const tally = await followCampaign(redis, queue, record, options);
    return { ...(await finishCampaign(redis, record, tally, options)), campaignId: record.id };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** Which seeds of a campaign's range have a result: one byte per seed, so a million seeds cost a megabyte. */
class SeedSet {
  private readonly present: Uint8Array;
  size = 0;

  constructor(
    private readonly from: bigint,
    seeds: number,
  ) {
    this.present = new Uint8Array(seeds);
  }

  has(seed: bigint): boolean {
    const offset = Number(seed - this.from);
    return offset >= 0 && offset < this.present.length && this.present[offset] === 1;
  }

  /** Adds a seed of the range; false when it was there already or lies outside the range. */
  add(seed: bigint): boolean {
    const offset = Number(seed - this.from);
    if (offset < 0 || offset >= this.present.length || this.present[offset] === 1) return false;
    this.present[offset] = 1;
    this.size++;
    return true;
  }
}

interface FollowState {
  readonly seen: SeedSet;
  readonly tally: CampaignTally;
  offset: number;
  readonly refusalsSeen: Set<string>;
  readonly failedJobsSeen: Set<string>;
  /** The queue's failed-job count at the last read, and the first seeds of this campaign's failed jobs then. */
  failedCount: number;
  failedRangeStarts: bigint[];
}

/** Reads results as they arrive until every seed has one; checks for refusals and failed jobs on the way. */
async function followCampaign(
  redis: Redis,
  queue: Queue,
  record: CampaignRecord,
  options: QueuedCampaignOptions,
): Promise<CampaignTally> {
  const keys = campaignKeys(options.queueName, record.id);
  const progress = createProgressBar('campaign', record.seeds, options.progress);
  const state: FollowState = {
    seen: new SeedSet(record.from, record.seeds),
    tally: new CampaignTally({ from: record.from, seeds: record.seeds }),
    offset: 0,
    refusalsSeen: new Set(),
    failedJobsSeen: new Set(),
    failedCount: 0,
    failedRangeStarts: [],
  };
  let lastCheckMs = Number.NEGATIVE_INFINITY;
  const { tally } = state;
  while (state.seen.size < record.seeds) {
    const { runs, nextOffset } = await readArrivedRuns(redis, keys, state.offset);
    state.offset = nextOffset;
    for (const run of runs) if (state.seen.add(run.seed)) tally.add(run);
    if (runs.length > 0)
      progress.update({ done: tally.runs, failed: tally.failed, simulatedSeconds: tally.simulatedSeconds });
    if (state.seen.size >= record.seeds) break;
    if (performance.now() - lastCheckMs >= COORDINATOR_CHECK_INTERVAL_MS) {
      lastCheckMs = performance.now();
      await reportRefusals(redis, keys.refusals, state, options.log);
      await checkFailedJobs(queue, record, state, options.log);
    }
    if (runs.length === 0) await sleep(COORDINATOR_POLL_INTERVAL_MS);
  }
  progress.finish();
  // Once more at the end, so that refusals and failed jobs seen late (or by a run that had everything at once) show.
  await reportRefusals(redis, keys.refusals, state, options.log);
  await checkFailedJobs(queue, record, state, options.log);
  return tally;
}

async function reportRefusals(
  redis: Redis,
  refusalsKey: string,
  state: FollowState,
  log: (line: string) => void,
): Promise<void> {
  for (const [worker, reason] of Object.entries(await redis.hgetall(refusalsKey))) {
    if (state.refusalsSeen.has(worker)) continue;
    state.refusalsSeen.add(worker);
    log(`campaign: a worker with other code was seen and refused the campaign's jobs: ${worker}: ${reason}`);
  }
}

/**
 * Reports failed jobs once each (this campaign's, and any whose payload is not a campaign job); throws
 * CAMPAIGN_JOBS_FAILED when every seed still missing belongs to a job that failed for good (nothing else will come).
 */
async function checkFailedJobs(
  queue: Queue,
  record: CampaignRecord,
  state: FollowState,
  log: (line: string) => void,
): Promise<void> {
  const failedCount = await queue.getFailedCount();
  if (failedCount !== state.failedCount) {
    state.failedCount = failedCount;
    state.failedRangeStarts = await readFailedJobs(queue, record, state, log);
  }
  const end = record.from + BigInt(record.seeds);
  let missingInFailed = 0;
  for (const from of state.failedRangeStarts) {
    for (let seed = from; seed < from + BigInt(record.seedsPerJob) && seed < end; seed++)
      if (!state.seen.has(seed)) missingInFailed++;
  }
  const missing = record.seeds - state.seen.size;
  if (missing > 0 && missingInFailed >= missing)
    throw new CampaignQueueError(
      'CAMPAIGN_JOBS_FAILED',
      `campaign ${record.id}: the jobs of the ${missing} seeds still missing failed for good (see above); fix the cause and run the campaign again with --resume ${record.id}`,
      { id: record.id, missing },
    );
}

/** Logs each failed job not seen before; returns the first seeds of this campaign's failed jobs. */
async function readFailedJobs(
  queue: Queue,
  record: CampaignRecord,
  state: FollowState,
  log: (line: string) => void,
): Promise<bigint[]> {
  const prefix = `${record.id}-`;
  const starts: bigint[] = [];
  for (const job of await queue.getJobs(['failed'], 0, FAILED_JOBS_READ_MAX - 1)) {
    const id = job.id ?? '';
    const ours = id.startsWith(prefix);
    const unparsable = job.failedReason?.includes('not a campaign job') === true;
    if (!ours && !unparsable) continue;
    if (!state.failedJobsSeen.has(id)) {
      state.failedJobsSeen.add(id);
      log(`campaign: job ${id} failed after ${job.attemptsMade} attempts: ${job.failedReason ?? 'no reason given'}`);
    }
    if (ours && /^\d+$/.test(id.slice(prefix.length))) starts.push(BigInt(id.slice(prefix.length)));
  }
  return starts;
}

async function finishCampaign(
  redis: Redis,
  record: CampaignRecord,
  tally: CampaignTally,
  options: QueuedCampaignOptions,
): Promise<CampaignOutcome> {
  const keys = campaignKeys(options.queueName, record.id);
  const database = openFailureDatabase(path.join(options.outDir, 'failures.jsonl'));
  // A campaign resumed after it had finished already put its failures in the database: write them once.
  if (record.status !== 'done' && tally.failed > 0) await appendFailures(redis, record, keys, database);
  const workers = await redis.scard(keys.workers);
  const context = {
    from: record.from,
    seeds: record.seeds,
    simulatedSecondsPerRun: record.simulatedSeconds,
    workers,
    commit: record.commit,
    worktreeDirty: record.worktreeDirty,
  };
  const outcome = await writeCampaignOutputs(context, tally, Date.now() - record.createdAtMs, options.outDir, database);
  await markCampaignDone(redis, options.queueName, record.id);
  return outcome;
}

/**
 * Appends every failing run to the failing-seed database, reading the stored results again in batches (in the order
 * they arrived) rather than holding them: only once all are in, so that a coordinator stopped and resumed half-way
 * writes each failure once.
 */
async function appendFailures(
  redis: Redis,
  record: CampaignRecord,
  keys: CampaignKeys,
  database: FailureDatabase,
): Promise<void> {
  const recordedAt = new Date().toISOString();
  for (let offset = 0; ;) {
    const { runs, nextOffset } = await readArrivedRuns(redis, keys, offset);
    if (runs.length === 0) return;
    offset = nextOffset;
    for (const run of runs) if (run.failures.length > 0) database.append(failureRecord(run, record, recordedAt));
    await database.flushed();
  }
}

/** `campaign --status`: one paragraph per running campaign, then the queue's job counts. */
export async function showCampaignStatus(
  queueUrl: string,
  queueName: string,
  write: (line: string) => void,
): Promise<number> {
  await probeQueue(queueUrl);
  const redis = openQueueConnection(queueUrl, write, queueClientName(queueName, 'status'));
  const queue = createCampaignQueue(redis, queueName);
  try {
    const ids = (await redis.smembers(campaignsKey(queueName))).sort();
    if (ids.length === 0) write(`no running campaigns on ${queueName} at ${displayQueueUrl(queueUrl)}`);
    for (const id of ids) await writeCampaignStatus(redis, queueName, id, write);
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
    write(
      `queue ${queueName}: ${Object.entries(counts)
        .map(([state, count]) => `${state} ${count}`)
        .join(', ')}`,
    );
    return ids.length;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

async function writeCampaignStatus(
  redis: Redis,
  queueName: string,
  id: string,
  write: (line: string) => void,
): Promise<void> {
  const record = await readCampaignRecord(redis, queueName, id);
  if (record === undefined) return write(`campaign ${id}: no record (expired?)`);
  const keys = campaignKeys(queueName, id);
  const [done, failedRuns, workers, refusals] = await Promise.all([
    redis.hlen(keys.runs),
    redis.hget(keys.record, 'failedRuns'),
    redis.smembers(keys.workers),
    redis.hgetall(keys.refusals),
  ]);
  const last = record.from + BigInt(record.seeds - 1);
  const code = `commit ${record.commit.slice(0, 12)}${record.codeFingerprint === 'clean' ? '' : ` + changes ${record.codeFingerprint}`}`;
  write(
    `campaign ${id}: ${done}/${record.seeds} seeds done (${Number(failedRuns ?? 0)} failing), seeds ${record.from}..${last}, ${record.simulatedSeconds} simulated s each, ${code}, ${workers.length} workers seen, running ${formatSeconds((Date.now() - record.createdAtMs) / 1000)}`,
  );
  for (const [worker, reason] of Object.entries(refusals)) write(`  refused by ${worker}: ${reason}`);
}
