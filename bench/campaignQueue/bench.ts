/**
 * `npm run bench -- campaign-queue`: seeds per second of a campaign through the Redis queue (127.0.0.1:6379, or
 * CAMPAIGN_QUEUE_BENCH_URL) with 1, 2 and 4 worker processes on this machine (`npm run sim -- worker`, one thread
 * each), beside a local campaign of the same seeds on worker threads (one per CPU) as the baseline. The queued
 * wall time runs from the enqueue to the last result, so it includes the workers' start (node, tsx, the simulator's
 * first compile), as it does for a real campaign.
 *
 * CAMPAIGN_QUEUE_BENCH_SEEDS sets the campaign's seeds (default 100). At 100 a worker's start weighs more than its
 * seeds on a quiet 2-core machine; a thousand or more show the rate a worker keeps once it runs.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { QUEUE_KEY_PREFIX } from '../../sim/campaign/campaignQueue.js';
import { runQueuedCampaign } from '../../sim/campaign/queueCoordinator.js';
import { runCampaign } from '../../sim/campaign/runCampaign.js';
import { positiveIntegerSetting } from '../envSettings.js';

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

const QUEUE_BENCH_SEEDS_DEFAULT = 100;
const QUEUE_BENCH_SEEDS_MAX = 100_000;
const QUEUE_BENCH_SIMULATED_SECONDS = 60;
const QUEUE_BENCH_SEEDS_PER_JOB = 5;
const QUEUE_BENCH_WORKER_PROCESSES = [1, 2, 4] as const;
const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../..');

function startWorker(queueUrl: string, queueName: string): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=64',
      '--import',
      'tsx',
      'sim/main.ts',
      'worker',
      '--queue',
      queueUrl,
      '--queue-name',
      queueName,
      '--threads',
      '1',
    ],
    { cwd: REPOSITORY_ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function queuedSeedsPerSecond(
  queueUrl: string,
  seeds: number,
  processes: number,
  outDir: string,
): Promise<number> {
  const queueName = `bench-${randomBytes(4).toString('hex')}`;
  const workers: Promise<number | null>[] = [];
  try {
    const outcome = await runQueuedCampaign({
      queueUrl,
      queueName,
      from: 1n,
      seeds,
      simulatedSeconds: QUEUE_BENCH_SIMULATED_SECONDS,
      seedsPerJob: QUEUE_BENCH_SEEDS_PER_JOB,
      outDir,
      resume: undefined,
      progress: null,
      log: (line) => {
        process.stderr.write(`campaign-queue: ${line}\n`);
        if (line.includes('enqueued'))
          for (let i = 0; i < processes; i++) workers.push(startWorker(queueUrl, queueName));
      },
    });
    if (outcome.summary.runs !== seeds) throw new Error(`${outcome.summary.runs} runs came back`);
    return seeds / outcome.summary.wallSeconds;
  } finally {
    await Promise.all(workers);
    const redis = new Redis(queueUrl);
    const keys = await redis.keys(`${QUEUE_KEY_PREFIX}:${queueName}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

export async function benchCampaignQueue(): Promise<BenchResult> {
  const queueUrl = process.env.CAMPAIGN_QUEUE_BENCH_URL ?? 'redis://127.0.0.1:6379/0';
  const seeds = positiveIntegerSetting('CAMPAIGN_QUEUE_BENCH_SEEDS', QUEUE_BENCH_SEEDS_DEFAULT, QUEUE_BENCH_SEEDS_MAX);
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'bench-campaign-queue-'));
  try {
    const threads = os.availableParallelism();
    // Other work on the machine shows in every figure here: note how busy it was when the bench began.
    const loadAverageAtStart = Number(os.loadavg()[0]!.toFixed(2));
    const local = await runCampaign({
      from: 1n,
      seeds,
      workers: threads,
      simulatedSeconds: QUEUE_BENCH_SIMULATED_SECONDS,
      outDir: path.join(outDir, 'local'),
      progress: null,
    });
    const figures: Record<string, number | string> = {
      seeds,
      simulatedSecondsPerRun: QUEUE_BENCH_SIMULATED_SECONDS,
      seedsPerJob: QUEUE_BENCH_SEEDS_PER_JOB,
      loadAverageAtStart,
      [`localSeedsPerSecond.${threads}threads`]: Number((seeds / local.summary.wallSeconds).toFixed(2)),
    };
    for (const processes of QUEUE_BENCH_WORKER_PROCESSES) {
      const perSecond = await queuedSeedsPerSecond(queueUrl, seeds, processes, path.join(outDir, `queue-${processes}`));
      figures[`queueSeedsPerSecond.${processes}processes`] = Number(perSecond.toFixed(2));
      process.stderr.write(`campaign-queue: ${processes} worker processes: ${perSecond.toFixed(2)} seeds/s\n`);
    }
    return { name: 'campaign-queue', figures };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
