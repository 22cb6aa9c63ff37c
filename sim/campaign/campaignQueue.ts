/**
 * What a campaign on a queue keeps in Redis, beside BullMQ's own keys: the campaign's record, its results keyed by
 * seed, the order they arrived in, the workers that produced them and those that refused the campaign. Exempt from
 * the determinism lint (network, compression, git). Both sides use it: the coordinator (queueCoordinator.ts) and the
 * workers (queueWorker.ts).
 *
 * Under the queue name `q` (BullMQ's keys are `sim:q:*`):
 * - `sim:q:campaigns`: the set of running campaign ids (what `campaign --status` lists);
 * - `sim:q:campaign:<id>`: the record (hash);
 * - `sim:q:campaign:<id>:runs`: seed -> gzipped run JSON (hash; HSETNX, so a seed is stored once however often it
 *   runs);
 * - `sim:q:campaign:<id>:arrivals`: seeds in the order their first result arrived (list; the coordinator reads it
 *   from an offset, and from 0 again when it resumes);
 * - `sim:q:campaign:<id>:workers`: names of the workers that stored a result (set);
 * - `sim:q:campaign:<id>:refusals`: worker name -> why it refused the campaign's jobs (hash).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import type { CampaignRun } from './campaignRun.js';
import { campaignRunToJson, parseCampaignRunJson } from './campaignRunJson.js';
import { CampaignQueueError } from './campaignQueueError.js';

/** BullMQ's key prefix for campaign queues. */
export const QUEUE_KEY_PREFIX = 'sim';
export const QUEUE_NAME_DEFAULT = 'sim-campaign';
/** Seeds per job by default: a job of 600-simulated-second seeds is about a minute of one thread. */
export const SEEDS_PER_JOB_DEFAULT = 25;
export const SEEDS_PER_JOB_MAX = 10_000;
/** How long a campaign's record and results stay in Redis after its last write (to resume, or write again). */
export const CAMPAIGN_RESULTS_TTL_SECONDS = 7 * 24 * 3600;
/** Times a job may fail (a worker error, not a failing seed, which is a result) before it fails for good. */
export const CAMPAIGN_JOB_ATTEMPTS = 3;
export const CAMPAIGN_JOB_FORMAT = 'sim-campaign-job/1';

/** Which code a campaign's results come from: a worker runs a campaign's jobs only with the same. */
export interface CodeIdentity {
  /** `git rev-parse HEAD`, or 'unknown' outside a checkout. */
  readonly commit: string;
  /** Whether tracked files differ from the commit. */
  readonly worktreeDirty: boolean;
  /** sha256 (first 16 hex digits) of `git diff HEAD --binary`, or 'clean' when tracked files match the commit. */
  readonly codeFingerprint: string;
}

export interface CampaignRecord extends CodeIdentity {
  readonly id: string;
  readonly from: bigint;
  readonly seeds: number;
  readonly simulatedSeconds: number;
  readonly seedsPerJob: number;
  /** Wall-clock ms (Date.now()) when the campaign was enqueued. */
  readonly createdAtMs: number;
  readonly status: 'running' | 'done';
}

/** One job: a range of seeds of one campaign, and the code they must run with. */
export interface CampaignJobData extends CodeIdentity {
  readonly format: typeof CAMPAIGN_JOB_FORMAT;
  readonly campaignId: string;
  /** The first seed, decimal. */
  readonly from: string;
  readonly count: number;
  readonly simulatedSeconds: number;
}

export interface SeedRange {
  readonly from: bigint;
  readonly count: number;
}

export function campaignsKey(queueName: string): string {
  return `${QUEUE_KEY_PREFIX}:${queueName}:campaigns`;
}

export function campaignKeys(queueName: string, id: string) {
  const base = `${QUEUE_KEY_PREFIX}:${queueName}:campaign:${id}`;
  return {
    record: base,
    runs: `${base}:runs`,
    arrivals: `${base}:arrivals`,
    workers: `${base}:workers`,
    refusals: `${base}:refusals`,
  } as const;
}

