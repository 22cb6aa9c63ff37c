/**
 * A local network of several node processes (`svc start --local-network --nodes N`): one anvil with the rollup
 * deployed, and N child processes each running `svc start --node` with its own data directory, ports, L1 publisher
 * account and share of the validators, so that no node alone holds a quorum; they talk over libp2p on 127.0.0.1,
 * each dialing the others. Node 0 also runs the prover. Children are configured through environment variables (keys
 * never appear on a command line) and their output is shown line by line, prefixed with their name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { keccak256, toBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devKeystoreFile, devValidators, type DevValidator } from '../../core/validators/devValidators.js';
import type { Hex } from '../../spec/chain.js';
import { hexToBytes, zeroHex } from '../../spec/codec/bytes.js';
import { configSchema, type ConfigKey } from '../../spec/config/schema.js';
import { LOCAL_NETWORK_VALIDATOR_COUNT } from '../../spec/validators/constants.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { writeKeystoreFile } from '../keystore/fileKeystore.js';
import {
  LOCAL_NETWORK_DATA_DIRECTORY_DEFAULT,
  LOCAL_PROVER_PRIVATE_KEY,
  LOCAL_PUBLISHER_PRIVATE_KEY,
  printLocalL1,
  sequencerTimingForSlot,
  startLocalL1,
  type LocalL1,
} from './localNetwork.js';

/**
 * L1 publisher keys of nodes 1 and up: anvil's well-known development accounts 3 to 7 (public test keys, funded on
 * every fresh anvil). Node 0 publishes from account 1 and proves from account 2, as the single-node network does.
 */
const NODE_PUBLISHER_KEYS: readonly Hex[] = [
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
];

/** How long a stopped child may take to exit after SIGTERM before it is killed. */
export const LOCAL_NODE_STOP_GRACE_MS = 15_000;

export interface LocalNodePlan {
  readonly index: number;
  readonly name: string;
  readonly dataDirectory: string;
  readonly publicPort: number;
  readonly adminPort: number;
  readonly p2pPort: number;
  /** Development peer key derived from the node's index (public knowledge: never for a real network). */
  readonly p2pPrivateKey: Hex;
  readonly peerId: string;
  readonly multiaddr: string;
  readonly publisherPrivateKey: Hex;
  readonly validators: readonly DevValidator[];
}

export interface LocalNodeProcess {
  readonly plan: LocalNodePlan;
  readonly publicUrl: string;
  readonly adminUrl: string;
  /** Kills the process with SIGKILL (a crash); resolves once it exited. */
  kill(): Promise<void>;
  /** Starts it again with the same data directory, ports and keys; resolves once it serves JSON-RPC. */
  restart(): Promise<void>;
  readonly running: boolean;
}

export interface RunningMultiNodeLocalNetwork {
  readonly l1RpcUrl: string;
  readonly rollupAddress: Hex;
  readonly nodes: readonly LocalNodeProcess[];
  stop(): Promise<void>;
}

export interface MultiNodeLocalNetworkOptions {
  readonly config: ResolvedConfig;
  readonly print: (line: string) => void;
  /** Rollup epoch length in slots (the local network's default when absent). */
  readonly epochDurationSlots?: number;
  /** Each node's ports; by default the configured ports plus the node's index. */
  readonly ports?: LocalNodePorts;
  /** Extra environment for every child (tests quiet the logs with it). */
  readonly childEnv?: Readonly<Record<string, string>>;
}

/** Ports of each node by index, where the configured port plus the index will not do (tests pick free ones). */
export interface LocalNodePorts {
  readonly public: readonly number[];
  readonly admin: readonly number[];
  readonly p2p: readonly number[];
}

/** The peer key of local node `index`: keccak256 of a fixed label, a valid secp256k1 key. */
function localPeerKey(index: number): Hex {
  return keccak256(toBytes(`svc local network p2p key ${index}`));
}

