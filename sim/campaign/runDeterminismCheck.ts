/**
 * The determinism self-check: every seed runs twice, in two different worker threads, and the two trace hashes
 * must be equal. The second lane takes the seeds in reverse order, so the two runs of a seed follow different
 * runs in their threads and state leaking from one run into the next shows up as a difference. Exempt from the
 * determinism lint (threads, wall clock).
 */
import type { Hex } from '../../spec/chain.js';
import type { CampaignRun } from './campaignRun.js';
import { createProgressBar, type ProgressStream } from './progressBar.js';
import { seedRange } from './runCampaign.js';
import { runJobsOnWorkers, type CampaignJob } from './workerPool.js';

export interface DeterminismOptions {
  readonly from: bigint;
  readonly seeds: number;
  /** At least 2 (one per lane). */
  readonly workers: number;
  readonly simulatedSeconds: number;
  readonly progress: ProgressStream | null;
}

export interface DeterminismRunDigest {
  readonly traceHash: Hex | undefined;
  readonly traceEntries: number;
  readonly eventsRun: number;
}

export interface DeterminismMismatch {
  readonly seed: string;
  readonly first: DeterminismRunDigest;
  readonly second: DeterminismRunDigest;
}

export interface DeterminismOutcome {
  readonly seeds: number;
  readonly runs: number;
  readonly mismatches: readonly DeterminismMismatch[];
  readonly wallSeconds: number;
}

function digest(run: CampaignRun): DeterminismRunDigest {
  return { traceHash: run.traceHash, traceEntries: run.traceEntries, eventsRun: run.eventsRun };
}

/** Equal only when both runs produced a trace and the traces agree (a run that died proves nothing). */
function sameRun(a: DeterminismRunDigest, b: DeterminismRunDigest): boolean {
  return (
    a.traceHash !== undefined &&
    a.traceHash === b.traceHash &&
    a.traceEntries === b.traceEntries &&
    a.eventsRun === b.eventsRun
  );
}

export async function runDeterminismCheck(options: DeterminismOptions): Promise<DeterminismOutcome> {
  const seeds = seedRange(options.from, options.seeds);
  const jobs: CampaignJob[] = [
    ...seeds.map((seed) => ({ seed, simulatedSeconds: options.simulatedSeconds, lane: 0 })),
    ...seeds.toReversed().map((seed) => ({ seed, simulatedSeconds: options.simulatedSeconds, lane: 1 })),
  ];
  const byLane: Map<bigint, CampaignRun>[] = [new Map(), new Map()];
  const progress = createProgressBar('determinism', jobs.length, options.progress);
  let done = 0;
  let simulatedSeconds = 0;
  const startedMs = performance.now();
  await runJobsOnWorkers(jobs, {
    workers: Math.max(2, options.workers),
    lanes: 2,
    onDone: (job, run) => {
      byLane[job.lane]!.set(job.seed, run);
      simulatedSeconds += run.simulatedSeconds;
      progress.update({ done: ++done, simulatedSeconds });
    },
  });
  progress.finish();
  const mismatches = seeds.flatMap((seed) => {
    const first = digest(byLane[0]!.get(seed)!);
    const second = digest(byLane[1]!.get(seed)!);
    return sameRun(first, second) ? [] : [{ seed: seed.toString(), first, second }];
  });
  return { seeds: seeds.length, runs: jobs.length, mismatches, wallSeconds: (performance.now() - startedMs) / 1000 };
}
