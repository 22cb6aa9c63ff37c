/**
 * Issue 18's "done when": a 200-seed campaign through the machine's real Redis over three worker processes, one of
 * them killed (-9) mid-job, gives the same summary, the same failing seeds and the same trace hashes as a local
 * campaign of the same seeds. The pool's bump rule is broken in every process (and their worker threads) by a module
 * hook preloaded through NODE_OPTIONS (test/helpers/brokenBumpRule.mjs), so some seeds fail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QUEUE_KEY_PREFIX } from '../../sim/campaign/campaignQueue.js';
import { BROKEN_BUMP_RULE_IMPORT, startSim, type SimProcess } from '../helpers/simProcess.js';

const REDIS_URL = 'redis://127.0.0.1:6379/0';
const QUEUE_NAME = `test-queue-${randomBytes(4).toString('hex')}`;
const SEEDS = 200;
/** Long enough for the broken rule to trip on some seeds (a replacement comes late in a swarm schedule). */
const SIMULATED_SECONDS = 150;
const SEEDS_PER_JOB = 10;

let redis: Redis;
let outDir: string;
const children: SimProcess[] = [];

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  outDir = await mkdtemp(path.join(os.tmpdir(), 'queue-campaign-'));
});

afterAll(async () => {
  for (const child of children) child.child.kill('SIGKILL');
  const keys = await redis.keys(`${QUEUE_KEY_PREFIX}:${QUEUE_NAME}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await rm(outDir, { recursive: true, force: true });
});

const sim = (args: string[]) => {
  const child = startSim(args, { preloads: [BROKEN_BUMP_RULE_IMPORT] });
  children.push(child);
  return child;
};

/** The summary's fields that do not depend on where and how fast the runs ran. */
async function comparableSummary(dir: string) {
  const summary = JSON.parse(await readFile(path.join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
  const {
    workers: _workers,
    wallSeconds: _wall,
    simulatedSecondsPerWallSecond: _speed,
    simulatedSecondsPerThreadSecond: _threadSpeed,
    slowestRun: _slowest,
    ...rest
  } = summary;
  return rest;
}

/** Seed -> trace hash (as the report's table of runs shows it) and result. */
async function reportRows(dir: string): Promise<Map<string, string>> {
  const html = await readFile(path.join(dir, 'report.html'), 'utf8');
  const rows = new Map<string, string>();
  const row =
    /<tr[^>]*><td class="num">(?:<a [^>]*>)?(\d+)(?:<\/a>)?<\/td><td>(.*?)<\/td>.*?<code>([^<]*)<\/code><\/td><\/tr>/g;
  for (const match of html.matchAll(row)) rows.set(match[1]!, `${match[3]} ${match[2]}`);
  return rows;
}

/** The seeds of the failing-seed database, sorted (a local campaign appends them in the order its threads finish). */
async function failingSeedsOf(dir: string): Promise<bigint[]> {
  const text = await readFile(path.join(dir, 'failures.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => BigInt((JSON.parse(line) as { seed: string }).seed))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The worker process running a job of the campaign right now (BullMQ records the worker's name on the job). */
async function workerMidJob(queue: Queue, workers: readonly SimProcess[]): Promise<SimProcess | undefined> {
  const active = await queue.getJobs(['active']);
  const names = new Set(active.map((job) => job.processedBy));
  return workers.find((w) => names.has(`${os.hostname()}:${w.child.pid}`));
}

it('a campaign over three worker processes, one killed mid-job, matches a local campaign', async () => {
  const common = ['--seeds', String(SEEDS), '--seconds', String(SIMULATED_SECONDS)];
  const local = sim(['campaign', ...common, '--workers', '2', '--out', path.join(outDir, 'local')]);
  expect(await local.exited).not.toBe(1);

  const queueOut = path.join(outDir, 'queue');
  const coordinator = sim([
    'campaign',
    ...common,
    '--queue',
    REDIS_URL,
    '--queue-name',
    QUEUE_NAME,
    '--seeds-per-job',
    String(SEEDS_PER_JOB),
    '--out',
    queueOut,
  ]);
  await coordinator.waitForLine(/jobs of \d+ seeds enqueued/);
  const workerArgs = ['worker', '--queue', REDIS_URL, '--queue-name', QUEUE_NAME, '--threads', '1'];
  const workers = [sim(workerArgs), sim(workerArgs), sim(workerArgs)];

  const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: QUEUE_KEY_PREFIX });
  let victim: SimProcess | undefined;
  try {
    // Wait until some seeds are in and a worker holds a job, then kill that worker without warning.
    const runsKey = `${QUEUE_KEY_PREFIX}:${QUEUE_NAME}:campaign:*:runs`;
    while (victim === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [runs] = await redis.keys(runsKey);
      if (runs === undefined || (await redis.hlen(runs)) < 30) continue;
      victim = await workerMidJob(queue, workers);
    }
    victim.child.kill('SIGKILL');
  } finally {
    await queue.close();
  }

  const coordinatorExit = await coordinator.exited;
  const output = (child: SimProcess) => [...child.stdout, ...child.stderr].join('\n');
  expect(coordinatorExit, output(coordinator)).toBe(await local.exited);
  expect(await victim.exited).toBe('SIGKILL');
  for (const worker of workers.filter((w) => w !== victim)) expect(await worker.exited, output(worker)).toBe(0);

  const localSummary = await comparableSummary(path.join(outDir, 'local'));
  expect(await comparableSummary(queueOut), output(coordinator)).toEqual(localSummary);
  expect(localSummary.runs).toBe(SEEDS);
  expect(localSummary.failed).toBeGreaterThan(0);
  expect(await failingSeedsOf(queueOut)).toEqual(await failingSeedsOf(path.join(outDir, 'local')));
  const queueRows = await reportRows(queueOut);
  expect(queueRows.size).toBe(SEEDS);
  expect(queueRows).toEqual(await reportRows(path.join(outDir, 'local')));
  // Every seed arrived once, although the killed worker's job ran again elsewhere.
  const [arrivals] = await redis.keys(`${QUEUE_KEY_PREFIX}:${QUEUE_NAME}:campaign:*:arrivals`);
  expect(await redis.llen(arrivals!)).toBe(SEEDS);
}, 600_000);