/** Which node runs validator `v`: round robin, so with at least as many validators as nodes each node gets some. */
export function planLocalNodes(
  config: ResolvedConfig,
  nodeCount: number,
  root: string,
  ports?: LocalNodePorts,
): LocalNodePlan[] {
  const { values } = config;
  const validators = devValidators('local-network', Math.max(LOCAL_NETWORK_VALIDATOR_COUNT, nodeCount));
  return Array.from({ length: nodeCount }, (_, index) => {
    const p2pPrivateKey = localPeerKey(index);
    const peerId = peerIdFromPrivateKey(privateKeyFromRaw(hexToBytes(p2pPrivateKey))).toString();
    const p2pPort = ports?.p2p[index] ?? values.p2pPort + index;
    return {
      index,
      name: `node-${index}`,
      dataDirectory: path.join(root, `node-${index}`),
      publicPort: ports?.public[index] ?? values.port + index,
      adminPort: ports?.admin[index] ?? values.adminPort + index,
      p2pPort,
      p2pPrivateKey,
      peerId,
      multiaddr: `/ip4/127.0.0.1/tcp/${p2pPort}/p2p/${peerId}`,
      publisherPrivateKey: index === 0 ? LOCAL_PUBLISHER_PRIVATE_KEY : NODE_PUBLISHER_KEYS[index - 1]!,
      validators: validators.filter((_, v) => v % nodeCount === index),
    };
  });
}

/** The environment that configures one child `svc start --node`. */
function childEnvironment(
  config: ResolvedConfig,
  l1: LocalL1,
  plan: LocalNodePlan,
  others: readonly LocalNodePlan[],
): Record<string, string> {
  const { values } = config;
  const timing = sequencerTimingForSlot(values.localNetworkSlotDurationSeconds, values.localNetworkL1BlockTimeSeconds);
  const settings: Partial<Record<ConfigKey, string>> = {
    l1RpcUrls: l1.anvil.url,
    l1ConsensusHostUrls: l1.anvil.url,
    rollupAddress: l1.rollupAddress,
    dataDirectory: plan.dataDirectory,
    port: String(plan.publicPort),
    adminPort: String(plan.adminPort),
    logLevel: values.logLevel,
    // The children write to a pipe: 'auto' there would always be JSON, whatever this process writes to.
    logFormat: values.logFormat === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : values.logFormat,
    validatorKeystorePath: path.join(plan.dataDirectory, 'keystore.json'),
    sequencerEnabled: 'true',
    sequencerPublisherPrivateKey: plan.publisherPrivateKey,
    sequencerBlockDurationMs: String(timing.blockDurationMs),
    sequencerL1PublishingTimeAllowanceInSlotSeconds: String(timing.l1PublishingTimeAllowanceInSlotSeconds),
    p2pEnabled: 'true',
    p2pListenAddress: '127.0.0.1',
    p2pPort: String(plan.p2pPort),
    p2pPrivateKey: plan.p2pPrivateKey,
    p2pBootstrapNodes: others.map((other) => other.multiaddr).join(','),
    ...(plan.index === 0 ? { proverNode: 'true', proverPublisherPrivateKey: LOCAL_PROVER_PRIVATE_KEY } : {}),
    ...childMetricsSettings(values, plan.index),
  };
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [configSchema[key as ConfigKey].env, value as string]),
  );
}

/** Each child's metrics: the configured port plus its index (0 stays 0: a free one), the same host and collector. */
export function childMetricsSettings(
  values: ResolvedConfig['values'],
  index: number,
): Partial<Record<ConfigKey, string>> {
  const { metricsPort, otelExporterOtlpMetricsEndpoint } = values;
  return {
    ...(metricsPort !== undefined
      ? { metricsPort: String(metricsPort === 0 ? 0 : metricsPort + index), metricsHost: values.metricsHost }
      : {}),
    ...(otelExporterOtlpMetricsEndpoint !== undefined
      ? { otelExporterOtlpMetricsEndpoint, otelMetricExportIntervalMs: String(values.otelMetricExportIntervalMs) }
      : {}),
  };
}

/** `svc` itself, as this process runs it: TypeScript through tsx in development, compiled JavaScript in a build. */
function svcCommand(): { readonly execPath: string; readonly args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const typescript = here.endsWith('.ts');
  const entry = path.join(path.dirname(here), '..', 'cli', typescript ? 'main.ts' : 'main.js');
  return { execPath: process.execPath, args: [...(typescript ? ['--import', 'tsx'] : []), entry] };
}

