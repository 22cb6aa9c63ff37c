/**
 * A campaign on the queue under faults, on the machine's real Redis: a URL that does not answer, the Redis
 * connections of the coordinator and the worker killed mid-campaign (CLIENT KILL, ours only), a job whose payload
 * does not parse, a coordinator killed and resumed, and a worker whose code is not the campaign's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CAMPAIGN_JOB_FORMAT,
  QUEUE_KEY_PREFIX,
  campaignJobId,
  campaignKeys,
  campaignsKey,
  writeCampaignRecord,
} from '../../sim/campaign/campaignQueue.js';
import { QUEUE_CONNECT_TIMEOUT_MS, probeQueue } from '../../sim/campaign/queueConnection.js';
import { startRawTcpServer } from '../helpers/rawTcpServer.js';
import { startSim, type SimProcess } from '../helpers/simProcess.js';

const REDIS_URL = 'redis://127.0.0.1:6379/0';
const QUEUE_NAME = `test-faults-${randomBytes(4).toString('hex')}`;
const SEEDS = 30;
/** CAMPAIGN_EXIT_CODE.workerCodeMismatch of sim/simCli.ts. */
const WORKER_CODE_MISMATCH_EXIT_CODE = 42;

let redis: Redis;
let queue: Queue;
let outDir: string;
const children: SimProcess[] = [];

beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  queue = new Queue(QUEUE_NAME, { connection: redis, prefix: QUEUE_KEY_PREFIX });
  outDir = await mkdtemp(path.join(os.tmpdir(), 'queue-faults-'));
});

afterAll(async () => {
  for (const child of children) child.child.kill('SIGKILL');
  await queue.close();
  const keys = await redis.keys(`${QUEUE_KEY_PREFIX}:${QUEUE_NAME}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await rm(outDir, { recursive: true, force: true });
});

const sim = (args: string[]) => {
  const child = startSim(args);
  children.push(child);
  return child;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForRuns(campaignId: string, count: number): Promise<void> {
  while ((await redis.hlen(campaignKeys(QUEUE_NAME, campaignId).runs)) < count) await sleep(200);
}

/** Kills every Redis client connection of this test's queue (by client name), not other tests' ones. */
async function killOurConnections(): Promise<number> {
  const list = await redis.client('LIST');
  const ids = String(list)
    .split('\n')
    .filter((line) => line.includes(`name=sim-campaign:${QUEUE_NAME}:`))
    .map((line) => /\bid=(\d+)/.exec(line)![1]!);
  for (const id of ids) await redis.client('KILL', 'ID', id);
  return ids.length;
}

it('a queue URL that does not answer is a clear error within the connect timeout', async () => {
  const started = performance.now();
  await expect(probeQueue('redis://127.0.0.1:1/0')).rejects.toMatchObject({ code: 'QUEUE_UNREACHABLE' });
  await expect(probeQueue('http://127.0.0.1:6379')).rejects.toMatchObject({ code: 'QUEUE_URL_INVALID' });
  expect(performance.now() - started).toBeLessThan(QUEUE_CONNECT_TIMEOUT_MS);
  // A server that accepts and never answers: bounded by the connect timeout.
  const silent = await startRawTcpServer(() => undefined);
  try {
    const before = performance.now();
    await expect(probeQueue(`redis://127.0.0.1:${silent.port}/0`)).rejects.toMatchObject({
      code: 'QUEUE_UNREACHABLE',
      message: expect.stringMatching(/within 5 s \(no answer\)/),
    });
    expect(performance.now() - before).toBeLessThan(QUEUE_CONNECT_TIMEOUT_MS + 2_000);
  } finally {
    await silent.stop();
  }
});

