/**
 * The campaign runner: seeds from..from+count-1 on worker threads, a progress bar, the failing-seed database, the
 * summary and the HTML report. Exempt from the determinism lint (wall clock, git, files, threads).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CampaignRun } from './campaignRun.js';
import { renderCampaignReport } from './campaignReport.js';
import { summarizeTally, type CampaignContext, type CampaignSummary } from './campaignSummary.js';
import { CampaignTally, type CampaignRunRow } from './campaignTally.js';
import type { CodeIdentity } from './campaignQueue.js';
import { failureRecord, openFailureDatabase, toJson, type FailureDatabase } from './failureDatabase.js';
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
  /** The lowest failing runs, whole (at most TALLY_FAILING_RUNS_KEPT; the failing-seed database has them all). */
  readonly failingRuns: readonly CampaignRun[];
  /** The report table's rows: the lowest seeds' runs and the kept failing ones, by seed. */
  readonly rows: readonly CampaignRunRow[];
  readonly summaryPath: string;
  readonly reportPath: string;
  readonly failuresPath: string;
}

/**
 * Largest `git diff` read for the code fingerprint. A bigger one (or a failing git) gives a fingerprint that matches
 * no other, so queue workers refuse rather than guess.
 */
const CODE_DIFF_BYTES_MAX = 64 * 1024 * 1024;

function git(args: string[], trim = true): string | undefined {
  try {
    const out = execFileSync('git', args, {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: CODE_DIFF_BYTES_MAX,
    }).toString();
    return trim ? out.trim() : out;
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

/**
 * The checked-out commit, and a fingerprint of the uncommitted changes to tracked files (sha256 of
 * `git diff HEAD --binary`): two checkouts with the same identity run the same simulator code, so a queue worker
 * runs a campaign's jobs only when its identity is the campaign's.
 */
export function codeIdentity(): CodeIdentity {
  const source = checkoutSource();
  if (!source.worktreeDirty) return { ...source, codeFingerprint: 'clean' };
  const diff = git(['diff', '--no-ext-diff', '--no-textconv', '--binary', 'HEAD'], false);
  const codeFingerprint =
    diff === undefined
      ? `unreadable-${randomBytes(4).toString('hex')}`
      : createHash('sha256').update(diff).digest('hex').slice(0, 16);
  return { ...source, codeFingerprint };
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
  await mkdir(options.outDir, { recursive: true });
  const database = openFailureDatabase(path.join(options.outDir, 'failures.jsonl'));
  const progress = createProgressBar('campaign', options.seeds, options.progress);
  const tally = new CampaignTally({ from: options.from, seeds: options.seeds });
  const startedMs = performance.now();
  const jobs: CampaignJob[] = seedRange(options.from, options.seeds).map((seed) => ({
    seed,
    simulatedSeconds: options.simulatedSeconds,
    lane: 0,
  }));
  await runJobsOnWorkers(jobs, {
    workers: options.workers,
    onDone: (_job, run) => {
      tally.add(run);
      if (run.failures.length > 0) database.append(failureRecord(run, source, new Date().toISOString()));
      progress.update({ done: tally.runs, failed: tally.failed, simulatedSeconds: tally.simulatedSeconds });
    },
  });
  progress.finish();
  return writeCampaignOutputs(context, tally, performance.now() - startedMs, options.outDir, database);
}

/**
 * What every campaign writes once its runs are in, wherever they ran (worker threads here, queue workers in
 * queueCoordinator.ts): waits for the failing-seed database's appends, then writes summary.json and report.html
 * from the campaign's tally.
 */
export async function writeCampaignOutputs(
  context: CampaignContext,
  tally: CampaignTally,
  wallMs: number,
  outDir: string,
  database: FailureDatabase,
): Promise<CampaignOutcome> {
  await database.flushed();
  const summary = summarizeTally(context, tally, wallMs);
  const summaryPath = path.join(outDir, 'summary.json');
  const reportPath = path.join(outDir, 'report.html');
  await mkdir(outDir, { recursive: true });
  await writeFile(summaryPath, `${toJson(summary, 2)}\n`, 'utf8');
  const title = `Simulation campaign: seeds ${summary.from} +${summary.seeds}`;
  await writeFile(
    reportPath,
    renderCampaignReport({ title, summary, tally, generatedAt: new Date().toISOString() }),
    'utf8',
  );
  return {
    summary,
    failingRuns: tally.lowestFailing(),
    rows: tally.tableRows(),
    summaryPath,
    reportPath,
    failuresPath: database.path,
  };
}
