import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { replayCommand } from './campaign/campaignRun.js';
import { formatSummary } from './campaign/campaignSummary.js';
import { CampaignQueueError } from './campaign/campaignQueueError.js';
import { QUEUE_NAME_DEFAULT, SEEDS_PER_JOB_DEFAULT, SEEDS_PER_JOB_MAX } from './campaign/campaignQueue.js';
import { runQueuedCampaign, showCampaignStatus } from './campaign/queueCoordinator.js';
import { runQueueWorker } from './campaign/queueWorker.js';
import { runCampaign, type CampaignOutcome } from './campaign/runCampaign.js';
import { runDeterminismCheck } from './campaign/runDeterminismCheck.js';
import { describeStep } from './faults.js';
import { failureKindsOf, parseReplay, replayOf, serializeReplay } from './replayFile.js';
import { shrinkSchedule } from './replayShrink.js';
import {
  runSimulation,
  SIM_SECONDS_DEFAULT,
  type SimFailure,
  type SimOptions,
  type SimResult,
} from './runSimulation.js';
import { drawSwarmOptions } from './swarm.js';

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
  upgradeMishandled: 32,
  txLifecycleViolated: 33,
  adminOverlapAccepted: 34,
  snapshotUploadRuleBroken: 35,
  checkpointFeesWrong: 36,
  slotOutcomeWrong: 37,
  proposerWrong: 38,
} as const satisfies Record<'ok' | SimFailure['kind'], number>;

/**
 * Exit codes of the subcommands. A campaign with failing runs exits with the SIM_EXIT_CODE of the lowest failing
 * seed's first failure; the determinism check has its own code; 1 is an error of the harness itself.
 */
export const CAMPAIGN_EXIT_CODE = {
  nondeterministic: 40,
  /** A replay file's run did not show the failures the file expects (none, for a regression): see its output. */
  replayExpectationUnmet: 41,
  /** A queue worker refused a campaign whose code is not its checkout's (the message says which). */
  workerCodeMismatch: 42,
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
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError(`"${value}" is not a positive number of seconds`);
  return n;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

function commitOfCheckout(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

const stringify = (value: unknown) =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** The options as printed beside the seed: the schedule is summarized (the replay file has every step). */
function printableOptions(options: SimOptions): Record<string, unknown> {
  const { schedule, ...rest } = options;
  return schedule === undefined
    ? rest
    : { ...rest, schedule: { safetyEndMs: schedule.safetyEndMs, steps: schedule.steps.length } };
}

/** Runs one set of options and prints what happened; returns the result and the wall time. */
async function runAndPrint(
  options: SimOptions,
  verbose: boolean | undefined,
): Promise<{ result: SimResult; wallSeconds: number }> {
  process.stdout.write(`seed: ${options.seed}\n`);
  process.stdout.write(`options: ${stringify(printableOptions(options))}\n`);
  for (const step of options.schedule?.steps ?? [])
    process.stdout.write(`  step ${step.atMs} ms: ${describeStep(step)}\n`);
  const started = performance.now();
  const result = await runSimulation(options, verbose ? { print: (line) => process.stdout.write(`${line}\n`) } : {});
  const wallSeconds = (performance.now() - started) / 1000;
  process.stdout.write(`L1: head ${result.l1Head}, ${result.l1Checkpoints} checkpoints\n`);
  for (const n of result.nodes) {
    process.stdout.write(
      `${n.name} (${n.role}): proposed ${n.proposed}, checkpointed block ${n.checkpointedBlock} (checkpoint ${n.checkpoint}), machines ${stringify(n.machines)}\n`,
    );
  }
  const hit = result.coverage.reduce((sum, m) => sum + m.hit.length, 0);
  const all = result.coverage.reduce((sum, m) => sum + m.hit.length + m.missed.length, 0);
  const count = (
    pick: (m: (typeof result.coverage)[number]) => {
      readonly hit: readonly string[];
      readonly missed: readonly string[];
    },
  ) =>
    result.coverage.reduce(
      (sum, m) => [sum[0]! + pick(m).hit.length, sum[1]! + pick(m).hit.length + pick(m).missed.length],
      [0, 0],
    );
  const [eventsHit, eventsAll] = count((m) => m.events);
  const [guardsHit, guardsAll] = count((m) => m.guards);
  process.stdout.write(
    `faults and workload: ${result.events.length} events; machine transitions taken: ${hit} of ${all}, events received: ${eventsHit} of ${eventsAll}, guard outcomes seen: ${guardsHit} of ${guardsAll}\n`,
  );
  process.stdout.write(
    `summary: ${result.eventsRun} events, ${result.traceEntries} trace entries, ${options.simulatedSeconds} simulated s in ${wallSeconds.toFixed(2)} wall s (${(options.simulatedSeconds / wallSeconds).toFixed(0)}x)\n`,
  );
  process.stdout.write(`trace hash: ${result.traceHash}\n`);
  for (const f of result.failures)
    process.stdout.write(`FAILURE ${f.kind}: ${'node' in f ? `${f.node}: ` : ''}${f.detail}\n`);
  return { result, wallSeconds };
}

function writeReplayFile(file: string, options: SimOptions, note: string, result: SimResult): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, serializeReplay(replayOf(options, note, failureKindsOf(result.failures))), 'utf8');
  process.stdout.write(`replay file: ${file}   (npm run sim -- replay ${file})\n`);
}