/** Forwards a child's output line by line with its name in front. */
function forwardLines(stream: NodeJS.ReadableStream | null, prefix: string, write: (line: string) => void): void {
  let partial = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) write(`${prefix} | ${line}`);
  });
  stream?.on('end', () => {
    if (partial !== '') write(`${prefix} | ${partial}`);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Resolves once `url` answers svc_getChainTips, or rejects when the child exits first or the wait runs out. */
async function servingJsonRpc(url: string, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before serving JSON-RPC`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'svc_getChainTips', params: [] }),
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not serve JSON-RPC at ${url} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** How long a child may take from spawn to serving JSON-RPC. */
export const LOCAL_NODE_START_TIMEOUT_MS = 120_000;

function startChild(
  plan: LocalNodePlan,
  env: Record<string, string>,
  options: MultiNodeLocalNetworkOptions,
): ChildProcess {
  const { execPath, args } = svcCommand();
  const child = spawn(execPath, [...args, 'start', '--node'], {
    env: { ...process.env, ...env, ...options.childEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  forwardLines(child.stdout, plan.name, options.print);
  forwardLines(child.stderr, plan.name, options.print);
  return child;
}

/** A node process as the launcher holds it: the public view, and its current child to stop. */
interface ManagedNode extends LocalNodeProcess {
  current(): ChildProcess;
}

function nodeProcess(
  plan: LocalNodePlan,
  env: Record<string, string>,
  options: MultiNodeLocalNetworkOptions,
): ManagedNode {
  let child = startChild(plan, env, options);
  const publicUrl = `http://127.0.0.1:${plan.publicPort}`;
  return {
    plan,
    publicUrl,
    adminUrl: `http://127.0.0.1:${plan.adminPort}`,
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
      child = startChild(plan, env, options);
      await servingJsonRpc(publicUrl, child, plan.name, LOCAL_NODE_START_TIMEOUT_MS);
    },
    current: () => child,
  };
}

async function stopGracefully(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), LOCAL_NODE_STOP_GRACE_MS);
  await exited(child);
  clearTimeout(timer);
}

/** Writes each node's keystore: its share of the validators, publishing from its own L1 account. */
async function writeKeystores(plans: readonly LocalNodePlan[]): Promise<void> {
  for (const plan of plans) {
    await mkdir(plan.dataDirectory, { recursive: true });
    const publisher = privateKeyToAccount(plan.publisherPrivateKey).address.toLowerCase() as Hex;
    await writeKeystoreFile(
      path.join(plan.dataDirectory, 'keystore.json'),
      devKeystoreFile(plan.validators, { coinbase: publisher, feeRecipient: zeroHex(32), publisher }),
    );
  }
}

export async function runMultiNodeLocalNetwork(
  options: MultiNodeLocalNetworkOptions,
): Promise<RunningMultiNodeLocalNetwork> {
  const { config } = options;
  const root = config.values.dataDirectory ?? LOCAL_NETWORK_DATA_DIRECTORY_DEFAULT;
  const plans = planLocalNodes(config, config.values.localNetworkNodes, root, options.ports);
  await writeKeystores(plans);
  const registrations = plans.flatMap((plan) => plan.validators.map((v) => v.registration));
  const l1 = await startLocalL1(options, config, registrations);
  options.print(`data directory: ${path.resolve(root)} (one folder per node)`);
  printLocalL1(l1, options.print);
  const nodes = plans.map((plan) =>
    nodeProcess(
      plan,
      childEnvironment(
        config,
        l1,
        plan,
        plans.filter((other) => other !== plan),
      ),
      options,
    ),
  );
  const stop = async () => {
    await Promise.all(nodes.map((node) => stopGracefully(node.current())));
    await l1.anvil.stop();
  };
  try {
    await Promise.all(
      nodes.map((node) => servingJsonRpc(node.publicUrl, node.current(), node.plan.name, LOCAL_NODE_START_TIMEOUT_MS)),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  for (const node of nodes) {
    const { plan } = node;
    options.print(
      `${plan.name}: public JSON-RPC ${node.publicUrl}, admin ${node.adminUrl}, peer ${plan.multiaddr}, ` +
        `${plan.validators.length} validator(s)${plan.index === 0 ? ', prover' : ''}`,
    );
  }
  return { l1RpcUrl: l1.anvil.url, rollupAddress: l1.rollupAddress, nodes, stop };
}
