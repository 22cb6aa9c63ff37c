/**
 * Benchmarks: `npm run bench -- [name...]` runs the named ones (all when none is named), prints their figures and
 * writes them to bench/results/<name>.json. Tests never assert wall-clock times; these numbers are for people.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawOptions, runSimulation } from '../sim/runSimulation.js';
import { SWARM_VALIDATOR_FOLLOWER_COUNT, SWARM_VALIDATOR_LAYOUTS, validatorOptions } from '../sim/swarm.js';
import { compareWithBaseline } from './sim/baseline.js';
import { runNodeScript } from './sim/simCommand.js';
import {
  BENCH_SIM_SECONDS_PER_RUN,
  BENCH_SIM_SEEDS,
  steadyTxsPerRun,
  timeSimRuns,
  timeSteadyPass,
  type SimEntryPoints,
} from './sim/steady.js';

/** This checkout's simulator. */
const SIM: SimEntryPoints = { runSimulation, drawOptions };

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

/**
 * Simulated seconds per wall second of the seeded simulator: the steady 4-node workload, then the seeds' own
 * networks (1 sequencer + 0..2 followers, empty blocks), then of the
 * same seeds with the swarm's largest validator layout (8 validators over the sequencer and three proposing
 * followers, gossip without loss), where BLS signing and checking and the gossip timers add to every slot.
 */
async function benchSim(): Promise<BenchResult> {
  const simulatedSeconds = BENCH_SIM_SEEDS.length * BENCH_SIM_SECONDS_PER_RUN;
  // One untimed run first, then a timed pass of the seeds as this bench measured it until 26 Nov 2026 (the "first
  // pass", with much of the code still being compiled), then the pass it reports: a campaign's workers, each running
  // hundreds of seeds, spend nearly all their time in that steady state (compiled code).
  const { firstPass, steady } = await timeSteadyPass(SIM);
  const plain = await timeSimRuns(SIM, (seed) => drawOptions(seed, BENCH_SIM_SECONDS_PER_RUN));
  const layout = SWARM_VALIDATOR_LAYOUTS[SWARM_VALIDATOR_LAYOUTS.length - 1]!;
  const network = { latencyMs: { min: 20, max: 200 }, lossProbability: 0 };
  const withValidators = await timeSimRuns(SIM, (seed) => ({
    ...drawOptions(seed, BENCH_SIM_SECONDS_PER_RUN),
    ...validatorOptions({ followerCount: SWARM_VALIDATOR_FOLLOWER_COUNT, ...layout, network }),
  }));
  return {
    name: 'sim',
    figures: {
      runs: BENCH_SIM_SEEDS.length,
      simulatedSecondsPerRun: BENCH_SIM_SECONDS_PER_RUN,
      steadyNodesPerRun: steady.nodes / BENCH_SIM_SEEDS.length,
      steadyTxsSentPerRun: steadyTxsPerRun(),
      steadyWallSeconds: Number(steady.wallSeconds.toFixed(2)),
      steadySimulatedSecondsPerWallSecond: Math.round(simulatedSeconds / steady.wallSeconds),
      steadyFirstPassSimulatedSecondsPerWallSecond: Math.round(simulatedSeconds / firstPass.wallSeconds),
      steadyNote:
        "the issue's case: 4 nodes (a sequencer, 3 followers), a burst of 2 fresh txs every 4 s, no faults, one thread",
      meanNodesPerRun: plain.nodes / BENCH_SIM_SEEDS.length,
      wallSeconds: Number(plain.wallSeconds.toFixed(2)),
      simulatedSecondsPerWallSecond: Math.round(simulatedSeconds / plain.wallSeconds),
      schedulerEventsPerWallSecond: Math.round(plain.events / plain.wallSeconds),
      validatorsNodesPerRun: withValidators.nodes / BENCH_SIM_SEEDS.length,
      validatorsWallSeconds: Number(withValidators.wallSeconds.toFixed(2)),
      validatorsSimulatedSecondsPerWallSecond: Math.round(simulatedSeconds / withValidators.wallSeconds),
      ...(await benchSimCampaign(BENCH_SIM_SECONDS_PER_RUN)),
    },
  };
}

/** The campaign: seeds 1..1000 of 600 simulated s on one worker thread per CPU (SIM_BENCH_CAMPAIGN_SEEDS). */
const BENCH_CAMPAIGN_SEEDS_DEFAULT = 1000;

