import { mkdir } from 'node:fs/promises';
import { assert } from '../../core/assert.js';
import { createNode, type RollupNode } from '../../core/node/node.js';
import type { L1ReaderPort, LoggerPort, NetworkPort, NodePorts, SnapshotPort, StoragePort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { NODE_DATABASE_SCHEMA_VERSION } from '../../spec/snapshots/snapshotFormat.js';
import { createFileStoreSnapshots } from '../snapshots/fileStoreSnapshots.js';
import { syncFromSnapshot } from '../snapshots/snapshotSync.js';
import { createFileKeystore } from '../keystore/fileKeystore.js';
import { readPackageVersion } from './packageVersion.js';
import { startNodeP2p, type NodeP2p } from './p2pNetwork.js';
import { configSchema, type ConfigValues } from '../../spec/config/schema.js';
import { createSystemClock } from '../clock/systemClock.js';
import { createConfigAdmin, type ConfigAdmin } from '../config/configAdmin.js';
import { configSummary } from '../config/redactConfig.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { createNodePublishers } from './nodePublishers.js';
import { checkNodeBlobSources, logBlobSourceStats, openNodeBlobPorts } from './nodeBlobs.js';
import { createL1Reader } from '../l1/l1Endpoints.js';
import { shownUrls } from '../l1/l1Rpc.js';
import { createNodeMetrics, metricsSettingsOf } from '../metrics/metricsExport.js';
import { createCryptoRandomness } from '../randomness/cryptoRandomness.js';
import { resolveAdminApiKey } from '../rpc/adminApiKey.js';
import { startRpcServers } from '../rpc/jsonRpcServer.js';
import { openPostgresSigningGuard, type OpenSigningGuard } from '../signing/postgresSigningGuard.js';
import { databaseLocation } from '../signing/sqlQueryable.js';
import { assertDataDirectoryFree, openClassicLevelStorage } from '../storage/classicLevelStorage.js';
import { createMemoryStorage } from '../storage/memoryStorage.js';
import {
  configFromSettings,
  coreConfigUpdateOf,
  coreNodeConfigOf,
  nodeStartValues,
  rpcLimitsOf,
  type NodeSettings,
  type NodeStartValues,
} from './nodeConfig.js';

export type { NodeSettings } from './nodeConfig.js';

export interface RunNodeIo {
  readonly logger: LoggerPort;
  /** Changes the logger's level (svcAdmin_setConfig logLevel); absent: such a change is shown but not applied. */
  readonly setLogLevel?: (level: ConfigValues['logLevel']) => void;
  /** Printed lines meant for the operator (banner, the admin key once). */
  readonly print: (line: string) => void;
  /** The network to talk on (the single-process local network's in-process bus); absent: libp2p with --p2p-enabled, else none. */
  readonly network?: NetworkPort;
  /** Where svcAdmin_startSnapshotUpload writes (tests wrap it); absent: file stores (createFileStoreSnapshots). */
  readonly snapshots?: SnapshotPort;
}

/**
 * Either the effective configuration (from resolveConfig / loadConfig: what the CLI gives), or the flat settings
 * form (tests, embedding), which is turned into one over the defaults.
 */
export type RunNodeOptions = RunNodeIo & ({ readonly config: ResolvedConfig } | NodeSettings);

export interface RunningNode {
  readonly node: RollupNode;
  readonly publicUrl: string;
  readonly adminUrl: string;
  /** Where Prometheus scrapes the node (`--metrics-port`); absent without one. */
  readonly metricsUrl?: string;
  /** svcAdmin_getConfig / svcAdmin_setConfig of this node, and its current effective configuration. */
  readonly configAdmin: ConfigAdmin;
  stop(): Promise<void>;
}

/** Opens the node's storage: LevelDB in the data directory, or memory without one. */
async function openStorage(dataDirectory: string | undefined): Promise<StoragePort> {
  if (dataDirectory === undefined) return createMemoryStorage();
  await mkdir(dataDirectory, { recursive: true });
  return openClassicLevelStorage(dataDirectory);
}

/**
 * Installs a snapshot into the data directory when the sync mode asks for one (adapters/snapshots/snapshotSync.ts),
 * before the database is opened. A refused snapshot is logged there and the node syncs from L1.
 */
async function startFromSnapshot(
  values: ResolvedConfig['values'],
  l1ChainId: number,
  l1: L1ReaderPort,
  rollupAddress: Hex,
  logger: LoggerPort,
): Promise<void> {
  // Run in every mode: it also cleans up after an install a crash interrupted.
  if (values.dataDirectory === undefined) return;
  // An install replaces the database, and the clean-up removes download directories: neither may run under another
  // node that has the database open.
  await assertDataDirectoryFree(values.dataDirectory);
  const { rollupVersion } = await l1.getRollupConstants();
  await syncFromSnapshot({
    dataDirectory: values.dataDirectory,
    mode: values.syncMode,
    urls: values.snapshotsUrls,
    chain: { l1ChainId, rollupVersion, rollupAddress, schemaVersion: NODE_DATABASE_SCHEMA_VERSION },
    logger: logger.child({ module: 'snapshotSync' }),
  });
}

/**
 * The HA signing guard when VALIDATOR_HA_SIGNING_ENABLED is set: refuses to start on a database it cannot reach or
 * whose schema is missing (the message says to run `svc migrate-ha-db up`), so a node never signs unguarded.
 */
async function openSigningGuard(
  haSigning: NodeStartValues['haSigning'],
  logger: LoggerPort,
  hasKeystore: boolean,
): Promise<OpenSigningGuard | undefined> {
  if (haSigning === undefined) return undefined;
  if (!hasKeystore)
    logger.warn(
      `${configSchema.validatorHaSigningEnabled.env} is set but this node runs no validators: there is nothing to sign`,
    );
  const opened = await openPostgresSigningGuard({ ...haSigning, logger: logger.child({ module: 'haSigning' }) });
  logger.info('HA signing enabled: every signature is claimed in the shared database first', {
    database: databaseLocation(haSigning.databaseUrl),
    nodeId: haSigning.nodeId,
  });
  return opened;
}

/** Starts a production node: real clock, LevelDB (or memory) storage, viem L1, JSON-RPC on two ports. */
export async function runNode(options: RunNodeOptions): Promise<RunningNode> {
  const config = 'config' in options ? options.config : configFromSettings(options);
  const { logger } = options;
  const { values } = config;
  const start = nodeStartValues(values);
  for (const warning of config.warnings) logger.warn(warning);
  logger.info('configuration (options not at their default)', configSummary(config));
  const l1 = createL1Reader(start.l1RpcUrls, start.rollupAddress, logger);
  const chainId = await l1.getChainId();
  if (values.l1ChainId !== undefined && values.l1ChainId !== chainId) {
    throw new Error(
      `${configSchema.l1ChainId.flag} is ${values.l1ChainId} but the L1 at ${shownUrls(start.l1RpcUrls)} reports chain id ${chainId}`,
    );
  }
  // Undefined when metrics are off (no port, no OTLP endpoint).
  const metrics = createNodeMetrics(metricsSettingsOf(values), logger.child({ module: 'metrics' }));
  const blobs = await openNodeBlobPorts(values, l1, start.rollupAddress, logger.child({ module: 'blobs' }));
  const { l1Publisher, l1ValidatorPublishers, l1ProofPublisher } = createNodePublishers(start, logger, metrics?.port);
  if (values.dataDirectory !== undefined) await startFromSnapshot(values, chainId, l1, start.rollupAddress, logger);
  const signing = await openSigningGuard(start.haSigning, logger, values.validatorKeystorePath !== undefined);
  let storage: StoragePort;
  try {
    storage = await openStorage(values.dataDirectory);
  } catch (error) {
    await signing?.close();
    throw error;
  }
  let p2p: NodeP2p | undefined;
  if (values.p2pEnabled && options.network === undefined) {
    try {
      p2p = await startNodeP2p(values, await l1.getRollupConstants(), logger.child({ module: 'p2p' }));
    } catch (error) {
      await storage.close();
      await signing?.close();
      await metrics?.stop();
      throw error;
    }
  }
  const uncountedNetwork = options.network ?? p2p?.network;
  const network = uncountedNetwork && metrics ? metrics.countGossip(uncountedNetwork) : uncountedNetwork;
  const ports: NodePorts = {
    clock: createSystemClock(),
    randomness: createCryptoRandomness(),
    logger,
    storage,
    l1,
    blobs,
    // Beside the database: a snapshot's data file can be as large as it, which a small /tmp may not hold.
    snapshots:
      options.snapshots ??
      createFileStoreSnapshots(values.dataDirectory !== undefined ? { temporaryDirectory: values.dataDirectory } : {}),
    ...(l1Publisher ? { l1Publisher } : {}),
    ...(l1ValidatorPublishers.length > 0 ? { l1ValidatorPublishers } : {}),
    ...(l1ProofPublisher ? { l1ProofPublisher } : {}),
    ...(network ? { network } : {}),
    ...(values.validatorKeystorePath !== undefined
      ? { keystore: createFileKeystore(values.validatorKeystorePath) }
      : {}),
    ...(signing !== undefined ? { signingGuard: signing.guard } : {}),
    ...(metrics !== undefined ? { metrics: metrics.port } : {}),
  };
  let node: RollupNode | undefined;
  const configAdmin = createConfigAdmin(config, (change, next) => {
    assert(node !== undefined, 'setConfig is served only once the node exists');
    node.updateConfig(coreConfigUpdateOf(change, next, l1Publisher?.publisherAddress));
    if (Object.hasOwn(change, 'logLevel')) options.setLogLevel?.(next.logLevel);
  });
  let servers;
  let metricsUrl: string | undefined;
  try {
    const validatorPublisherAddresses = l1ValidatorPublishers.map((p) => p.publisherAddress);
    node = await createNode(
      ports,
      coreNodeConfigOf(values, start.rollupAddress, l1Publisher?.publisherAddress, validatorPublisherAddresses),
      { nodeVersion: readPackageVersion(), configAdmin },
    );
    await checkNodeBlobSources(node.blobSources, values.blobAllowEmptySources, logger.child({ module: 'blobs' }));
    const adminAuth = await resolveAdminApiKey({
      ...(values.dataDirectory !== undefined ? { dataDirectory: values.dataDirectory } : {}),
      disabled: values.disableAdminApiKey,
      reset: values.resetAdminApiKey,
      ...(values.adminApiKeyHash !== undefined ? { presetKeyHash: values.adminApiKeyHash } : {}),
    });
    servers = await startRpcServers({
      node: node.service,
      publicPort: values.port,
      adminPort: values.adminPort,
      adminHost: values.adminHost,
      adminAuth,
      publicLimits: rpcLimitsOf(values, 'public'),
      adminLimits: rpcLimitsOf(values, 'admin'),
      corsOrigins: values.rpcCorsAllowedOrigins,
      logger: logger.child({ module: 'rpc' }),
      ...(metrics !== undefined ? { calls: metrics.rpcCalls } : {}),
    });
    metricsUrl = await metrics?.start(node);
    if (adminAuth.mode === 'enabled' && adminAuth.newKey) {
      const lasting =
        values.dataDirectory !== undefined
          ? ''
          : `, and without ${configSchema.dataDirectory.flag} it lasts only this run`;
      options.print(`admin API key: ${adminAuth.newKey}  (printed once; only its SHA-256 hash is stored${lasting})`);
    }
    if (adminAuth.mode === 'disabled') options.print('admin API key: disabled (the admin port accepts every caller)');
  } catch (error) {
    await servers?.close();
    await metrics?.stop();
    await p2p?.stop();
    await storage.close();
    await signing?.close();
    throw error;
  }
  const running = node;
  running.start();
  const stopBlobStats = logBlobSourceStats(running.blobSources, logger.child({ module: 'blobs' }));
  options.print(`public JSON-RPC: ${servers.publicUrl}`);
  options.print(`admin JSON-RPC: ${servers.adminUrl}`);
  if (metricsUrl !== undefined) options.print(`metrics: ${metricsUrl}`);
  const rpc = servers;
  return {
    node: running,
    publicUrl: rpc.publicUrl,
    adminUrl: rpc.adminUrl,
    ...(metricsUrl !== undefined ? { metricsUrl } : {}),
    configAdmin,
    async stop() {
      stopBlobStats();
      await rpc.close();
      await metrics?.stop();
      await running.stop();
      await p2p?.stop();
      await storage.close();
      await signing?.close();
    },
  };
}
