import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { replayCommand } from './campaign/campaignRun.js';
import { formatSummary } from './campaign/campaignSummary.js';
import { runCampaign } from './campaign/runCampaign.js';
import { runDeterminismCheck } from './campaign/runDeterminismCheck.js';
import { drawOptions, runSimulation, SIM_SECONDS_DEFAULT, type SimFailure } from './runSimulation.js';

/**
 * Exit codes, one per kind of failure (TigerBeetle's VOPR style): 2x safety (a rule broken while faults run), 3x
 * liveness (no progress, no convergence after the faults heal).
 */
export const SIM_EXIT_CODE = {
  ok: 0,
  crashed: 20,
  tipsOutOfOrder: 21,
  nodesDiverged: 22,
  finalizedMovedBack: 23,
  finalizedConflict: 24,
  stateRootsDiffer: 25,
  poolNullifierShared: 26,
  txUnaccounted: 27,
  replacementWithoutBump: 28,
  rollbackRootsChanged: 29,
  noProgress: 30,
  notConverged: 31,
} as const satisfies Record<'ok' | SimFailure['kind'], number>;

/**
 * Exit codes of the subcommands. A campaign with failing runs exits with the SIM_EXIT_CODE of the lowest failing
 * seed's first failure; the determinism check has its own code; 1 is an error of the harness itself.
 */
export const CAMPAIGN_EXIT_CODE = {
  nondeterministic: 40,
} as const;

/** How many failing seeds a campaign prints a replay line for (the failing-seed database has all of them). */
const CAMPAIGN_REPLAY_LINES_MAX = 10;

function parseSeed(value: string): bigint {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`seed "${value}" must be a non-negative decimal integer`);
  const seed = BigInt(value);
  if (seed >= 2n ** 64n) throw new InvalidArgumentError('seed must fit in 64 bits');
  return seed;
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`"${value}" is not a positive number of seconds`);
  return n;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

function commitOfCheckout(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

const stringify = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** One seeded run: options, per-node summary, trace hash, and the exit code of its first failure. */
async function runOne(flags: { seed?: bigint; simulatedSeconds: number; verbose?: boolean }): Promise<void> {
  const seed = flags.seed ?? randomBytes(8).readBigUInt64BE();
  const options = drawOptions(seed, flags.simulatedSeconds);
  process.stdout.write(`seed: ${seed}\n`);
  process.stdout.write(`options: ${stringify(options)}\n`);
  const started = performance.now();
  const result = await runSimulation(options, flags.verbose ? { print: (line) => process.stdout.write(`${line}\n`) } : {});
  const wallSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`L1: head ${result.l1Head}, ${result.l1Checkpoints} checkpoints\n`);
  for (const n of result.nodes) {
    process.stdout.write(
      `${n.name} (${n.role}): proposed ${n.proposed}, checkpointed block ${n.checkpointedBlock} (checkpoint ${n.checkpoint}), machines ${stringify(n.machines)}\n`,
    );
  }
  process.stdout.write(
    `summary: ${result.eventsRun} events, ${result.traceEntries} trace entries, ${options.simulatedSeconds} simulated s in ${wallSeconds.toFixed(2)} wall s (${(options.simulatedSeconds / wallSeconds).toFixed(0)}x)\n`,
  );
  process.stdout.write(`trace hash: ${result.traceHash}\n`);
  if (result.failures.length === 0) {
    process.stdout.write('result: ok\n');
    return;
  }
  for (const f of result.failures) process.stdout.write(`FAILURE ${f.kind}: ${'node' in f ? `${f.node}: ` : ''}${f.detail}\n`);
  process.stdout.write(`replay: ${replayCommand(seed, options.simulatedSeconds)}   (commit ${commitOfCheckout()})\n`);
  process.exitCode = SIM_EXIT_CODE[result.failures[0]!.kind];
}

interface CampaignFlags {
  seeds: number;
  from: bigint;
  workers: number;
  seconds: number;
  out: string;
}

/** Refuses (as a usage error) a seed range that runs past the 64-bit seeds `--seed` accepts. */
function checkSeedRange(flags: { from: bigint; seeds: number }, command: Command): void {
  if (flags.from + BigInt(flags.seeds) > 2n ** 64n) command.error('error: the seed range must end below 2^64');
}