/** One seeded run: options, per-node summary, trace hash, and the exit code of its first failure. */
async function runOne(flags: {
  seed?: bigint;
  simulatedSeconds: number;
  verbose?: boolean;
  saveReplay?: string;
}): Promise<void> {
  const seed = flags.seed ?? randomBytes(8).readBigUInt64BE();
  const options = drawSwarmOptions(seed, flags.simulatedSeconds);
  const { result } = await runAndPrint(options, flags.verbose);
  const commit = commitOfCheckout();
  if (flags.saveReplay !== undefined)
    writeReplayFile(
      flags.saveReplay,
      options,
      `seed ${seed}, ${options.simulatedSeconds} simulated s, drawn at commit ${commit}`,
      result,
    );
  if (result.failures.length === 0) {
    process.stdout.write('result: ok\n');
    return;
  }
  process.stdout.write(`replay: ${replayCommand(seed, options.simulatedSeconds)}   (commit ${commit})\n`);
  if (flags.saveReplay === undefined)
    process.stdout.write(`keep it as a regression: add --save-replay test/regressions/<name>.json\n`);
  process.exitCode = SIM_EXIT_CODE[result.failures[0]!.kind];
}

/** Replays a replay file: its exact options and schedule; exits non-zero unless the failures are the ones it expects. */
async function replayFile(file: string, flags: { verbose?: boolean }): Promise<void> {
  const replay = parseReplay(readFileSync(file, 'utf8'));
  process.stdout.write(`replay: ${file}\nnote: ${replay.note}\n`);
  const { result } = await runAndPrint(replay.options, flags.verbose);
  const kinds = failureKindsOf(result.failures);
  const expected = replay.expectedFailureKinds;
  if (kinds.join(',') === expected.join(',')) {
    process.stdout.write(`result: as expected (${expected.length === 0 ? 'no failures' : expected.join(', ')})\n`);
    return;
  }
  process.stdout.write(
    `result: expected ${expected.length === 0 ? 'no failures' : expected.join(', ')}, got ${kinds.length === 0 ? 'none' : kinds.join(', ')}\n`,
  );
  const unexpected = result.failures.find((f) => !expected.includes(f.kind));
  process.exitCode =
    unexpected !== undefined ? SIM_EXIT_CODE[unexpected.kind] : CAMPAIGN_EXIT_CODE.replayExpectationUnmet;
}

