/**
 * The campaign runner: seeds from..from+count-1 on worker threads, a progress bar, the failing-seed database, the
 * summary and the HTML report. Exempt from the determinism lint (wall clock, git, files, threads).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CampaignRun } from './campaignRun.js';
import { renderCampaignReport } from './campaignReport.js';
import { summarizeCampaign, type CampaignContext, type CampaignSummary } from './campaignSummary.js';
import { failureRecord, openFailureDatabase, toJson } from './failureDatabase.js';
import { createProgressBar, type ProgressStream } from './progressBar.js';
import { runJobsOnWorkers, type CampaignJob } from './workerPool.js';

export interface CampaignOptions {
  readonly from: bigint;
  readonly seeds: number;
  readonly workers: number;
  readonly simulatedSeconds: number;
  readonly outDir: string;
  /** Where the progress bar goes (null: nowhere). */
  readonly progress: ProgressStream | null;
}

export interface CampaignOutcome {
  readonly summary: CampaignSummary;
  readonly runs: readonly CampaignRun[];
  readonly summaryPath: string;
  readonly reportPath: string;
  readonly failuresPath: string;
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** The checked-out commit (`git rev-parse HEAD`) and whether tracked files differ from it. */
export function checkoutSource(): { commit: string; worktreeDirty: boolean } {
  const commit = git(['rev-parse', 'HEAD']);
  if (commit === undefined) return { commit: 'unknown', worktreeDirty: false };
  return { commit, worktreeDirty: (git(['status', '--porcelain', '--untracked-files=no']) ?? '') !== '' };
}

export function seedRange(from: bigint, count: number): bigint[] {
  return Array.from({ length: count }, (_, i) => from + BigInt(i));
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignOutcome> {
  const source = checkoutSource();
  const context: CampaignContext = {
    from: options.from,
    seeds: options.seeds,
    simulatedSecondsPerRun: options.simulatedSeconds,
    workers: options.workers,
    ...source,
  };
  const failuresPath = path.join(options.outDir, 'failures.jsonl');
  await mkdir(options.outDir, { recursive: true });
  const database = openFailureDatabase(failuresPath);
  const progress = createProgressBar('campaign', options.seeds, options.progress);
  const runs: CampaignRun[] = [];
  let failed = 0;
  let simulatedSeconds = 0;
  const startedMs = performance.now();
  const jobs: CampaignJob[] = seedRange(options.from, options.seeds).map((seed) => ({
    seed,
    simulatedSeconds: options.simulatedSeconds,
    lane: 0,
  }));
  await runJobsOnWorkers(jobs, {
    workers: options.workers,
    onDone: (_job, run) => {
      runs.push(run);
      simulatedSeconds += run.simulatedSeconds;
      if (run.failures.length > 0) {
        failed++;
        database.append(failureRecord(run, source, new Date().toISOString()));
      }
      progress.update({ done: runs.length, failed, simulatedSeconds });
    },
  });
  const wallMs = performance.now() - startedMs;
  progress.finish();
  await database.flushed();
  runs.sort((a, b) => (a.seed < b.seed ? -1 : a.seed > b.seed ? 1 : 0));
  const summary = summarizeCampaign(context, runs, wallMs);
  const summaryPath = path.join(options.outDir, 'summary.json');
  const reportPath = path.join(options.outDir, 'report.html');
  await writeFile(summaryPath, `${toJson(summary, 2)}\n`, 'utf8');
  const title = `Simulation campaign: seeds ${summary.from} +${summary.seeds}`;
  await writeFile(
    reportPath,
    renderCampaignReport({ title, summary, runs, generatedAt: new Date().toISOString() }),
    'utf8',
  );
  return { summary, runs, summaryPath, reportPath, failuresPath };
}
