import { mkdir } from 'node:fs/promises';
import type { Hex } from '../../spec/chain.js';
import {
  ARCHIVER_POLL_INTERVAL_MS_DEFAULT,
  SEQ_BLOCK_DURATION_SECONDS_DEFAULT,
  SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT,
  SEQUENCER_POLL_INTERVAL_MS_DEFAULT,
} from '../../spec/constants.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { createNode, type RollupNode } from '../../core/node/node.js';
import type { LoggerPort, NodePorts, StoragePort } from '../../core/ports.js';
import { createSystemClock } from '../clock/systemClock.js';
import { createViemL1Publisher } from '../l1/viemL1Publisher.js';
import { createViemL1Reader } from '../l1/viemL1Reader.js';
import { createCryptoRandomness } from '../randomness/cryptoRandomness.js';
import { resolveAdminApiKey } from '../rpc/adminApiKey.js';
import { startRpcServers } from '../rpc/jsonRpcServer.js';
import { openClassicLevelStorage } from '../storage/classicLevelStorage.js';
import { createMemoryStorage } from '../storage/memoryStorage.js';

export interface RunNodeOptions {
  readonly l1RpcUrl: string;
  readonly l1ChainId?: number;
  readonly rollupAddress: Hex;
  /** Without one, the chain lives in memory and the admin key is new each start. */
  readonly dataDirectory?: string;
  readonly port: number;
  readonly adminPort: number;
  readonly adminHost: string;
  readonly adminApiKey: { readonly disabled: boolean; readonly reset: boolean; readonly presetKeyHash?: string };
  /** Runs a sequencer publishing from this key. */
  readonly sequencerPrivateKey?: Hex;
  /** Sequencer timing (defaults: 6 s blocks, 24 s kept for L1 inclusion). */
  readonly sequencerTiming?: { readonly blockDurationMs: number; readonly l1PublishingTimeAllowanceInSlotSeconds: number };
  readonly logger: LoggerPort;
  /** Printed lines meant for the operator (banner, the admin key once). */
  readonly print: (line: string) => void;
}

export interface RunningNode {
  readonly node: RollupNode;
  readonly publicUrl: string;
  readonly adminUrl: string;
  stop(): Promise<void>;
}

/** Starts a production node: real clock, LevelDB (or memory) storage, viem L1, JSON-RPC on two ports. */
export async function runNode(options: RunNodeOptions): Promise<RunningNode> {
  const { logger } = options;
  const l1 = createViemL1Reader({ l1RpcUrl: options.l1RpcUrl, rollupAddress: options.rollupAddress });
  const chainId = await l1.getChainId();
  if (options.l1ChainId !== undefined && options.l1ChainId !== chainId) {
    throw new Error(`--l1-chain-id is ${options.l1ChainId} but the L1 at ${options.l1RpcUrl} reports chain id ${chainId}`);
  }
  const l1Publisher = options.sequencerPrivateKey
    ? createViemL1Publisher({ l1RpcUrl: options.l1RpcUrl, rollupAddress: options.rollupAddress, publisherPrivateKey: options.sequencerPrivateKey })
    : undefined;
  if (options.dataDirectory) await mkdir(options.dataDirectory, { recursive: true });
  const storage: StoragePort = options.dataDirectory ? await openClassicLevelStorage(options.dataDirectory) : createMemoryStorage();
  const ports: NodePorts = {
    clock: createSystemClock(),
    randomness: createCryptoRandomness(),
    logger,
    storage,
    l1,
    ...(l1Publisher ? { l1Publisher } : {}),
  };
  let node: RollupNode;
  try {
    node = await createNode(ports, {
      rollupAddress: options.rollupAddress,
      archiverPollIntervalMs: ARCHIVER_POLL_INTERVAL_MS_DEFAULT,
      ...(l1Publisher
        ? {
            sequencer: {
              blockDurationMs: options.sequencerTiming?.blockDurationMs ?? SEQ_BLOCK_DURATION_SECONDS_DEFAULT * 1000,
              l1PublishingTimeAllowanceInSlotSeconds:
                options.sequencerTiming?.l1PublishingTimeAllowanceInSlotSeconds ?? SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT,
              pollIntervalMs: SEQUENCER_POLL_INTERVAL_MS_DEFAULT,
              coinbase: l1Publisher.publisherAddress,
              feeRecipient: zeroHex(32),
            },
          }
        : {}),
    });
  } catch (error) {
    await storage.close();
    throw error;
  }
  const adminAuth = await resolveAdminApiKey({
    ...(options.dataDirectory ? { dataDirectory: options.dataDirectory } : {}),
    disabled: options.adminApiKey.disabled,
    reset: options.adminApiKey.reset,
    ...(options.adminApiKey.presetKeyHash ? { presetKeyHash: options.adminApiKey.presetKeyHash } : {}),
  });
  let servers;
  try {
    servers = await startRpcServers({ node: node.service, publicPort: options.port, adminPort: options.adminPort, adminHost: options.adminHost, adminAuth, logger: logger.child({ module: 'rpc' }) });
  } catch (error) {
    await storage.close();
    throw error;
  }
  node.start();
  if (adminAuth.mode === 'enabled' && adminAuth.newKey) {
    options.print(`admin API key: ${adminAuth.newKey}  (printed once; only its SHA-256 hash is stored${options.dataDirectory ? '' : ', and without --data-directory it lasts only this run'})`);
  }
  if (adminAuth.mode === 'disabled') options.print('admin API key: disabled (the admin port accepts every caller)');
  options.print(`public JSON-RPC: ${servers.publicUrl}`);
  options.print(`admin JSON-RPC: ${servers.adminUrl}`);
  return {
    node,
    publicUrl: servers.publicUrl,
    adminUrl: servers.adminUrl,
    async stop() {
      await servers.close();
      await node.stop();
      await storage.close();
    },
  };
}