it('survives killed connections, a bad payload and a killed coordinator, and completes on --resume', async () => {
  const out = path.join(outDir, 'campaign');
  const campaignArgs = ['campaign', '--seeds', String(SEEDS), '--seconds', '60', '--seeds-per-job', '5'];
  const queueArgs = ['--queue', REDIS_URL, '--queue-name', QUEUE_NAME];
  const first = sim([...campaignArgs, ...queueArgs, '--out', out]);
  const enqueued = await first.waitForLine(/^campaign [0-9a-f]+: .* enqueued/);
  const campaignId = /^campaign ([0-9a-f]+):/.exec(enqueued)![1]!;
  const garbage = await queue.add('seeds', { not: 'a campaign job' }, { jobId: `${campaignId}-garbage`, attempts: 3 });
  const worker = sim(['worker', ...queueArgs, '--threads', '2']);

  await waitForRuns(campaignId, 6);
  expect(await killOurConnections()).toBeGreaterThanOrEqual(3);
  await first.waitForLine(/lost the connection/);
  await first.waitForLine(/connection to .* is back/);
  await waitForRuns(campaignId, 15);
  first.child.kill('SIGKILL');
  await first.exited;

  const resumed = sim(['campaign', '--resume', ...queueArgs, '--out', out]);
  expect(await resumed.exited, resumed.stderr.join('\n')).toBe(0);
  expect(await worker.exited).toBe(0);
  expect(worker.stderr.join('\n')).toMatch(/lost the connection .* waiting for it to return/);
  expect(resumed.stderr.join('\n')).toMatch(
    new RegExp(`job ${campaignId}-garbage failed after 1 attempts: the job's payload is not a campaign job`),
  );
  const failedGarbage = await queue.getJob(garbage.id!);
  expect(await failedGarbage!.getState()).toBe('failed');
  expect(failedGarbage!.attemptsMade).toBe(1);
  const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as { runs: number };
  expect(summary.runs).toBe(SEEDS);
  expect(await redis.llen(campaignKeys(QUEUE_NAME, campaignId).arrivals)).toBe(SEEDS);
}, 300_000);

it("a worker whose code is not the campaign's refuses its jobs, leaves them queued, and --status shows it", async () => {
  const id = 'feedface0001';
  const foreign = { commit: '0'.repeat(40), worktreeDirty: false, codeFingerprint: 'clean' };
  await writeCampaignRecord(redis, QUEUE_NAME, {
    id,
    ...foreign,
    from: 1n,
    seeds: 1,
    simulatedSeconds: 10,
    seedsPerJob: 1,
    createdAtMs: Date.now(),
    status: 'running',
  });
  const job = await queue.add(
    'seeds',
    { format: CAMPAIGN_JOB_FORMAT, campaignId: id, from: '1', count: 1, simulatedSeconds: 10, ...foreign },
    { jobId: campaignJobId(id, 1n), attempts: 3 },
  );
  const worker = sim(['worker', '--queue', REDIS_URL, '--queue-name', QUEUE_NAME, '--threads', '1']);
  expect(await worker.exited).toBe(WORKER_CODE_MISMATCH_EXIT_CODE);
  expect(worker.stderr.join('\n')).toMatch(new RegExp(`refuses campaign ${id}: the campaign runs commit 0{40}`));
  const left = await queue.getJob(job.id!);
  expect(['waiting', 'delayed']).toContain(await left!.getState());
  expect(left!.attemptsMade).toBe(0);

  const status = sim(['campaign', '--status', '--queue', REDIS_URL, '--queue-name', QUEUE_NAME]);
  expect(await status.exited).toBe(0);
  expect(status.stdout.join('\n')).toMatch(new RegExp(`campaign ${id}: 0/1 seeds done`));
  expect(status.stdout.join('\n')).toMatch(/refused by .*: worker .* refuses campaign feedface0001/);
  // Gone, so that the next test's workers (of this checkout's code) do not meet it.
  await left!.remove();
  await redis.srem(campaignsKey(QUEUE_NAME), id);
}, 120_000);

it('a worker stopped with SIGINT gives its job back after the current seed, and another finishes it', async () => {
  const out = path.join(outDir, 'interrupted');
  const queueArgs = ['--queue', REDIS_URL, '--queue-name', QUEUE_NAME];
  const coordinator = sim([
    'campaign',
    '--seeds',
    '12',
    '--seconds',
    '60',
    '--seeds-per-job',
    '12',
    ...queueArgs,
    '--out',
    out,
  ]);
  const enqueued = await coordinator.waitForLine(/^campaign [0-9a-f]+: .* enqueued/);
  const campaignId = /^campaign ([0-9a-f]+):/.exec(enqueued)![1]!;
  const first = sim(['worker', ...queueArgs, '--threads', '1']);
  await waitForRuns(campaignId, 2);
  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);
  expect(first.stderr.join('\n')).toMatch(/SIGINT: giving the running jobs back after their current seed/);
  const ranFirst = Number(/stopped after 0 jobs, (\d+) seeds run/.exec(first.stderr.join('\n'))![1]);
  expect(ranFirst).toBeLessThan(12);
  const job = await queue.getJob(campaignJobId(campaignId, 1n));
  expect(await job!.getState()).toBe('waiting');

  const second = sim(['worker', ...queueArgs, '--threads', '1']);
  expect(await coordinator.exited, coordinator.stderr.join('\n')).toBe(0);
  expect(await second.exited).toBe(0);
  expect(second.stderr.join('\n')).toMatch(new RegExp(`stopped after 1 jobs, ${12 - ranFirst} seeds run`));
}, 120_000);

