/**
 * The simulator bench's workloads, written against the simulator's entry points passed in, so the same workload can
 * run on this checkout or on another commit's (bench/sim/baseline.ts).
 */
import type { SimOptions, SimResult } from '../../sim/runSimulation.js';

/** What a workload needs of a checkout's simulator (sim/runSimulation.ts exports both). */
export interface SimEntryPoints {
  readonly runSimulation: (options: SimOptions) => Promise<SimResult>;
  readonly drawOptions: (seed: bigint, simulatedSeconds: number) => SimOptions;
}

export const BENCH_SIM_SEEDS = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n];
export const BENCH_SIM_SECONDS_PER_RUN = 600;
/** A seed outside BENCH_SIM_SEEDS, run once untimed before the timed runs. */
export const BENCH_SIM_WARM_UP_SEED = 99n;

/** Steady workload: a burst of BENCH_STEADY_TXS_PER_BURST fresh txs every BENCH_STEADY_BURST_INTERVAL_MS. */
const BENCH_STEADY_BURST_INTERVAL_MS = 4_000;
const BENCH_STEADY_TXS_PER_BURST = 2;
/** The steady workload stops a minute before the end (the last txs still get mined and checkpointed). */
const BENCH_STEADY_WORKLOAD_END_MS = (BENCH_SIM_SECONDS_PER_RUN - 60) * 1000;

export function steadyTxsPerRun(): number {
  return Math.floor((BENCH_STEADY_WORKLOAD_END_MS - 1) / BENCH_STEADY_BURST_INTERVAL_MS) * BENCH_STEADY_TXS_PER_BURST;
}

/** The benchmark case: 4 nodes, a steady tx workload, no faults. */
export function steadyWorkloadOptions(sim: SimEntryPoints, seed: bigint): SimOptions {
  const steps = Array.from(
    { length: Math.floor((BENCH_STEADY_WORKLOAD_END_MS - 1) / BENCH_STEADY_BURST_INTERVAL_MS) },
    (_, i) => ({
      atMs: (i + 1) * BENCH_STEADY_BURST_INTERVAL_MS,
      kind: 'tx.burst' as const,
      count: BENCH_STEADY_TXS_PER_BURST,
      feeSeed: i,
    }),
  );
  return {
    ...sim.drawOptions(seed, BENCH_SIM_SECONDS_PER_RUN),
    followerCount: 3,
    proverNode: false,
    schedule: { safetyEndMs: BENCH_STEADY_WORKLOAD_END_MS, steps },
  };
}

export interface TimedRuns {
  readonly wallSeconds: number;
  readonly events: number;
  readonly nodes: number;
}

/** Runs `seeds` with `optionsOf` drawn per seed, without faults; every run must pass its checkers. */
export async function timeSimRuns(
  sim: SimEntryPoints,
  optionsOf: (seed: bigint) => SimOptions,
  seeds: readonly bigint[] = BENCH_SIM_SEEDS,
): Promise<TimedRuns> {
  let events = 0;
  let nodes = 0;
  const started = performance.now();
  for (const seed of seeds) {
    const result = await sim.runSimulation(optionsOf(seed));
    if (result.failures.length > 0) throw new Error(`seed ${seed} failed: ${JSON.stringify(result.failures)}`);
    events += result.eventsRun;
    nodes += result.nodes.length;
  }
  return { wallSeconds: (performance.now() - started) / 1000, events, nodes };
}

/**
 * The steady case as the bench reports it: an untimed warm-up seed, a first pass of the seeds (much of the code still
 * being compiled), then the steady pass, which is what a campaign's long-lived workers see.
 */
export async function timeSteadyPass(sim: SimEntryPoints): Promise<{ firstPass: TimedRuns; steady: TimedRuns }> {
  const optionsOf = (seed: bigint) => steadyWorkloadOptions(sim, seed);
  await timeSimRuns(sim, optionsOf, [BENCH_SIM_WARM_UP_SEED]);
  const firstPass = await timeSimRuns(sim, optionsOf);
  const steady = await timeSimRuns(sim, optionsOf);
  return { firstPass, steady };
}