/**
 * The campaign runner's throughput, measured as a user runs it: `npm run sim -- campaign --seeds 1000 --workers <cpus>`
 * (swarm seeds: every fault class drawn, validators on about 40%, 1 to 5 nodes) in a child process, with the npm
 * script's Node flags, so that it relaunches itself single-threaded as the command does
 * (sim/campaign/singleThreadedV8.ts). Wall time from the spawn to the exit (worker start-up and the written report
 * included). Every run must pass. SIM_BENCH_CAMPAIGN_SEEDS=n runs seeds 1..n instead.
 */
async function benchSimCampaign(simulatedSecondsPerRun: number): Promise<Record<string, number>> {
  const workers = os.availableParallelism();
  const seeds = Number(process.env.SIM_BENCH_CAMPAIGN_SEEDS ?? BENCH_CAMPAIGN_SEEDS_DEFAULT);
  if (!Number.isSafeInteger(seeds) || seeds < 1) throw new Error(`SIM_BENCH_CAMPAIGN_SEEDS must be a positive integer`);
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'bench-campaign-'));
  try {
    const args = ['campaign', '--seeds', String(seeds), '--workers', String(workers)];
    const started = performance.now();
    const code = await runSimCommand([...args, '--seconds', String(simulatedSecondsPerRun), '--out', outDir]);
    const wallSeconds = (performance.now() - started) / 1000;
    const summary = JSON.parse(await readFile(path.join(outDir, 'summary.json'), 'utf8')) as CampaignSummaryFile;
    if (code !== 0 || summary.failed > 0)
      throw new Error(`campaign exited ${code}; failing seeds: ${summary.failingSeeds.join(', ')}`);
    return {
      campaignWorkers: workers,
      campaignRuns: seeds,
      campaignWallSeconds: Number(wallSeconds.toFixed(1)),
      campaignSimulatedSecondsPerWallSecond: Math.round((seeds * simulatedSecondsPerRun) / wallSeconds),
      campaignSimulatedSecondsPerThreadSecond: summary.simulatedSecondsPerThreadSecond,
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

/** The fields of a campaign's summary.json this bench reads. */
interface CampaignSummaryFile {
  readonly failed: number;
  readonly failingSeeds: readonly string[];
  readonly simulatedSecondsPerThreadSecond: number;
}

/** Runs `npm run sim -- <args>` as the npm script does (same Node flags), from the repository root; its exit code. */
async function runSimCommand(args: readonly string[]): Promise<number> {
  return (await runNodeScript(REPO_ROOT, 'sim/main.ts', args)).code;
}

const REPO_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const benches: Record<string, () => Promise<BenchResult>> = {
  sim: benchSim,
  'sim-baseline': async () => ({
    name: 'sim-baseline',
    figures: await compareWithBaseline(REPO_ROOT, process.env.SIM_BENCH_BASELINE || 'HEAD'),
  }),
  rpc: async () => (await import('./rpc/bench.js')).benchRpc(),
  'rpc-encode': async () => (await import('./rpc/encodeBench.js')).benchRpcEncode(),
  txpool: async () => (await import('./txPool/bench.js')).benchTxPool(),
  'world-state': async () => (await import('./worldState/bench.js')).benchWorldState(),
  p2p: async () => (await import('./p2p/bench.js')).benchP2p(),
  blobs: async () => (await import('./blobs/bench.js')).benchBlobs(),
  snapshot: async () => (await import('./snapshot/bench.js')).benchSnapshot(),
  crash: async () => (await import('./crash/bench.js')).benchCrash(),
  'campaign-queue': async () => (await import('./campaignQueue/bench.js')).benchCampaignQueue(),
  'read-load': async () => (await import('./readLoad/bench.js')).benchReadLoad(),
  'send-tx': async () => (await import('./readLoad/bench.js')).benchSendTxOverHttp(),
};

async function main(): Promise<void> {
  const names = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = names.filter((n) => !(n in benches));
  if (unknown.length > 0)
    throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  await mkdir(dir, { recursive: true });
  for (const name of names.length > 0 ? names : Object.keys(benches)) {
    const result = await benches[name]!();
    const record = {
      ...result,
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', node: process.version },
      date: new Date().toISOString(),
    };
    process.stdout.write(`${name}: ${JSON.stringify(result.figures)}\n`);
    await writeFile(path.join(dir, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
