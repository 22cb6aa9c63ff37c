#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Hex } from '../../spec/chain.js';
import { ADMIN_PORT_DEFAULT, L2_SLOT_DURATION_SECONDS_DEFAULT, NODE_VERSION, PUBLIC_PORT_DEFAULT } from '../../spec/constants.js';
import { isHex } from '../../spec/codec/bytes.js';
import { createPinoLogger } from '../logger/pinoLogger.js';
import { runLocalNetwork } from '../node/localNetwork.js';
import { runNode } from '../node/runNode.js';

const LOCAL_NETWORK_DATA_DIRECTORY_DEFAULT = '.data/local-network';
const L1_PORT_LOCAL_NETWORK_DEFAULT = 8545;

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new InvalidArgumentError(`"${value}" is not a TCP port (0-65535)`);
  return port;
}

function parsePositiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

function parseAddress(value: string): Hex {
  if (!isHex(value) || value.length !== 42) throw new InvalidArgumentError(`"${value}" is not a 20-byte 0x-prefixed address`);
  return value.toLowerCase() as Hex;
}

function parsePrivateKey(value: string): Hex {
  if (!isHex(value) || value.length !== 66) throw new InvalidArgumentError('the private key must be 32 bytes of 0x-prefixed hex');
  return value as Hex;
}

const truthy = (value: string | undefined) => value !== undefined && ['1', 'true', 'yes'].includes(value.toLowerCase());

interface StartFlags {
  localNetwork?: boolean;
  node?: boolean;
  port: number;
  adminPort: number;
  adminHost: string;
  dataDirectory?: string;
  l1RpcUrls?: string;
  l1ChainId?: number;
  rollupAddress?: Hex;
  sequencer?: boolean;
  sequencerPublisherPrivateKey?: Hex;
  l1Port: number;
  slotDuration: number;
  l1BlockTime: number;
  adminApiKeyHash?: string;
  disableAdminApiKey?: boolean;
  resetAdminApiKey?: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

async function start(flags: StartFlags): Promise<void> {
  if (flags.localNetwork === flags.node) throw new UsageError('choose exactly one of --local-network and --node');
  const logger = createPinoLogger({ level: flags.logLevel });
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const common = {
    port: flags.port,
    adminPort: flags.adminPort,
    adminHost: flags.adminHost,
    adminApiKey: {
      disabled: flags.disableAdminApiKey ?? truthy(process.env.SVC_DISABLE_ADMIN_API_KEY),
      reset: flags.resetAdminApiKey ?? truthy(process.env.SVC_RESET_ADMIN_API_KEY),
      ...((flags.adminApiKeyHash ?? process.env.SVC_ADMIN_API_KEY_HASH) ? { presetKeyHash: flags.adminApiKeyHash ?? process.env.SVC_ADMIN_API_KEY_HASH } : {}),
    },
    logger,
    print,
  };
  let running: { stop(): Promise<void> };
  if (flags.localNetwork) {
    running = await runLocalNetwork({
      ...common,
      dataDirectory: flags.dataDirectory ?? LOCAL_NETWORK_DATA_DIRECTORY_DEFAULT,
      l1Port: flags.l1Port,
      slotDurationSeconds: flags.slotDuration,
      l1BlockTimeSeconds: flags.l1BlockTime,
    });
  } else {
    const l1RpcUrl = flags.l1RpcUrls?.split(',')[0]?.trim();
    if (!l1RpcUrl) throw new UsageError('--node needs --l1-rpc-urls <url>');
    if (!flags.rollupAddress) throw new UsageError('--node needs --rollup-address <address>');
    const key = flags.sequencerPublisherPrivateKey ?? (process.env.SEQ_PUBLISHER_PRIVATE_KEY ? parsePrivateKey(process.env.SEQ_PUBLISHER_PRIVATE_KEY) : undefined);
    if (flags.sequencer && !key) throw new UsageError('--sequencer needs --sequencer.publisherPrivateKey or SEQ_PUBLISHER_PRIVATE_KEY');
    if (flags.dataDirectory) print(`data directory: ${flags.dataDirectory}`);
    print(`L1 RPC URL: ${l1RpcUrl}`);
    print(`rollup contract: ${flags.rollupAddress}`);
    running = await runNode({
      ...common,
      l1RpcUrl,
      rollupAddress: flags.rollupAddress,
      ...(flags.l1ChainId !== undefined ? { l1ChainId: flags.l1ChainId } : {}),
      ...(flags.dataDirectory ? { dataDirectory: flags.dataDirectory } : {}),
      ...(flags.sequencer && key ? { sequencerPrivateKey: key } : {}),
    });
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

class UsageError extends Error {}

export function buildProgram(): Command {
  const program = new Command('svc').description('Rollup node (4.x JSON-RPC service)').version(NODE_VERSION);
  program
    .command('start')
    .description('start a node (--node) or a whole local network with its own L1 (--local-network)')
    .option('--local-network', 'run anvil as L1, deploy the rollup contract, and run a node with a sequencer')
    .option('--node', 'run a node against an existing L1 and rollup contract')
    .addOption(new Option('--port <port>', 'public JSON-RPC port').default(PUBLIC_PORT_DEFAULT).argParser(parsePort))
    .addOption(new Option('--admin-port <port>', 'admin JSON-RPC port').default(ADMIN_PORT_DEFAULT).argParser(parsePort))
    .addOption(new Option('--admin-host <host>', 'address the admin port binds to').default('127.0.0.1'))
    .addOption(new Option('--data-directory <dir>', 'where the node keeps its database and admin key hash').env('DATA_DIRECTORY'))
    .addOption(new Option('--l1-rpc-urls <urls>', 'L1 JSON-RPC URLs, comma-separated (the first is used)').env('ETHEREUM_HOSTS'))
    .addOption(new Option('--l1-chain-id <id>', 'expected L1 chain id; startup fails if the L1 differs').env('L1_CHAIN_ID').argParser(parsePositiveInteger))
    .addOption(new Option('--rollup-address <address>', 'L1 address of the rollup contract').env('ROLLUP_CONTRACT_ADDRESS').argParser(parseAddress))
    .option('--sequencer', 'run a sequencer on this node (needs a publisher key)')
    .addOption(new Option('--sequencer.publisherPrivateKey <key>', 'L1 key the sequencer publishes checkpoints from').argParser(parsePrivateKey))
    .addOption(new Option('--l1-port <port>', 'local network: port of the local L1').default(L1_PORT_LOCAL_NETWORK_DEFAULT).argParser(parsePort))
    .addOption(new Option('--slot-duration <seconds>', 'local network: L2 slot duration').default(L2_SLOT_DURATION_SECONDS_DEFAULT).argParser(parsePositiveInteger))
    .addOption(new Option('--l1-block-time <seconds>', 'local network: seconds between L1 blocks').default(12).argParser(parsePositiveInteger))
    .addOption(new Option('--admin-api-key-hash <hex>', 'use this pre-generated SHA-256 admin key hash'))
    .option('--disable-admin-api-key', 'disable admin API key authentication')
    .option('--reset-admin-api-key', 'generate a new admin API key')
    .addOption(new Option('--log-level <level>', 'log level').default('info').env('LOG_LEVEL').choices(['debug', 'info', 'warn', 'error', 'silent']))
    .action(async (flags: StartFlags) => start(flags));
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc: ${message}\n`);
    if (process.env.SVC_DEBUG) process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
