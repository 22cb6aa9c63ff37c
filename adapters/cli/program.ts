/**
 * The `svc` command line: `svc start --local-network` (an L1, the rollup contract and a node with a sequencer, all
 * on this machine; with `--nodes N`, N node processes talking over libp2p) and `svc start --node` (a node on an existing L1 and rollup contract). Every other option comes
 * from the configuration schema (spec/config/schema.ts). Beside them: `svc tx send`, and `svc migrate-ha-db up`
 * (the schema of the HA signing database).
 */
import { Command } from 'commander';
import { ConfigError } from '../../spec/config/configError.js';
import { loadConfig } from '../config/loadConfig.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { createPinoLogger } from '../logger/pinoLogger.js';
import { runLocalNetwork } from '../node/localNetwork.js';
import { runMultiNodeLocalNetwork } from '../node/multiNodeLocalNetwork.js';
import { nodeStartValues } from '../node/nodeConfig.js';
import { readPackageVersion } from '../node/packageVersion.js';
import { runNode, type RunNodeIo } from '../node/runNode.js';
import { addConfigOptions, configHelpTable, flagsOf } from './configOptions.js';
import { migrateHaDbCommand } from './migrateHaDbCommand.js';
import { stopOnSignals } from './shutdown.js';
import { txCommand } from './txCommand.js';
import { UsageError } from './usageError.js';
import { connectPostgres } from '../signing/postgresSigningGuard.js';

export const EXIT_CODE_FAILURE = 1;
export const EXIT_CODE_USAGE = 2;

async function startNode(config: ResolvedConfig, io: RunNodeIo) {
  const start = nodeStartValues(config.values);
  if (config.values.dataDirectory !== undefined) io.print(`data directory: ${config.values.dataDirectory}`);
  io.print(`L1 RPC URL: ${start.l1RpcUrl}`);
  io.print(`rollup contract: ${start.rollupAddress}`);
  return runNode({ config, ...io });
}

/** The single-process local network, or with --nodes above 1 one process per node talking over libp2p. */
async function startLocalNetwork(config: ResolvedConfig, io: RunNodeIo): Promise<{ stop(): Promise<void> }> {
  if (config.values.localNetworkNodes === 1) return runLocalNetwork({ config, ...io });
  return runMultiNodeLocalNetwork({ config, print: io.print });
}

export function buildProgram(): Command {
  const program = new Command('svc').description('Rollup node (4.x JSON-RPC service)').version(readPackageVersion());
  program.addHelpText('after', configHelpTable());
  const start = program
    .command('start')
    .description('start a node (--node) or a whole local network with its own L1 (--local-network)')
    .option('--local-network', 'run anvil as L1, deploy the rollup contract, and run a node with a sequencer')
    .option('--node', 'run a node against an existing L1 and rollup contract');
  const configFlags = addConfigOptions(start);
  start.action(async (_options: unknown, command: Command) => {
    const mode = command.opts<{ localNetwork?: boolean; node?: boolean }>();
    if (mode.localNetwork === mode.node) throw new UsageError('choose exactly one of --local-network and --node');
    const config = await loadConfig({ flags: flagsOf(command, configFlags), env: process.env });
    const logger = createPinoLogger({ level: config.values.logLevel, format: config.values.logFormat });
    const io: RunNodeIo = {
      logger,
      setLogLevel: (level) => logger.setLevel(level),
      print: (line) => process.stdout.write(`${line}\n`),
    };
    const running = mode.localNetwork ? startLocalNetwork(config, io) : startNode(config, io);
    stopOnSignals(running, io.logger);
    await running;
  });
  program.addCommand(
    txCommand(
      (line) => process.stdout.write(`${line}\n`),
      (message) => new UsageError(message),
    ),
  );
  program.addCommand(
    migrateHaDbCommand({
      print: (line) => process.stdout.write(`${line}\n`),
      connect: connectPostgres,
      usageError: (message) => new UsageError(message),
    }),
  );
  return program;
}

/** Runs svc on `argv`: one line on stderr for an error, exit code 2 for a usage or configuration error, else 1. */
export async function runCli(argv: readonly string[]): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc: ${message}\n`);
    if (process.env.SVC_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    process.exit(error instanceof UsageError || error instanceof ConfigError ? EXIT_CODE_USAGE : EXIT_CODE_FAILURE);
  }
}