async function campaign(flags: CampaignFlags): Promise<void> {
  const outcome = await runCampaign({ from: flags.from, seeds: flags.seeds, workers: flags.workers, simulatedSeconds: flags.seconds, outDir: flags.out, progress: process.stderr });
  for (const line of formatSummary(outcome.summary)) process.stdout.write(`${line}\n`);
  const failing = outcome.runs.filter((r) => r.failures.length > 0);
  for (const run of failing.slice(0, CAMPAIGN_REPLAY_LINES_MAX)) {
    process.stdout.write(`FAILURE seed ${run.seed} ${run.failures.map((f) => f.kind).join(',')}: ${replayCommand(run.seed, run.simulatedSeconds)}\n`);
  }
  process.stdout.write(`summary: ${outcome.summaryPath}\nreport: ${outcome.reportPath}\n`);
  if (failing.length > 0) process.stdout.write(`failing seeds appended to ${outcome.failuresPath}\n`);
  const first = outcome.summary.firstFailure;
  if (first !== null) process.exitCode = SIM_EXIT_CODE[first.kind];
}

async function determinism(flags: Omit<CampaignFlags, 'out'>): Promise<void> {
  const outcome = await runDeterminismCheck({ from: flags.from, seeds: flags.seeds, workers: flags.workers, simulatedSeconds: flags.seconds, progress: process.stderr });
  for (const m of outcome.mismatches) {
    process.stdout.write(`MISMATCH seed ${m.seed}: ${m.first.traceHash ?? 'no trace'} (${m.first.traceEntries} entries) vs ${m.second.traceHash ?? 'no trace'} (${m.second.traceEntries} entries)\n`);
  }
  const verdict = outcome.mismatches.length === 0 ? 'every seed gave the same trace hash twice' : `${outcome.mismatches.length} seeds differ`;
  process.stdout.write(`determinism: ${outcome.seeds} seeds x 2 runs in two threads, ${flags.seconds} simulated s each, ${outcome.wallSeconds.toFixed(1)} wall s: ${verdict}\n`);
  if (outcome.mismatches.length > 0) process.exitCode = CAMPAIGN_EXIT_CODE.nondeterministic;
}

/** The options campaign and determinism share. */
function seedRangeCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .requiredOption('--seeds <n>', 'how many seeds to run', parseCount)
    .addOption(new Option('--from <s>', 'the first seed').argParser(parseSeed).default(1n, '1'))
    .addOption(new Option('--workers <w>', 'worker threads').argParser(parseCount).default(os.availableParallelism(), `the CPU count, ${os.availableParallelism()}`))
    .option('--seconds <t>', 'simulated seconds per run', parseSeconds, SIM_SECONDS_DEFAULT);
}

async function main(): Promise<void> {
  const program = new Command('sim')
    .description('run the node core over simulated ports, reproducibly from a seed')
    .enablePositionalOptions()
    .option('--seed <n>', 'the run seed (random when omitted; it is printed either way)', parseSeed)
    .option('--simulated-seconds <s>', 'simulated time to run', parseSeconds, SIM_SECONDS_DEFAULT)
    .option('--verbose', 'print node logs with simulated time')
    .action((flags: { seed?: bigint; simulatedSeconds: number; verbose?: boolean }) => runOne(flags));
  program.addCommand(
    seedRangeCommand('campaign', 'run seeds from..from+seeds-1 on worker threads: progress, failing-seed database, summary, HTML report')
      .option('--out <dir>', 'where summary.json, report.html and failures.jsonl go', 'sim-out/campaign')
      .action((flags: CampaignFlags, command: Command) => {
        checkSeedRange(flags, command);
        return campaign(flags);
      }),
  );
  program.addCommand(
    seedRangeCommand('determinism', 'run every seed twice in two worker threads and compare trace hashes').action((flags: Omit<CampaignFlags, 'out'>, command: Command) => {
      checkSeedRange(flags, command);
      return determinism(flags);
    }),
  );
  await program.parseAsync(process.argv);
}

main().catch((error: unknown) => {
  process.stderr.write(`sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
