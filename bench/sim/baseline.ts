/**
 * The simulator against a baseline commit in the same run: `SIM_BENCH_BASELINE=<commit> npm run bench -- sim-baseline`
 * (HEAD when unset, which measures the uncommitted changes of this checkout).
 *
 * This project's machines are shared, and the same code's speed moves by a quarter from one minute to the next: two
 * runs one after the other can differ by that much with nothing changed, and so can two runs at once, each on a CPU
 * of its own (a vCPU's neighbour on the host matters). So each round runs both commits at the same time, each in a
 * process of its own, and swaps the two CPUs between them every BENCH_BASELINE_CPU_SWAP_MS (with `taskset`): both
 * then meet the same load on the same CPUs. Over two runs of 4 rounds of one commit against itself, the rounds'
 * ratios stayed within 0.98 to 1.04. The figure is the median over rounds of the baseline's time over this
 * checkout's, so above 1 means this checkout is faster. Without `taskset` or a second CPU, the two run one after the
 * other, the order swapped every round.
 *
 * Each round times the steady case (bench/sim/steady.ts) and a campaign of SIM_BENCH_BASELINE_CAMPAIGN_SEEDS seeds
 * (one worker thread each when run at once, one per CPU otherwise). The baseline is checked out with `git worktree`
 * into a temporary directory that shares this checkout's node_modules, and removed afterwards.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { integerSetting, positiveIntegerSetting } from '../envSettings.js';
import { canPinProcesses, pinProcessTree, startNodeScript, type StartedScript } from './simCommand.js';

/** Rounds unless SIM_BENCH_BASELINE_ROUNDS says otherwise. */
export const BENCH_BASELINE_ROUNDS_DEFAULT = 3;
/** Seeds of each round's campaign unless SIM_BENCH_BASELINE_CAMPAIGN_SEEDS says otherwise (0: no campaign). */
export const BENCH_BASELINE_CAMPAIGN_SEEDS_DEFAULT = 200;
/** Bounds of the two settings: more would run for days, which is a typo rather than a wish. */
const BENCH_BASELINE_ROUNDS_MAX = 100;
const BENCH_BASELINE_CAMPAIGN_SEEDS_MAX = 1_000_000;
const BENCH_BASELINE_SIMULATED_SECONDS = 600;

interface RoundTimes {
  readonly steadySeconds: number;
  readonly campaignSeconds: number | undefined;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round2 = (value: number) => Number(value.toFixed(2));

/** The full hash of `rev` in the repository at `root`; a clear error when it names no commit. */
function resolveCommit(root: string, rev: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error(`SIM_BENCH_BASELINE=${rev} names no commit of this repository`);
  }
}

/** How often paired runs swap CPUs. */
export const BENCH_BASELINE_CPU_SWAP_MS = 500;

/** One measurement of one tree: a started script, and how to read its figure once it ends. */
interface Measurement {
  readonly script: StartedScript;
  readonly seconds: () => Promise<number>;
}

/** The steady case on `tree`, in a child process; its figure is the steady pass's wall seconds. */
function measureSteady(tree: string): Measurement {
  const script = startNodeScript(tree, path.join(tree, 'bench', 'sim', 'steadyChild.ts'), [tree]);
  return {
    script,
    seconds: async () => {
      const { code, stdout } = await script.done;
      if (code !== 0) throw new Error(`the steady case failed in ${tree} (exit ${code})`);
      return (JSON.parse(stdout.trim().split('\n').pop()!) as { steadyWallSeconds: number }).steadyWallSeconds;
    },
  };
}

/** `npm run sim -- campaign` on `tree` with `workers` threads; its figure is the command's wall seconds. */
function measureCampaign(tree: string, seeds: number, workers: number, outDir: string): Measurement {
  const started = performance.now();
  const args = ['campaign', '--seeds', String(seeds), '--workers', String(workers)];
  const script = startNodeScript(tree, 'sim/main.ts', [
    ...args,
    '--seconds',
    String(BENCH_BASELINE_SIMULATED_SECONDS),
    '--out',
    outDir,
  ]);
  const ended = script.done.then((result) => ({ ...result, seconds: (performance.now() - started) / 1000 }));
  return {
    script,
    seconds: async () => {
      const { code, seconds } = await ended;
      const summary = JSON.parse(await readFile(path.join(outDir, 'summary.json'), 'utf8')) as { failed: number };
      if (code !== 0 || summary.failed > 0) throw new Error(`the campaign failed in ${tree} (exit ${code})`);
      return seconds;
    },
  };
}

/**
 * Measures both trees: at once, swapping the two CPUs between them every BENCH_BASELINE_CPU_SWAP_MS, when `paired`;
 * else one after the other, the baseline first unless `swapped`. Returns the baseline's figure, then this checkout's.
 */
async function measureBoth(
  measure: (tree: string) => Measurement,
  trees: { readonly base: string; readonly current: string },
  paired: boolean,
  swapped: boolean,
): Promise<[number, number]> {
  if (!paired) {
    const order = swapped ? [trees.current, trees.base] : [trees.base, trees.current];
    const first = await measure(order[0]!).seconds();
    const second = await measure(order[1]!).seconds();
    return swapped ? [second, first] : [first, second];
  }
  const base = swapped ? undefined : measure(trees.base);
  const current = measure(trees.current);
  const baseMeasured = base ?? measure(trees.base);
  let cpu = swapped ? 1 : 0;
  const swap = () => {
    pinProcessTree(baseMeasured.script.pid, cpu);
    pinProcessTree(current.script.pid, 1 - cpu);
    cpu = 1 - cpu;
  };
  swap();
  const timer = setInterval(swap, BENCH_BASELINE_CPU_SWAP_MS);
  try {
    return await Promise.all([baseMeasured.seconds(), current.seconds()]);
  } finally {
    clearInterval(timer);
  }
}

