/**
 * `npm run bench -- crash`: the kill -9 soak of a syncing follower (bench/crash/crashSoak.ts), CRASH_KILLS_DEFAULT
 * kills. `CRASH_BENCH_SEED` and `CRASH_BENCH_KILLS` override the seed and the count, to replay a failure or for a
 * quick look. Any inconsistency fails the bench with the seed and the kill index.
 */
import { runCrashSoak, type CrashSoakResult, type KillPhase } from './crashSoak.js';

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

const CRASH_KILLS_DEFAULT = 100;
const CRASH_SEED_DEFAULT = 1n;
/** Kills land up to this long after the follower opens its database: its startup, a sync of its backlog, the tip. */
const CRASH_RUN_MS_MAX = 10_000;
/** The follower is down up to this long after a kill (the sequencer makes a checkpoint every 4 s meanwhile). */
const CRASH_DOWN_MS_MAX = 4_000;
/** Warning messages listed in the results at most (each with its count). */
const WARNINGS_LISTED_MAX = 10;

export async function benchCrash(): Promise<BenchResult> {
  const seed = BigInt(process.env.CRASH_BENCH_SEED ?? CRASH_SEED_DEFAULT);
  const kills = Number(process.env.CRASH_BENCH_KILLS ?? CRASH_KILLS_DEFAULT);
  const result = await runCrashSoak({
    seed,
    kills,
    runMsMax: CRASH_RUN_MS_MAX,
    downMsMax: CRASH_DOWN_MS_MAX,
    progress: (line) => process.stderr.write(`crash: ${line}\n`),
  });
  if (result.failure !== undefined) {
    const { killIndex, problems, output } = result.failure;
    throw new Error(
      `crash soak seed ${seed}, after kill ${killIndex} (replay: CRASH_BENCH_SEED=${seed} CRASH_BENCH_KILLS=${kills}):\n` +
        `${problems.join('\n')}\nthe follower's last output:\n${output}`,
    );
  }
  return { name: 'crash', figures: crashFigures(result, kills) };
}

export function crashFigures(result: CrashSoakResult, kills: number): Record<string, number | string> {
  const restarts = result.kills.flatMap((kill) => (kill.restart !== undefined ? [kill.restart] : []));
  const reopenMs = sorted(restarts.flatMap((r) => (r.reopenMs !== undefined ? [r.reopenMs] : [])));
  const catchUpSeconds = sorted(restarts.flatMap((r) => (r.catchUpMs !== undefined ? [r.catchUpMs / 1000] : [])));
  const phases = (phase: KillPhase) => result.kills.filter((kill) => kill.phase === phase).length;
  return {
    seed: result.seed,
    kills,
    failures: result.failure === undefined ? 0 : 1,
    killsDuringStartup: phases('startup'),
    killsMidSync: phases('sync'),
    killsAtTip: phases('tip'),
    restartsChecked: restarts.filter((r) => r.checked).length,
    'reopenMs.p50': Math.round(percentile(reopenMs, 50)),
    'reopenMs.p99': Math.round(percentile(reopenMs, 99)),
    'catchUpSeconds.p50': round(percentile(catchUpSeconds, 50), 1),
    'catchUpSeconds.p99': round(percentile(catchUpSeconds, 99), 1),
    restartsCaughtUp: catchUpSeconds.length,
    blocksResynced: restarts.reduce((sum, r) => sum + (r.blocksSynced ?? 0), 0),
    sequencerBlocks: result.sequencerBlocks,
    wallSeconds: Math.round(result.wallSeconds),
    warnings: warningSummary(result.warnings),
  };
}

function warningSummary(warnings: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const warning of warnings) counts.set(warning, (counts.get(warning) ?? 0) + 1);
  const listed = [...counts].sort((a, b) => b[1] - a[1]).slice(0, WARNINGS_LISTED_MAX);
  return listed.length === 0 ? 'none' : listed.map(([message, count]) => `${count}x ${message}`).join('; ');
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile of sorted values; NaN when there are none. */
function percentile(sortedValues: readonly number[], p: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const index = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1));
  return sortedValues[index]!;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
