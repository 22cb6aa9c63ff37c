import type { SimFailure } from '../runSimulation.js';
import type { CampaignRun } from './campaignRun.js';
import { tallyOf, TALLY_FAILING_RUNS_KEPT, type CampaignTally } from './campaignTally.js';

/** Failing seeds listed in a summary (all of them are in the failing-seed database). */
export const SUMMARY_FAILING_SEEDS_MAX = TALLY_FAILING_RUNS_KEPT;

export interface CampaignContext {
  readonly from: bigint;
  readonly seeds: number;
  readonly simulatedSecondsPerRun: number;
  readonly workers: number;
  /** `git rev-parse HEAD`, or 'unknown' outside a checkout. */
  readonly commit: string;
  readonly worktreeDirty: boolean;
}

export interface CampaignSummary {
  readonly from: string;
  readonly seeds: number;
  readonly simulatedSecondsPerRun: number;
  readonly workers: number;
  readonly commit: string;
  readonly worktreeDirty: boolean;
  readonly runs: number;
  readonly passed: number;
  readonly failed: number;
  /** For each checker kind, how many runs reported it at least once. */
  readonly failuresByKind: Readonly<Record<string, number>>;
  /** The lowest failing seeds, at most SUMMARY_FAILING_SEEDS_MAX. */
  readonly failingSeeds: readonly string[];
  /** The lowest failing seed and its first failure (the campaign's exit code follows this kind). */
  readonly firstFailure: { readonly seed: string; readonly kind: SimFailure['kind'] } | null;
  readonly simulatedSeconds: number;
  readonly wallSeconds: number;
  /** Campaign throughput: simulated seconds of all runs over the campaign's wall time. */
  readonly simulatedSecondsPerWallSecond: number;
  /** One thread's throughput: simulated seconds over the summed wall time of the runs themselves. */
  readonly simulatedSecondsPerThreadSecond: number;
  readonly slowestRun: { readonly seed: string; readonly wallMs: number } | null;
}

/** Summarizes runs (in any order); `wallMs` is the whole campaign's wall time. */
export function summarizeCampaign(
  context: CampaignContext,
  runs: readonly CampaignRun[],
  wallMs: number,
): CampaignSummary {
  return summarizeTally(context, tallyOf(runs, { from: context.from, seeds: context.seeds }), wallMs);
}

/** The summary of what a campaign's tally holds; `wallMs` is the whole campaign's wall time. */
export function summarizeTally(context: CampaignContext, tally: CampaignTally, wallMs: number): CampaignSummary {
  const failing = tally.lowestFailing();
  const first = failing[0];
  const slowest = tally.slowestRun();
  const threadSeconds = tally.threadSeconds();
  return {
    from: context.from.toString(),
    seeds: context.seeds,
    simulatedSecondsPerRun: context.simulatedSecondsPerRun,
    workers: context.workers,
    commit: context.commit,
    worktreeDirty: context.worktreeDirty,
    runs: tally.runs,
    passed: tally.runs - tally.failed,
    failed: tally.failed,
    failuresByKind: tally.failuresByKind(),
    failingSeeds: failing.slice(0, SUMMARY_FAILING_SEEDS_MAX).map((r) => r.seed.toString()),
    firstFailure: first ? { seed: first.seed.toString(), kind: first.failures[0]!.kind } : null,
    simulatedSeconds: tally.simulatedSeconds,
    wallSeconds: Number((wallMs / 1000).toFixed(3)),
    simulatedSecondsPerWallSecond: wallMs > 0 ? Math.round(tally.simulatedSeconds / (wallMs / 1000)) : 0,
    simulatedSecondsPerThreadSecond: threadSeconds > 0 ? Math.round(tally.simulatedSeconds / threadSeconds) : 0,
    slowestRun: slowest ? { seed: slowest.seed.toString(), wallMs: Math.round(slowest.wallMs) } : null,
  };
}

/** The summary as a few lines for a terminal. */
export function formatSummary(summary: CampaignSummary): string[] {
  const kinds = Object.entries(summary.failuresByKind).map(([kind, count]) => `${kind} ${count}`);
  const lastSeed = BigInt(summary.from) + BigInt(Math.max(0, summary.seeds - 1));
  return [
    `campaign: seeds ${summary.from}..${lastSeed}, ${summary.simulatedSecondsPerRun} simulated s each, ${summary.workers} workers, commit ${summary.commit}${summary.worktreeDirty ? ' (uncommitted changes)' : ''}`,
    `runs: ${summary.runs}, passed ${summary.passed}, failed ${summary.failed}${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`,
    `throughput: ${summary.simulatedSeconds} simulated s in ${summary.wallSeconds.toFixed(1)} wall s = ${summary.simulatedSecondsPerWallSecond}x real time (${summary.simulatedSecondsPerThreadSecond}x per thread)`,
    ...(summary.slowestRun ? [`slowest run: seed ${summary.slowestRun.seed}, ${summary.slowestRun.wallMs} ms`] : []),
    ...(summary.failed > 0
      ? [
          `failing seeds: ${summary.failingSeeds.join(' ')}${summary.failed > summary.failingSeeds.length ? ' ...' : ''}`,
        ]
      : []),
  ];
}