/** One round: the steady case, then (unless 0 seeds) a campaign, each on both trees. */
async function timeRound(
  trees: { readonly base: string; readonly current: string },
  campaignSeeds: number,
  paired: boolean,
  swapped: boolean,
): Promise<{ base: RoundTimes; current: RoundTimes }> {
  const [baseSteady, currentSteady] = await measureBoth(measureSteady, trees, paired, swapped);
  if (campaignSeeds === 0) {
    return {
      base: { steadySeconds: baseSteady, campaignSeconds: undefined },
      current: { steadySeconds: currentSteady, campaignSeconds: undefined },
    };
  }
  const workers = paired ? 1 : os.availableParallelism();
  const outRoot = await mkdtemp(path.join(os.tmpdir(), 'bench-baseline-campaign-'));
  try {
    const campaignIn = (tree: string) =>
      measureCampaign(tree, campaignSeeds, workers, path.join(outRoot, tree === trees.base ? 'base' : 'current'));
    const [baseCampaign, currentCampaign] = await measureBoth(campaignIn, trees, paired, swapped);
    return {
      base: { steadySeconds: baseSteady, campaignSeconds: baseCampaign },
      current: { steadySeconds: currentSteady, campaignSeconds: currentCampaign },
    };
  } finally {
    await rm(outRoot, { recursive: true, force: true });
  }
}

/**
 * Compares this checkout (`root`) with commit `rev`, as the module comment says. The steady case's child script is
 * this checkout's (bench/sim/steadyChild.ts, copied into the baseline tree when the baseline predates it), run on
 * each tree's own simulator.
 */
export async function compareWithBaseline(root: string, rev: string): Promise<Record<string, number | string>> {
  const rounds = positiveIntegerSetting(
    'SIM_BENCH_BASELINE_ROUNDS',
    BENCH_BASELINE_ROUNDS_DEFAULT,
    BENCH_BASELINE_ROUNDS_MAX,
  );
  const campaignSeeds = integerSetting(
    'SIM_BENCH_BASELINE_CAMPAIGN_SEEDS',
    BENCH_BASELINE_CAMPAIGN_SEEDS_DEFAULT,
    0,
    BENCH_BASELINE_CAMPAIGN_SEEDS_MAX,
  );
  const commit = resolveCommit(root, rev);
  const baseTree = await mkdtemp(path.join(os.tmpdir(), 'bench-baseline-'));
  execFileSync('git', ['worktree', 'add', '--detach', '--force', baseTree, commit], { cwd: root, stdio: 'ignore' });
  try {
    await symlink(path.join(root, 'node_modules'), path.join(baseTree, 'node_modules'), 'dir');
    await copyBenchScripts(root, baseTree);
    const paired = canPinProcesses() && os.availableParallelism() >= 2;
    const base: RoundTimes[] = [];
    const current: RoundTimes[] = [];
    for (let round = 0; round < rounds; round++) {
      const times = await timeRound({ base: baseTree, current: root }, campaignSeeds, paired, round % 2 === 1);
      base.push(times.base);
      current.push(times.current);
      process.stderr.write(`baseline round ${round + 1}/${rounds}: ${JSON.stringify(times)}\n`);
    }
    return baselineFigures(commit, campaignSeeds, paired, base, current);
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', baseTree], { cwd: root, stdio: 'ignore' });
    await rm(baseTree, { recursive: true, force: true });
  }
}

/** The steady child and what it imports, from this checkout, so that a baseline older than them runs them too. */
async function copyBenchScripts(root: string, tree: string): Promise<void> {
  await cp(path.join(root, 'bench', 'sim'), path.join(tree, 'bench', 'sim'), { recursive: true });
}

export function baselineFigures(
  commit: string,
  campaignSeeds: number,
  paired: boolean,
  base: readonly RoundTimes[],
  current: readonly RoundTimes[],
): Record<string, number | string> {
  const ratios = (pick: (t: RoundTimes) => number | undefined) => base.map((b, i) => pick(b)! / pick(current[i]!)!);
  const figures: Record<string, number | string> = {
    baselineCommit: commit,
    baselineRounds: base.length,
    baselinePairing: paired ? 'at once, swapping CPUs' : 'one after the other',
    baselineSteadyWallSeconds: round2(median(base.map((t) => t.steadySeconds))),
    baselineCurrentSteadyWallSeconds: round2(median(current.map((t) => t.steadySeconds))),
    baselineSteadySpeedup: round2(median(ratios((t) => t.steadySeconds))),
  };
  if (campaignSeeds === 0) return figures;
  return {
    ...figures,
    baselineCampaignSeeds: campaignSeeds,
    baselineCampaignWorkers: paired ? 1 : os.availableParallelism(),
    baselineCampaignWallSeconds: round2(median(base.map((t) => t.campaignSeconds!))),
    baselineCurrentCampaignWallSeconds: round2(median(current.map((t) => t.campaignSeconds!))),
    baselineCampaignSpeedup: round2(median(ratios((t) => t.campaignSeconds))),
  };
}
