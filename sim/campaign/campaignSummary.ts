import type { SimFailure } from '../runSimulation.js';
import type { CampaignRun } from './campaignRun.js';

/** Failing seeds listed in a summary (all of them are in the failing-seed database). */
export const SUMMARY_FAILING_SEEDS_MAX = 100;

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

function countFailureKinds(runs: readonly CampaignRun[]): Record<string, number> {
  const byKind: Record<string, number> = {};
  for (const run of runs) {
    for (const kind of new Set(run.failures.map((f) => f.kind))) byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  return byKind;
}

/** Summarizes runs sorted by seed; `wallMs` is the whole campaign's wall time. */
export function summarizeCampaign(
  context: CampaignContext,
  runs: readonly CampaignRun[],
  wallMs: number,
): CampaignSummary {
  const failing = runs.filter((r) => r.failures.length > 0);
  const simulatedSeconds = runs.reduce((sum, r) => sum + r.simulatedSeconds, 0);
  const threadMs = runs.reduce((sum, r) => sum + r.wallMs, 0);
  const slowest = runs.reduce<CampaignRun | undefined>(
    (worst, r) => (worst === undefined || r.wallMs > worst.wallMs ? r : worst),
    undefined,
  );
  const first = failing[0];
  return {
    from: context.from.toString(),
    seeds: context.seeds,
    simulatedSecondsPerRun: context.simulatedSecondsPerRun,
    workers: context.workers,
    commit: context.commit,
    worktreeDirty: context.worktreeDirty,
    runs: runs.length,
    passed: runs.length - failing.length,
    failed: failing.length,
    failuresByKind: countFailureKinds(runs),
    failingSeeds: failing.slice(0, SUMMARY_FAILING_SEEDS_MAX).map((r) => r.seed.toString()),
    firstFailure: first ? { seed: first.seed.toString(), kind: first.failures[0]!.kind } : null,
    simulatedSeconds,
    wallSeconds: Number((wallMs / 1000).toFixed(3)),
    simulatedSecondsPerWallSecond: wallMs > 0 ? Math.round(simulatedSeconds / (wallMs / 1000)) : 0,
    simulatedSecondsPerThreadSecond: threadMs > 0 ? Math.round(simulatedSeconds / (threadMs / 1000)) : 0,
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
