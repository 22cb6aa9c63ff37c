import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { Command, InvalidArgumentError } from 'commander';
import { drawOptions, runSimulation, SIM_SECONDS_DEFAULT, type SimFailure } from './runSimulation.js';

/** Exit codes, one per kind of failure (TigerBeetle's VOPR style). */
export const SIM_EXIT_CODE = {
  ok: 0,
  crashed: 20,
  tipsOutOfOrder: 21,
  nodesDiverged: 22,
  noProgress: 30,
} as const satisfies Record<'ok' | SimFailure['kind'], number>;

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

function commitOfCheckout(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

const stringify = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

async function main(): Promise<void> {
  const program = new Command('sim')
    .description('run the node core over simulated ports, reproducibly from a seed')
    .option('--seed <n>', 'the run seed (random when omitted; it is printed either way)', parseSeed)
    .option('--simulated-seconds <s>', 'simulated time to run', parseSeconds, SIM_SECONDS_DEFAULT)
    .option('--verbose', 'print node logs with simulated time')
    .parse(process.argv);
  const flags = program.opts<{ seed?: bigint; simulatedSeconds: number; verbose?: boolean }>();
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
  process.stdout.write(`replay: npm run sim -- --seed ${seed} --simulated-seconds ${options.simulatedSeconds}   (commit ${commitOfCheckout()})\n`);
  process.exitCode = SIM_EXIT_CODE[result.failures[0]!.kind];
}

main().catch((error: unknown) => {
  process.stderr.write(`sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