/** Shrinks a seed's failing schedule to a minimal one and writes it as a replay file. */
async function shrink(flags: { seed: bigint; seconds: number; kind?: string; out?: string }): Promise<void> {
  const options = drawSwarmOptions(flags.seed, flags.seconds);
  const whole = await runSimulation(options);
  const kind = (flags.kind ?? whole.failures[0]?.kind) as SimFailure['kind'] | undefined;
  if (kind === undefined || !whole.failures.some((f) => f.kind === kind)) {
    process.stdout.write(
      `seed ${flags.seed} does not fail${flags.kind !== undefined ? ` with ${flags.kind}` : ''}: nothing to shrink\n`,
    );
    process.exitCode = 1;
    return;
  }
  process.stdout.write(
    `shrinking seed ${flags.seed} (${options.schedule?.steps.length ?? 0} steps) to a minimal schedule that still fails with ${kind}\n`,
  );
  let candidates = 0;
  const outcome = await shrinkSchedule(options, kind, (steps, failed) => {
    candidates++;
    if (failed) process.stderr.write(`  candidate ${candidates}: ${steps} steps still fail\n`);
  });
  for (const step of outcome.options.schedule!.steps)
    process.stdout.write(`  step ${step.atMs} ms: ${describeStep(step)}\n`);
  for (const f of outcome.result.failures)
    process.stdout.write(`FAILURE ${f.kind}: ${'node' in f ? `${f.node}: ` : ''}${f.detail}\n`);
  const file = flags.out ?? path.join('sim-out', 'replays', `seed-${flags.seed}-${kind}.json`);
  const note = `seed ${flags.seed} (${flags.seconds} simulated s) shrunk to ${outcome.options.schedule!.steps.length} steps that still fail with ${kind}, at commit ${commitOfCheckout()}`;
  writeReplayFile(file, outcome.options, note, outcome.result);
  process.stdout.write(`${candidates} candidate runs, ${outcome.shrinks} shrinks\n`);
}

interface CampaignFlags {
  seeds?: number;
  from: bigint;
  workers: number;
  seconds: number;
  out: string;
  queue?: string;
  queueName: string;
  seedsPerJob: number;
  resume?: string | true;
  status?: boolean;
}

/** Refuses (as a usage error) a seed range that runs past the 64-bit seeds `--seed` accepts. */
function checkSeedRange(flags: { from: bigint; seeds: number }, command: Command): void {
  if (flags.from + BigInt(flags.seeds) > 2n ** 64n) command.error('error: the seed range must end below 2^64');
}

const logLine = (line: string) => process.stderr.write(`${line}\n`);