export type CampaignKeys = ReturnType<typeof campaignKeys>;

/** A job's id: the campaign and its first seed (BullMQ ignores a second add of the same id). */
export function campaignJobId(campaignId: string, from: bigint): string {
  return `${campaignId}-${from}`;
}

/** from..from+seeds-1 cut into ranges of `perJob` seeds (the last one shorter). */
export function seedRanges(from: bigint, seeds: number, perJob: number): SeedRange[] {
  return Array.from({ length: Math.ceil(seeds / perJob) }, (_, i) => ({
    from: from + BigInt(i * perJob),
    count: Math.min(perJob, seeds - i * perJob),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CAMPAIGN_ID_PATTERN = /^[0-9a-z]{1,32}$/;

/** The job's payload checked field by field; throws JOB_PAYLOAD_INVALID saying what is wrong. */
export function parseCampaignJobData(data: unknown): CampaignJobData {
  const invalid = (what: string) =>
    new CampaignQueueError('JOB_PAYLOAD_INVALID', `the job's payload is not a campaign job: ${what}`, { what });
  if (!isRecord(data)) throw invalid('not an object');
  if (data.format !== CAMPAIGN_JOB_FORMAT) throw invalid(`format is not "${CAMPAIGN_JOB_FORMAT}"`);
  if (typeof data.campaignId !== 'string' || !CAMPAIGN_ID_PATTERN.test(data.campaignId))
    throw invalid('campaignId is not a campaign id');
  if (typeof data.from !== 'string' || !/^\d+$/.test(data.from) || BigInt(data.from) >= 2n ** 64n)
    throw invalid('from is not a decimal seed');
  if (!Number.isSafeInteger(data.count) || (data.count as number) <= 0 || (data.count as number) > SEEDS_PER_JOB_MAX)
    throw invalid(`count is not a seed count of 1..${SEEDS_PER_JOB_MAX}`);
  if (!Number.isSafeInteger(data.simulatedSeconds) || (data.simulatedSeconds as number) <= 0)
    throw invalid('simulatedSeconds is not a positive integer');
  if (typeof data.commit !== 'string' || typeof data.codeFingerprint !== 'string')
    throw invalid('commit and codeFingerprint are not strings');
  if (typeof data.worktreeDirty !== 'boolean') throw invalid('worktreeDirty is not a boolean');
  return data as unknown as CampaignJobData;
}

export function newCampaignId(randomHex: string): string {
  return randomHex
    .toLowerCase()
    .replace(/[^0-9a-f]/g, '')
    .slice(0, 12);
}

export async function writeCampaignRecord(redis: Redis, queueName: string, record: CampaignRecord): Promise<void> {
  const keys = campaignKeys(queueName, record.id);
  await redis
    .multi()
    .hset(keys.record, {
      id: record.id,
      commit: record.commit,
      worktreeDirty: String(record.worktreeDirty),
      codeFingerprint: record.codeFingerprint,
      from: record.from.toString(),
      seeds: String(record.seeds),
      simulatedSeconds: String(record.simulatedSeconds),
      seedsPerJob: String(record.seedsPerJob),
      createdAtMs: String(record.createdAtMs),
      status: record.status,
    })
    .expire(keys.record, CAMPAIGN_RESULTS_TTL_SECONDS)
    .sadd(campaignsKey(queueName), record.id)
    .exec();
}

/** The campaign's record, or undefined when the queue does not know the id. */
export async function readCampaignRecord(
  redis: Redis,
  queueName: string,
  id: string,
): Promise<CampaignRecord | undefined> {
  const fields = await redis.hgetall(campaignKeys(queueName, id).record);
  if (fields.id !== id) return undefined;
  return {
    id,
    commit: fields.commit ?? 'unknown',
    worktreeDirty: fields.worktreeDirty === 'true',
    codeFingerprint: fields.codeFingerprint ?? '',
    from: BigInt(fields.from ?? '0'),
    seeds: Number(fields.seeds),
    simulatedSeconds: Number(fields.simulatedSeconds),
    seedsPerJob: Number(fields.seedsPerJob),
    createdAtMs: Number(fields.createdAtMs),
    status: fields.status === 'done' ? 'done' : 'running',
  };
}

/** Marks the campaign done: out of the running set, its keys left to expire. */
export async function markCampaignDone(redis: Redis, queueName: string, id: string): Promise<void> {
  const keys = campaignKeys(queueName, id);
  const multi = redis.multi().hset(keys.record, 'status', 'done').srem(campaignsKey(queueName), id);
  for (const key of Object.values(keys)) multi.expire(key, CAMPAIGN_RESULTS_TTL_SECONDS);
  await multi.exec();
}

/**
 * Stores a run unless its seed already has one, and notes the worker; in one script so that the first result of a
 * seed is both stored and listed as arrived, or neither. Resolves true when this result was the first.
 */
const STORE_RUN_SCRIPT = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[3])
if ARGV[4] == '1' then redis.call('HINCRBY', KEYS[4], 'failedRuns', 1) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
return 1`;

export async function storeCampaignRun(
  redis: Redis,
  keys: CampaignKeys,
  run: CampaignRun,
  workerName: string,
): Promise<boolean> {
  const stored = await redis.eval(
    STORE_RUN_SCRIPT,
    4,
    keys.runs,
    keys.arrivals,
    keys.workers,
    keys.record,
    run.seed.toString(),
    gzipSync(campaignRunToJson(run)),
    workerName,
    run.failures.length > 0 ? '1' : '0',
    String(CAMPAIGN_RESULTS_TTL_SECONDS),
  );
  return stored === 1;
}

/** Whether the seed already has a stored run (a retried job skips it). */
export async function hasCampaignRun(redis: Redis, keys: CampaignKeys, seed: bigint): Promise<boolean> {
  return (await redis.hexists(keys.runs, seed.toString())) === 1;
}

/** Results read per round trip by the coordinator. */
export const ARRIVALS_READ_BATCH = 200;

/**
 * The runs that arrived from `offset` on (at most ARRIVALS_READ_BATCH), decoded and checked; a stored value that
 * does not decode is an error naming the seed.
 */
export async function readArrivedRuns(
  redis: Redis,
  keys: CampaignKeys,
  offset: number,
): Promise<{ runs: CampaignRun[]; nextOffset: number }> {
  const seeds = await redis.lrange(keys.arrivals, offset, offset + ARRIVALS_READ_BATCH - 1);
  if (seeds.length === 0) return { runs: [], nextOffset: offset };
  const values = await redis.hmgetBuffer(keys.runs, ...seeds);
  const runs = seeds.map((seed, i) => {
    const value = values[i];
    if (value === null || value === undefined) throw new Error(`seed ${seed} is listed as arrived but has no result`);
    try {
      return parseCampaignRunJson(gunzipSync(value).toString('utf8'));
    } catch (error) {
      throw new Error(`the stored result of seed ${seed} does not decode: ${(error as Error).message}`);
    }
  });
  return { runs, nextOffset: offset + seeds.length };
}

/** The seeds that have a stored run (to find what a resumed campaign still lacks). */
export async function storedSeeds(redis: Redis, keys: CampaignKeys): Promise<Set<string>> {
  return new Set(await redis.hkeys(keys.runs));
}

/** Records that a worker refused the campaign's jobs, with why (the coordinator and `--status` show it). */
export async function recordRefusal(redis: Redis, keys: CampaignKeys, worker: string, reason: string): Promise<void> {
  await redis.multi().hset(keys.refusals, worker, reason).expire(keys.refusals, CAMPAIGN_RESULTS_TTL_SECONDS).exec();
}