it('a job of the campaign that fails for good stops the coordinator with what to do, and --resume retries it', async () => {
  const out = path.join(outDir, 'failed-job');
  const queueArgs = ['--queue', REDIS_URL, '--queue-name', QUEUE_NAME];
  const campaignArgs = ['campaign', '--seeds', '6', '--seconds', '30', '--seeds-per-job', '3', ...queueArgs];
  const coordinator = sim([...campaignArgs, '--out', out]);
  const enqueued = await coordinator.waitForLine(/^campaign [0-9a-f]+: .* enqueued/);
  const campaignId = /^campaign ([0-9a-f]+):/.exec(enqueued)![1]!;
  // Spoil the payload of the job of seeds 4..6 (as a bad write or a foreign producer could).
  const jobKey = `${QUEUE_KEY_PREFIX}:${QUEUE_NAME}:${campaignJobId(campaignId, 4n)}`;
  const payload = await redis.hget(jobKey, 'data');
  await redis.hset(jobKey, 'data', '{"format":"something else"}');
  const worker = sim(['worker', ...queueArgs, '--threads', '1']);
  expect(await coordinator.exited).toBe(1);
  expect(coordinator.stderr.join('\n')).toMatch(
    new RegExp(`CAMPAIGN_JOBS_FAILED: campaign ${campaignId}: the jobs of the 3 seeds still missing failed for good`),
  );
  expect(await worker.exited).toBe(0);

  await redis.hset(jobKey, 'data', payload!);
  const resumed = sim(['campaign', '--resume', campaignId, ...queueArgs, '--out', out]);
  await resumed.waitForLine(/enqueued/);
  const second = sim(['worker', ...queueArgs, '--threads', '1']);
  expect(await resumed.exited, resumed.stderr.join('\n')).toBe(0);
  expect(await second.exited).toBe(0);
  expect(second.stderr.join('\n')).toMatch(/stopped after 1 jobs, 3 seeds run/);
}, 120_000);

it('a worker whose threads cannot start gives its job back and stops, instead of failing every job', async () => {
  const out = path.join(outDir, 'broken-threads');
  const queueArgs = ['--queue', REDIS_URL, '--queue-name', QUEUE_NAME];
  const coordinator = sim(['campaign', '--seeds', '2', '--seconds', '30', ...queueArgs, '--out', out]);
  const enqueued = await coordinator.waitForLine(/^campaign [0-9a-f]+: .* enqueued/);
  const campaignId = /^campaign ([0-9a-f]+):/.exec(enqueued)![1]!;
  const broken = startSim(['worker', ...queueArgs, '--threads', '1'], {
    preloads: [path.resolve(import.meta.dirname, '../helpers/threadsCannotStart.mjs')],
  });
  children.push(broken);
  expect(await broken.exited).toBe(1);
  expect(broken.stderr.join('\n')).toMatch(
    /a campaign thread exited .* before it was ready: this worker thread cannot start .*; stopping/,
  );
  const job = await queue.getJob(campaignJobId(campaignId, 1n));
  expect(await job!.getState()).toBe('waiting');
  expect(job!.attemptsMade).toBe(0);

  const healthy = sim(['worker', ...queueArgs, '--threads', '1']);
  expect(await coordinator.exited, coordinator.stderr.join('\n')).toBe(0);
  expect(await healthy.exited).toBe(0);
}, 120_000);

it('refuses flags that do not go with a queue, or need one, before it connects', async () => {
  const withWorkers = startSim(['campaign', '--seeds', '2', '--workers', '1', '--queue', 'redis://127.0.0.1:1/0']);
  expect(await withWorkers.exited).toBe(1);
  expect(withWorkers.stderr.join('\n')).toMatch(
    /--workers runs local threads; with --queue, give each worker --threads/,
  );
  const statusAlone = startSim(['campaign', '--status']);
  expect(await statusAlone.exited).toBe(1);
  expect(statusAlone.stderr.join('\n')).toMatch(/--status and --resume need --queue <url>/);
});