async function campaign(flags: CampaignFlags, command: Command): Promise<void> {
  if ((flags.status === true || flags.resume !== undefined) && flags.queue === undefined)
    command.error('error: --status and --resume need --queue <url>');
  // With a queue the threads are the workers' (npm run sim -- worker --threads n), not this process's.
  if (flags.queue !== undefined && command.getOptionValueSource('workers') === 'cli')
    command.error('error: --workers runs local threads; with --queue, give each worker --threads <n> instead');
  if (flags.status === true) {
    await showCampaignStatus(flags.queue!, flags.queueName, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  if (flags.seeds === undefined && flags.resume === undefined)
    command.error("error: required option '--seeds <n>' not specified");
  if (flags.seeds !== undefined) checkSeedRange({ from: flags.from, seeds: flags.seeds }, command);
  const outcome =
    flags.queue === undefined
      ? await runCampaign({
          from: flags.from,
          seeds: flags.seeds!,
          workers: flags.workers,
          simulatedSeconds: flags.seconds,
          outDir: flags.out,
          progress: process.stderr,
        })
      : await runQueuedCampaign({
          queueUrl: flags.queue,
          queueName: flags.queueName,
          from: flags.from,
          seeds: flags.seeds ?? 0,
          simulatedSeconds: flags.seconds,
          seedsPerJob: flags.seedsPerJob,
          outDir: flags.out,
          resume: flags.resume,
          progress: process.stderr,
          log: logLine,
        });
  printCampaignOutcome(outcome);
}

function printCampaignOutcome(outcome: CampaignOutcome): void {
  for (const line of formatSummary(outcome.summary)) process.stdout.write(`${line}\n`);
  for (const run of outcome.failingRuns.slice(0, CAMPAIGN_REPLAY_LINES_MAX)) {
    process.stdout.write(
      `FAILURE seed ${run.seed} ${run.failures.map((f) => f.kind).join(',')}: ${replayCommand(run.seed, run.simulatedSeconds)}\n`,
    );
  }
  process.stdout.write(`summary: ${outcome.summaryPath}\nreport: ${outcome.reportPath}\n`);
  if (outcome.summary.failed > 0) process.stdout.write(`failing seeds appended to ${outcome.failuresPath}\n`);
  const first = outcome.summary.firstFailure;
  if (first !== null) process.exitCode = SIM_EXIT_CODE[first.kind];
}

/** `worker`: takes campaign jobs from the queue; SIGINT/SIGTERM give the running jobs back after their seed. */
async function worker(flags: { queue: string; queueName: string; threads: number; forever?: boolean }): Promise<void> {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(130);
    logLine(`campaign worker: ${signal}: giving the running jobs back after their current seed (again to quit now)`);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const outcome = await runQueueWorker({
    queueUrl: flags.queue,
    queueName: flags.queueName,
    threads: flags.threads,
    forever: flags.forever === true,
    log: logLine,
    signal: stop.signal,
  });
  logLine(`campaign worker: stopped after ${outcome.jobsDone} jobs, ${outcome.seedsRun} seeds run`);
  if (outcome.refusal !== undefined) process.exitCode = CAMPAIGN_EXIT_CODE.workerCodeMismatch;
  if (outcome.fatal !== undefined) process.exitCode = 1;
}

interface DeterminismFlags {
  seeds: number;
  from: bigint;
  workers: number;
  seconds: number;
}

async function determinism(flags: DeterminismFlags): Promise<void> {
  const outcome = await runDeterminismCheck({
    from: flags.from,
    seeds: flags.seeds,
    workers: flags.workers,
    simulatedSeconds: flags.seconds,
    progress: process.stderr,
  });
  for (const m of outcome.mismatches) {
    process.stdout.write(
      `MISMATCH seed ${m.seed}: ${m.first.traceHash ?? 'no trace'} (${m.first.traceEntries} entries) vs ${m.second.traceHash ?? 'no trace'} (${m.second.traceEntries} entries)\n`,
    );
  }
  const verdict =
    outcome.mismatches.length === 0
      ? 'every seed gave the same trace hash twice'
      : `${outcome.mismatches.length} seeds differ`;
  process.stdout.write(
    `determinism: ${outcome.seeds} seeds x 2 runs in two threads, ${flags.seconds} simulated s each, ${outcome.wallSeconds.toFixed(1)} wall s: ${verdict}\n`,
  );
  if (outcome.mismatches.length > 0) process.exitCode = CAMPAIGN_EXIT_CODE.nondeterministic;
}

/** The options campaign and determinism share. */
function seedRangeCommand(name: string, description: string, seedsRequired = true): Command {
  const command = new Command(name).description(description);
  return (
    seedsRequired
      ? command.requiredOption('--seeds <n>', 'how many seeds to run', parseCount)
      : command.option('--seeds <n>', 'how many seeds to run (required unless --resume or --status)', parseCount)
  )
    .addOption(new Option('--from <s>', 'the first seed').argParser(parseSeed).default(1n, '1'))
    .addOption(
      new Option('--workers <w>', 'worker threads')
        .argParser(parseCount)
        .default(os.availableParallelism(), `the CPU count, ${os.availableParallelism()}`),
    )
    .option('--seconds <t>', 'simulated seconds per run', parseSeconds, SIM_SECONDS_DEFAULT);
}

function parseSeedsPerJob(value: string): number {
  const n = parseCount(value);
  if (n > SEEDS_PER_JOB_MAX) throw new InvalidArgumentError(`at most ${SEEDS_PER_JOB_MAX} seeds per job`);
  return n;
}

/** Parses the command line and runs its command; sim/main.ts calls it. */
export async function runSimCli(): Promise<void> {
  const program = new Command('sim')
    .description('run the node core over simulated ports, reproducibly from a seed')
    .enablePositionalOptions()
    .option('--seed <n>', 'the run seed (random when omitted; it is printed either way)', parseSeed)
    .option('--simulated-seconds <s>', 'simulated time to run', parseSeconds, SIM_SECONDS_DEFAULT)
    .option('--verbose', 'print node logs with simulated time')
    .option(
      '--save-replay <file>',
      'write the run (options and its whole schedule) as a replay file, e.g. under test/regressions/',
    )
    .action((flags: { seed?: bigint; simulatedSeconds: number; verbose?: boolean; saveReplay?: string }) =>
      runOne(flags),
    );
  program.addCommand(
    new Command('shrink')
      .description("shrink a seed's failing schedule to a minimal one that still fails, and write it as a replay file")
      .requiredOption('--seed <n>', 'the failing seed', parseSeed)
      .option('--seconds <t>', 'simulated seconds of the run', parseSeconds, SIM_SECONDS_DEFAULT)
      .option('--kind <kind>', "the failure kind to keep (default: the run's first)")
      .option('--out <file>', 'the replay file to write (default sim-out/replays/seed-<n>-<kind>.json)')
      .action((flags: { seed: bigint; seconds: number; kind?: string; out?: string }) => shrink(flags)),
  );
  program.addCommand(
    new Command('replay')
      .description('run a replay file (test/regressions/*.json): its exact options and schedule of faults and workload')
      .argument('<file>', 'the replay file')
      .option('--verbose', 'print node logs with simulated time')
      .action((file: string, flags: { verbose?: boolean }) => replayFile(file, flags)),
  );
  program.addCommand(
    seedRangeCommand(
      'campaign',
      'run seeds from..from+seeds-1 on worker threads, or through a queue with --queue: progress, failing-seed database, summary, HTML report',
      false,
    )
      .option('--out <dir>', 'where summary.json, report.html and failures.jsonl go', 'sim-out/campaign')
      .option(
        '--queue <url>',
        'run through the campaign queue on this Redis (redis://host:6379/0): workers on any machine take the seeds (npm run sim -- worker)',
      )
      .option('--queue-name <name>', 'the queue (workers must name the same)', QUEUE_NAME_DEFAULT)
      .option('--seeds-per-job <n>', 'seeds per queue job', parseSeedsPerJob, SEEDS_PER_JOB_DEFAULT)
      .option('--resume [id]', 'pick up a queued campaign whose coordinator stopped (default: the one --out names)')
      .option('--status', 'show the progress of the running campaigns on --queue, and exit')
      .action((flags: CampaignFlags, command: Command) => campaign(flags, command)),
  );
  program.addCommand(
    new Command('worker')
      .description(
        "take campaign jobs from the queue and run their seeds on this machine's threads, until the queue stays empty (or forever with --forever); SIGINT/SIGTERM give the running jobs back",
      )
      .requiredOption('--queue <url>', "the campaign queue's Redis (redis://host:6379/0)")
      .option('--queue-name <name>', 'the queue', QUEUE_NAME_DEFAULT)
      .addOption(
        new Option('--threads <n>', 'worker threads')
          .argParser(parseCount)
          .default(os.availableParallelism(), `the CPU count, ${os.availableParallelism()}`),
      )
      .option('--forever', 'keep waiting for jobs when the queue is empty')
      .action((flags: { queue: string; queueName: string; threads: number; forever?: boolean }) => worker(flags)),
  );
  program.addCommand(
    seedRangeCommand('determinism', 'run every seed twice in two worker threads and compare trace hashes').action(
      (flags: DeterminismFlags, command: Command) => {
        checkSeedRange(flags, command);
        return determinism(flags);
      },
    ),
  );
  await program.parseAsync(process.argv);
}

/** How a failed command reads: a queue's expected failures (unreachable, unknown campaign, jobs failed for good) as
 * their sentence alone, anything else with its stack. Exit code 1. */
export function reportSimCliError(error: unknown): void {
  const text =
    error instanceof CampaignQueueError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`sim: ${text}\n`);
  process.exitCode = 1;
}
