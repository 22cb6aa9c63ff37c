/**
 * `npm run bench -- read-load`: a node under the load its clients put on it (issue 20), each figure beside its
 * baseline from the same run.
 *
 * 1. A chain of READ_LOAD_BENCH_CHECKPOINTS checkpoints of 16 blocks (10,000 blocks; 4 synthetic txs each, every
 *    epoch proved) is put on anvil by bench/snapshot/chainMaker.ts, funding the fresh fee payers of part 3. Set-up.
 * 2. Node A (a production node in a child process, nodeChild.ts) syncs it from L1 with no load: the baseline sync
 *    rate, blocks per second from the moment it serves until its checkpointed tip is L1's.
 * 3. svc_sendTx over HTTP on node A: READ_LOAD_BENCH_PENDING txs fill its pool, then READ_LOAD_BENCH_SEND_TXS more
 *    are timed (64 keep-alive connections; half from fresh fee payers, half from the 4 genesis test accounts).
 *    Baseline: the pure pool's admissions of the same set in this process (txSet.ts).
 * 4. Memory: node A's resident size with the chain and the pending txs, then the mixed read load
 *    (loadGenerator.ts, readMix.ts) on the idle node A for READ_LOAD_BENCH_BASELINE_S: requests per second and
 *    latency per method (the read baseline), and the memory sampled through it every 2 s: resident size (its slope
 *    in MB per minute over the whole load and over its second half, which shows whether it levels off), V8's heap
 *    and the array buffers outside it, printed a line a minute. READ_LOAD_BENCH_BASELINE_S=3600 is the hour-long
 *    memory run.
 * 5. Node B syncs the same chain from an empty data directory under the same mixed load: its sync rate against node
 *    A's (the slowdown), the load's figures against the idle baseline, and node B's event-loop delay throughout.
 *
 * Every process is its own: anvil, the node, the load generator and this orchestrator (mostly idle while a part
 * runs). Event-loop delay, CPU and memory are measured inside the node process and reported over IPC; the same
 * event-loop delay measured in this process over the same windows shows what the machine's other work adds to it.
 *
 * Environment (all optional):
 *   READ_LOAD_BENCH_CHECKPOINTS  checkpoints of 16 blocks on L1 (default 625: 10,000 blocks)
 *   READ_LOAD_BENCH_BASELINE_S   seconds of the read load on the idle node (default 30), after a 2 s warm-up
 *   READ_LOAD_BENCH_PENDING      txs that fill the pool before the timed ones (default 10,000)
 *   READ_LOAD_BENCH_SEND_TXS     timed svc_sendTx calls (default 10,000)
 *   READ_LOAD_BENCH_CONNECTIONS  keep-alive connections of each load (default 64)
 *   READ_LOAD_BENCH_CPU_PROF     a directory: node children run with --cpu-prof there, and each profile's summary is
 *                                printed (profiling slows the node: do not compare those figures)
 */
import { deployBenchRollup } from '../snapshot/bench.js';
import { integerSetting, positiveIntegerSetting } from '../envSettings.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startAnvil } from '../../adapters/l1/anvil.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { LOCAL_PROVER_PRIVATE_KEY, LOCAL_PUBLISHER_PRIVATE_KEY } from '../../adapters/node/localNetwork.js';
import { SortedKeyIndex } from '../../core/merkle/sortedKeyIndex.js';
import type { GasFees, Hex } from '../../spec/chain.js';
import { L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT } from '../../spec/constants.js';
import { txToWire } from '../../spec/txBuilder.js';
import { rpc } from '../../test/e2e/rpc.js';
import { summarizeProfileFile } from '../rpc/profileSummary.js';
import { createChainMaker, type ChainShape } from '../snapshot/chainMaker.js';
import type {
  LoadCommand,
  LoadConfig,
  LoadMessage,
  LoadWindowResult,
  NodeChildCommand,
  NodeChildConfig,
  NodeChildMessage,
  NodeStats,
} from './protocol.js';
import { slope } from './readMix.js';
import { buildTxSet, freshPayersOf, inProcessAdmissionsPerSecond } from './txSet.js';

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');

const CHECKPOINTS_DEFAULT = 625;
const BLOCKS_PER_CHECKPOINT = 16;
const TXS_PER_BLOCK = 4;
const PUBLIC_DATA_SLOTS = 5_000;
/** Each funded fee payer's balance: ample for one tx at any fee this chain asks. */
const FUNDED_BALANCE = 10n ** 24n;
const SLOT_DURATION_SECONDS = 36;
const L1_SLOTS_IN_AN_EPOCH = 32;
const SPARE_SLOTS = 8;
/** Historical reads go at most this far below the recent blocks: within the history a node keeps (64 checkpoints). */
const HISTORY_DEPTH_MAX = 512;
const READ_WARMUP_MS = 2_000;
/** The node's stats are sampled this often during a part (resident size, the event-loop window). */
const SAMPLE_INTERVAL_MS = 2_000;
const TIP_POLL_INTERVAL_MS = 100;
const SYNC_TIMEOUT_MS = 30 * 60_000;
const CHILD_START_TIMEOUT_MS = 60_000;
const CHILD_STOP_TIMEOUT_MS = 15_000;
/** Long enough for a node whose event loop a loaded machine stalls (c-kzg loads its setup synchronously). */
const STATS_TIMEOUT_MS = 60_000;
const SETTLE_MS = 2_000;
/** Resolution of this process's own event-loop delay sampler (the machine's noise), as the node child's. */
const EVENT_LOOP_RESOLUTION_MS = 10;
const IDLE_WINDOW_MS = 1_000;
const IDLE_WINDOWS = 3;
const IDLE_CPU_SHARE = 0.05;
const IDLE_WAIT_MAX_MS = 120_000;
/** The event-loop delay the issue sets as the node's limit (p99), milliseconds. */
const EVENT_LOOP_P99_TARGET_MS = 50;
const BYTES_PER_MB = 1024 * 1024;
/** Keys of the bytes-per-key measurement of a sorted key index. */
const KEY_INDEX_SAMPLE_KEYS = 100_000;

interface Settings {
  readonly checkpoints: number;
  readonly baselineMs: number;
  readonly pending: number;
  readonly sendTxs: number;
  readonly connections: number;
  /** The nodes' in-memory key bound (READ_LOAD_BENCH_KEY_INDEX_MEMORY_KEYS), the node's default when absent. */
  readonly keyIndexMemoryKeys?: number;
  readonly cpuProfileDir?: string;
}

function readSettings(checkpointsDefault = CHECKPOINTS_DEFAULT): Settings {
  const profileDir = process.env['READ_LOAD_BENCH_CPU_PROF'];
  return {
    checkpoints: positiveIntegerSetting('READ_LOAD_BENCH_CHECKPOINTS', checkpointsDefault, 100_000),
    baselineMs: positiveIntegerSetting('READ_LOAD_BENCH_BASELINE_S', 30, 3_600) * 1000,
    pending: positiveIntegerSetting('READ_LOAD_BENCH_PENDING', 10_000, 100_000),
    sendTxs: positiveIntegerSetting('READ_LOAD_BENCH_SEND_TXS', 10_000, 100_000),
    connections: positiveIntegerSetting('READ_LOAD_BENCH_CONNECTIONS', 64, 1_024),
    ...keyIndexSetting(),
    ...(profileDir === undefined || profileDir === '' ? {} : { cpuProfileDir: path.resolve(profileDir) }),
  };
}

function keyIndexSetting(): { keyIndexMemoryKeys?: number } {
  const keys = integerSetting('READ_LOAD_BENCH_KEY_INDEX_MEMORY_KEYS', -1, 0, 100_000_000);
  return keys < 0 ? {} : { keyIndexMemoryKeys: keys };
}

function chainShape(settings: Settings): ChainShape {
  const payers = freshPayersOf(settings.pending + settings.sendTxs);
  const txs = settings.checkpoints * BLOCKS_PER_CHECKPOINT * TXS_PER_BLOCK;
  return {
    checkpoints: settings.checkpoints,
    blocksPerCheckpoint: BLOCKS_PER_CHECKPOINT,
    txsPerBlock: TXS_PER_BLOCK,
    publicDataSlots: PUBLIC_DATA_SLOTS,
    feePayerFunding: { payers, writesPerTx: Math.ceil(payers / txs), balance: FUNDED_BALANCE },
    uniquePublicLogTags: true,
  };
}

// --- children -------------------------------------------------------------------------------------------------

const children = new Set<ChildProcess>();

function spawnTsChild(entry: string, config: unknown, nodeFlags: readonly string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry, JSON.stringify(config)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

interface NodeChild {
  readonly publicUrl: string;
  readonly readyAtMs: number;
  /** `gc`: a full garbage collection first, so the heap figures are what is live (outside the timed windows only). */
  stats(options?: { phase?: boolean; window?: boolean; gc?: boolean }): Promise<NodeStats>;
  stop(): Promise<void>;
}

async function startNodeChild(config: NodeChildConfig, settings: Settings, name: string): Promise<NodeChild> {
  const flags =
    settings.cpuProfileDir === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${path.join(settings.cpuProfileDir, `read-load-${name}-${Date.now()}`)}`];
  // No V8 tuning: the node runs as an operator's does (`npm run start:prod` passes no flags), so its memory and pauses
  // are theirs. --expose-gc only lets the bench ask for a full collection before it reads the live heap.
  const child = spawnTsChild(path.join(HERE, 'nodeChild.ts'), config, ['--expose-gc', ...flags]);
  const pending = new Map<number, (stats: NodeStats) => void>();
  let seq = 0;
  const ready = new Promise<string>((resolve, reject) => {
    child.on('message', (message: NodeChildMessage) => {
      if (message.type === 'ready') resolve(message.publicUrl);
      else pending.get(message.seq)?.(message.stats);
    });
    child.once('exit', (code, signal) => reject(new Error(`node ${name} exited (${code ?? signal}) before it served`)));
  });
  const publicUrl = await withTimeout(ready, CHILD_START_TIMEOUT_MS, `starting node ${name}`);
  const command = (message: NodeChildCommand) => child.send(message);
  return {
    publicUrl,
    readyAtMs: performance.now(),
    stats: (options = {}) => {
      const id = ++seq;
      const answer = new Promise<NodeStats>((resolve) => pending.set(id, resolve));
      command({
        type: 'stats',
        seq: id,
        resetPhase: options.phase === true,
        resetWindow: options.window === true,
        collectGarbage: options.gc === true,
      });
      return withTimeout(answer, STATS_TIMEOUT_MS, `stats of node ${name}`).finally(() => pending.delete(id));
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      command({ type: 'shutdown' });
      await withTimeout(exited(child), CHILD_STOP_TIMEOUT_MS, `stopping node ${name}`).catch(() => {
        child.kill('SIGKILL');
        return exited(child);
      });
    },
  };
}

interface LoadChild {
  command(command: LoadCommand): void;
  /** sendTx: resolves when the pool holds the fill. */
  readonly filled: Promise<LoadWindowResult>;
  readonly result: Promise<LoadWindowResult>;
}

function startLoad(config: LoadConfig): LoadChild {
  const child = spawnTsChild(path.join(HERE, 'loadGenerator.ts'), config);
  let onFilled: (fill: LoadWindowResult) => void = () => undefined;
  const filled = new Promise<LoadWindowResult>((resolve) => (onFilled = resolve));
  const result = new Promise<LoadWindowResult>((resolve, reject) => {
    child.on('message', (message: LoadMessage) => {
      if (message.type === 'filled') onFilled(message.fill);
      else if (message.type === 'result') resolve(message.result);
      else reject(new Error(`the load generator failed: ${message.message}`));
    });
    child.once('exit', (code) => reject(new Error(`the load generator exited (${code}) without a result`)));
  });
  return { command: (command) => child.send(command), filled, result };
}

// --- parts ----------------------------------------------------------------------------------------------------

/** One sample of the node's memory, in MB, at `minute` since its sampler started. */
interface MemorySample {
  readonly minute: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
  readonly externalMb: number;
}

interface Sampler {
  /** The node's memory every SAMPLE_INTERVAL_MS, and the largest event-loop window p99 (ms). */
  stop(): Promise<{ memory: MemorySample[]; windowP99MaxMs: number }>;
}

function sampleNode(node: NodeChild): Sampler {
  const startedMs = performance.now();
  const memory: MemorySample[] = [];
  let windowP99MaxMs = 0;
  let running = true;
  const loop = (async () => {
    await node.stats({ window: true });
    while (running) {
      await sleep(SAMPLE_INTERVAL_MS);
      const stats = await node.stats({ window: true });
      memory.push({
        minute: (performance.now() - startedMs) / 60_000,
        rssMb: stats.rssBytes / BYTES_PER_MB,
        heapUsedMb: stats.heapUsedBytes / BYTES_PER_MB,
        heapTotalMb: stats.heapTotalBytes / BYTES_PER_MB,
        externalMb: stats.externalBytes / BYTES_PER_MB,
      });
      windowP99MaxMs = Math.max(windowP99MaxMs, stats.eventLoopWindow.p99Ms);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { memory, windowP99MaxMs };
    },
  };
}

/** The resident size's slope (MB per minute) over the samples, and over their second half alone. */
function rssSlopes(memory: readonly MemorySample[]): { whole: number; secondHalf: number } {
  const points = memory.map((m) => ({ x: m.minute, y: m.rssMb }));
  return { whole: slope(points), secondHalf: slope(points.slice(Math.floor(points.length / 2))) };
}

/** One line per minute of the samples (the first sample of each minute): how the memory went. */
function printMemoryTimeline(name: string, memory: readonly MemorySample[]): void {
  let nextMinute = 0;
  for (const m of memory) {
    if (m.minute < nextMinute) continue;
    nextMinute = Math.floor(m.minute) + 1;
    progress(
      `${name} minute ${round(m.minute, 1)}: rss ${round(m.rssMb, 0)} MB, heap ${round(m.heapUsedMb, 0)} of ` +
        `${round(m.heapTotalMb, 0)} MB, external ${round(m.externalMb, 0)} MB\n`,
    );
  }
}

interface SyncFigures {
  readonly seconds: number;
  readonly blocks: number;
  readonly blocksPerSecond: number;
  readonly cpuSeconds: number;
  readonly stats: NodeStats;
  readonly windowP99MaxMs: number;
  readonly rssSlopeMbPerMin: number;
}

/** Waits until the node's checkpointed tip is `targetBlock`, from the moment it served; the node keeps running. */
async function timedSync(node: NodeChild, targetBlock: number, name: string): Promise<SyncFigures> {
  const first = await node.stats({ phase: true });
  const sampler = sampleNode(node);
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  let stats = first;
  while (stats.checkpointedBlock < targetBlock) {
    if (Date.now() > deadline) throw new Error(`node ${name}: at block ${stats.checkpointedBlock} of ${targetBlock}`);
    await sleep(TIP_POLL_INTERVAL_MS);
    stats = await node.stats();
    progress(`node ${name}: block ${stats.checkpointedBlock} of ${targetBlock}`);
  }
  const seconds = (performance.now() - node.readyAtMs) / 1000;
  const sampled = await sampler.stop();
  const blocks = targetBlock - first.checkpointedBlock;
  progress(`node ${name}: ${blocks} blocks in ${round(seconds, 1)} s\n`);
  return {
    seconds,
    blocks,
    blocksPerSecond: blocks / seconds,
    cpuSeconds: (stats.cpuMicros - first.cpuMicros) / 1e6,
    stats,
    windowP99MaxMs: sampled.windowP99MaxMs,
    rssSlopeMbPerMin: rssSlopes(sampled.memory).whole,
  };
}

interface SendTxFigures {
  readonly fill: LoadWindowResult;
  readonly timed: LoadWindowResult;
  readonly inProcessPerSecond: number;
  readonly statsFilled: NodeStats;
  readonly statsAfter: NodeStats;
}

async function benchSendTx(node: NodeChild, settings: Settings, root: string): Promise<SendTxFigures> {
  const tip = await rpc<{ hash: Hex }>(node.publicUrl, 'svc_getBlock', ['latest']);
  const minFees = await rpc<{ feePerDaGas: string; feePerL2Gas: string }>(node.publicUrl, 'svc_getCurrentMinFees');
  const fees: GasFees = { feePerDaGas: BigInt(minFees.feePerDaGas), feePerL2Gas: BigInt(minFees.feePerL2Gas) };
  const txs = buildTxSet({
    count: settings.pending + settings.sendTxs,
    chainId: L1_CHAIN_ID_LOCAL_NETWORK,
    rollupVersion: ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
    anchorBlockHash: tip.hash,
    minFees: fees,
  });
  const inProcessPerSecond = inProcessAdmissionsPerSecond(txs, settings.pending);
  const bodiesFile = path.join(root, 'send-tx-bodies.jsonl');
  const lines = txs.map((tx, i) =>
    JSON.stringify({ jsonrpc: '2.0', id: i, method: 'svc_sendTx', params: [txToWire(tx)] }),
  );
  await writeFile(bodiesFile, `${lines.join('\n')}\n`);
  const load = startLoad({
    kind: 'sendTx',
    url: node.publicUrl,
    connections: settings.connections,
    bodiesFile,
    fillCount: settings.pending,
  });
  const fill = await load.filled;
  await sleep(SETTLE_MS);
  const statsFilled = await node.stats({ phase: true });
  load.command({ type: 'measure' });
  const timed = await load.result;
  const statsAfter = await node.stats();
  progress(`sendTx: ${round(timed.completed / (timed.windowMs / 1000), 0)} per second over HTTP\n`);
  return { fill, timed, inProcessPerSecond, statsFilled, statsAfter };
}

interface ReadFigures {
  readonly load: LoadWindowResult;
  /** The node's CPU time over the window's wall time: 1 = one core busy. */
  readonly nodeCores: number;
  readonly stats: NodeStats;
  readonly windowP99MaxMs: number;
  readonly rssSlopeMbPerMin: number;
  readonly rssSecondHalfSlopeMbPerMin: number;
  /** The largest sampled resident size, MB. */
  readonly rssMaxMb: number;
  readonly minutes: number;
  /** The node's stats after a full garbage collection, just before the load and just after it. */
  readonly liveBefore: NodeStats;
  readonly liveAfter: NodeStats;
}

function readLoadConfig(node: NodeChild, settings: Settings, shape: ChainShape, seed: number): LoadConfig {
  return {
    kind: 'reads',
    url: node.publicUrl,
    connections: settings.connections,
    // Without the funding (a bigint, which the child's JSON config cannot carry; reads do not need it).
    shape: { ...shape, feePayerFunding: undefined },
    historyDepthMax: HISTORY_DEPTH_MAX,
    seed,
  };
}

/** The mixed read load on an idle node for `durationMs` after a warm-up. */
async function benchIdleReads(node: NodeChild, settings: Settings, shape: ChainShape): Promise<ReadFigures> {
  const liveBefore = await node.stats({ gc: true });
  const load = startLoad(readLoadConfig(node, settings, shape, 1));
  await sleep(READ_WARMUP_MS);
  load.command({ type: 'measure' });
  const first = await node.stats({ phase: true });
  const sampler = sampleNode(node);
  await sleep(settings.baselineMs);
  load.command({ type: 'stop' });
  const result = await load.result;
  const sampled = await sampler.stop();
  const stats = await node.stats();
  const liveAfter = await node.stats({ gc: true });
  progress(`reads on the idle node: ${round(result.completed / (result.windowMs / 1000), 0)} per second\n`);
  const nodeCores = (stats.cpuMicros - first.cpuMicros) / 1000 / result.windowMs;
  printMemoryTimeline('reads on the idle node', sampled.memory);
  const slopes = rssSlopes(sampled.memory);
  return {
    load: result,
    stats,
    nodeCores,
    windowP99MaxMs: sampled.windowP99MaxMs,
    rssSlopeMbPerMin: slopes.whole,
    rssSecondHalfSlopeMbPerMin: slopes.secondHalf,
    rssMaxMb: Math.max(...sampled.memory.map((m) => m.rssMb)),
    minutes: result.windowMs / 60_000,
    liveBefore,
    liveAfter,
  };
}

/**
 * Waits until node A has finished the work that follows its sync (world-state history pruning on finality runs in
 * the background): under IDLE_CPU_SHARE of a core over IDLE_WINDOW_MS, IDLE_WINDOWS times in a row, or
 * IDLE_WAIT_MAX_MS at most. Parts measured before that would share the node's CPU with it. Resolves to the seconds.
 */
async function waitForIdle(node: NodeChild): Promise<number> {
  const startedMs = performance.now();
  let quiet = 0;
  let before = (await node.stats()).cpuMicros;
  while (quiet < IDLE_WINDOWS && performance.now() - startedMs < IDLE_WAIT_MAX_MS) {
    await sleep(IDLE_WINDOW_MS);
    const now = (await node.stats()).cpuMicros;
    quiet = (now - before) / 1000 < IDLE_WINDOW_MS * IDLE_CPU_SHARE ? quiet + 1 : 0;
    before = now;
  }
  const seconds = (performance.now() - startedMs) / 1000;
  progress(`node A: idle after ${round(seconds, 1)} s\n`);
  return seconds;
}

/** Bytes a SortedKeyIndex holds per key (the keys' strings included), from the heap before and after filling one. */
function sortedKeyIndexBytesPerKey(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const index = new SortedKeyIndex();
  for (let i = 0; i < KEY_INDEX_SAMPLE_KEYS; i++) {
    const key = `0x00${(i * 2_654_435_761).toString(16).padStart(62, '0')}` as Hex;
    if (index.get(key) === undefined) index.insert(key, { leafIndex: i, blockNumber: i >> 4 });
  }
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / index.size;
  return Math.round(bytes);
}

// --- the benchmark --------------------------------------------------------------------------------------------

interface BenchChain {
  readonly root: string;
  readonly made: { readonly blockNumber: number; readonly checkpointNumber: number };
  readonly makeSeconds: number;
  nodeConfig(directory: string): NodeChildConfig;
}

/** Anvil with the synthetic chain of `shape` on it; `run` gets it, and everything is stopped and removed after. */
async function withBenchChain<T>(
  settings: Settings,
  shape: ChainShape,
  run: (chain: BenchChain, stops: (() => Promise<void>)[]) => Promise<T>,
): Promise<T> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bench-read-load-'));
  const anvil = await startAnvil({
    chainId: L1_CHAIN_ID_LOCAL_NETWORK,
    timestamp: BigInt(Math.floor(Date.now() / 1000) - (settings.checkpoints + SPARE_SLOTS) * SLOT_DURATION_SECONDS),
    slotsInAnEpoch: L1_SLOTS_IN_AN_EPOCH,
  });
  const stops: (() => Promise<void>)[] = [];
  try {
    const l1 = await deployBenchRollup(anvil.url);
    const maker = await createChainMaker(
      {
        ...l1,
        publisherPrivateKey: LOCAL_PUBLISHER_PRIVATE_KEY,
        proverPrivateKey: LOCAL_PROVER_PRIVATE_KEY,
        logger: createPinoLogger({ level: 'warn' }),
      },
      shape,
    );
    const makeStarted = performance.now();
    const made = await maker.publish(settings.checkpoints, (n) =>
      progress(`chain: checkpoint ${n} of ${settings.checkpoints}`),
    );
    const makeSeconds = (performance.now() - makeStarted) / 1000;
    progress(`chain: ${made.blockNumber} blocks (${round(makeSeconds, 1)} s)\n`);
    const nodeConfig = (directory: string): NodeChildConfig => ({
      l1RpcUrl: l1.l1RpcUrl,
      rollupAddress: l1.rollupAddress,
      dataDirectory: path.join(root, directory),
      pendingTxCountMax: settings.pending + settings.sendTxs,
      ...(settings.keyIndexMemoryKeys === undefined ? {} : { keyIndexMemoryKeys: settings.keyIndexMemoryKeys }),
    });
    return await run({ root, made, makeSeconds, nodeConfig }, stops);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await anvil.stop();
    await rm(root, { recursive: true, force: true });
  }
}

/** Checkpoints of the `send-tx` bench's chain by default: enough blocks to fund its fresh fee payers. */
const SEND_TX_CHECKPOINTS_DEFAULT = 16;

/**
 * `npm run bench -- send-tx`: the read-load bench's sendTx part alone (part 3), on a short chain
 * (SEND_TX_CHECKPOINTS_DEFAULT checkpoints unless READ_LOAD_BENCH_CHECKPOINTS says otherwise): the chain, node A's
 * sync, then svc_sendTx over HTTP against the pure pool in process; no reads, no node B.
 */
export async function benchSendTxOverHttp(): Promise<BenchResult> {
  const started = performance.now();
  const settings = readSettings(SEND_TX_CHECKPOINTS_DEFAULT);
  const figures = await withBenchChain(settings, chainShape(settings), async (chain, stops) => {
    const node = await startNodeChild(chain.nodeConfig('a'), settings, 'A');
    stops.push(() => node.stop());
    await timedSync(node, chain.made.blockNumber, 'A (no load)');
    await waitForIdle(node);
    const sendTx = await benchSendTx(node, settings, chain.root);
    return {
      chainBlocks: chain.made.blockNumber,
      connections: settings.connections,
      ...sendTxFigures(sendTx, settings),
      'memory.syncedIdle.rssMb': round(sendTx.statsFilled.rssBytes / BYTES_PER_MB, 1),
      wallSeconds: round((performance.now() - started) / 1000, 1),
    };
  });
  return reportFigures('send-tx', figures, settings);
}

/** Prints a run's figures one per line, then the node children's profiles when they were profiled. */
async function reportFigures(
  name: string,
  figures: Record<string, number | string>,
  settings: { readonly cpuProfileDir?: string | undefined },
): Promise<BenchResult> {
  process.stdout.write(
    `\n${Object.entries(figures)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')}\n\n`,
  );
  if (settings.cpuProfileDir !== undefined) await printProfiles(settings.cpuProfileDir);
  return { name, figures };
}

export async function benchReadLoad(): Promise<BenchResult> {
  const started = performance.now();
  const settings = readSettings();
  const shape = chainShape(settings);
  return withBenchChain(settings, shape, async ({ root, made, makeSeconds, nodeConfig }, stops) => {
    const nodeA = await startNodeChild(nodeConfig('a'), settings, 'A');
    stops.push(() => nodeA.stop());
    const quietSync = await timedSync(nodeA, made.blockNumber, 'A (no load)');
    const settleSeconds = await waitForIdle(nodeA);
    const sendTx = await benchSendTx(nodeA, settings, root);
    const machineNoise = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
    machineNoise.enable();
    const idle = await benchIdleReads(nodeA, settings, shape);
    const noiseIdleReadsMs = machineNoise.percentile(99) / 1e6;
    machineNoise.reset();
    await nodeA.stop();
    stops.pop();

    const nodeB = await startNodeChild(nodeConfig('b'), settings, 'B');
    stops.push(() => nodeB.stop());
    const load = startLoad(readLoadConfig(nodeB, settings, shape, 2));
    load.command({ type: 'measure' });
    const loadedSync = await timedSync(nodeB, made.blockNumber, 'B (under the read load)');
    load.command({ type: 'stop' });
    const loaded = await load.result;
    const noiseLoadedSyncMs = machineNoise.percentile(99) / 1e6;
    machineNoise.disable();
    await nodeB.stop();
    stops.pop();

    const figures = {
      chain: `${made.checkpointNumber} checkpoints, ${made.blockNumber} blocks, ${made.blockNumber * TXS_PER_BLOCK} txs (synthetic effects), every epoch proved`,
      chainBlocks: made.blockNumber,
      chainMakeSeconds: round(makeSeconds, 1),
      'nodeA.settleSecondsAfterSync': round(settleSeconds, 1),
      connections: settings.connections,
      ...syncFigures(quietSync, loadedSync),
      ...readFigures(idle, loaded, loadedSync),
      // The same delay in this (mostly idle) process over the same windows: what the machine's other work adds.
      'eventLoop.orchestrator.idleReads.p99Ms': round(noiseIdleReadsMs, 1),
      'eventLoop.orchestrator.loadedSync.p99Ms': round(noiseLoadedSyncMs, 1),
      ...sendTxFigures(sendTx, settings),
      ...memoryFigures(sendTx, idle, loadedSync),
      note:
        'reads: svc_getBlock (with txs), svc_getTxReceipt, svc_getNullifierMembershipWitness, svc_getPublicDataWitness ' +
        `(half at one of the ${16} newest blocks, half up to ${HISTORY_DEPTH_MAX} below), svc_getPublicLogsByTags (4 tags), ` +
        'drawn evenly; idle = node A after its sync; loaded = node B syncing the same chain from L1. sendTx: half ' +
        'fresh fee payers (funded by the chain), half the 4 genesis accounts; baseline: the pure pool (decide and ' +
        'apply) on the same txs in one process. Event loop: monitorEventLoopDelay in the node process, 10 ms resolution.',
      wallSeconds: round((performance.now() - started) / 1000, 1),
    };
    return reportFigures('read-load', figures, settings);
  });
}

function syncFigures(quiet: SyncFigures, loaded: SyncFigures): Record<string, number> {
  return {
    'sync.idle.blocksPerSecond': round(quiet.blocksPerSecond, 1),
    'sync.idle.seconds': round(quiet.seconds, 1),
    'sync.idle.cpuSeconds': round(quiet.cpuSeconds, 1),
    'sync.idle.eventLoopP99Ms': round(quiet.stats.eventLoopPhase.p99Ms, 1),
    'sync.idle.eventLoopMaxMs': round(quiet.stats.eventLoopPhase.maxMs, 1),
    'sync.loaded.blocksPerSecond': round(loaded.blocksPerSecond, 1),
    'sync.loaded.seconds': round(loaded.seconds, 1),
    'sync.loaded.cpuSeconds': round(loaded.cpuSeconds, 1),
    'sync.slowdown': round(quiet.blocksPerSecond / loaded.blocksPerSecond, 2),
  };
}

function readFigures(idle: ReadFigures, loaded: LoadWindowResult, loadedSync: SyncFigures): Record<string, number> {
  const figures: Record<string, number> = {};
  const add = (prefix: string, load: LoadWindowResult) => {
    figures[`${prefix}.reqPerSec`] = round(load.completed / (load.windowMs / 1000), 0);
    figures[`${prefix}.p50Ms`] = round(load.p50Ms, 2);
    figures[`${prefix}.p99Ms`] = round(load.p99Ms, 2);
    figures[`${prefix}.errors`] = load.errors;
    for (const [method, m] of Object.entries(load.byMethod)) {
      figures[`${prefix}.${method}.reqPerSec`] = round(m.completed / (load.windowMs / 1000), 0);
      figures[`${prefix}.${method}.p50Ms`] = round(m.p50Ms, 2);
      figures[`${prefix}.${method}.p99Ms`] = round(m.p99Ms, 2);
      if (m.errors > 0) figures[`${prefix}.${method}.errors`] = m.errors;
      if (m.firstError !== undefined) process.stderr.write(`read-load ${prefix} ${method}: ${m.firstError}\n`);
    }
  };
  add('reads.idle', idle.load);
  add('reads.loaded', loaded);
  figures['reads.idle.nodeCores'] = round(idle.nodeCores, 2);
  figures['reads.loaded.nodeCores'] = round(loadedSync.cpuSeconds / loadedSync.seconds, 2);
  figures['eventLoop.idleReads.p99Ms'] = round(idle.stats.eventLoopPhase.p99Ms, 1);
  figures['eventLoop.idleReads.maxMs'] = round(idle.stats.eventLoopPhase.maxMs, 1);
  figures['eventLoop.loadedSync.p99Ms'] = round(loadedSync.stats.eventLoopPhase.p99Ms, 1);
  figures['eventLoop.loadedSync.maxMs'] = round(loadedSync.stats.eventLoopPhase.maxMs, 1);
  figures['eventLoop.loadedSync.worstWindowP99Ms'] = round(loadedSync.windowP99MaxMs, 1);
  figures['eventLoop.p99TargetMs'] = EVENT_LOOP_P99_TARGET_MS;
  return figures;
}

function sendTxFigures(sendTx: SendTxFigures, settings: Settings): Record<string, number> {
  const { timed } = sendTx;
  return {
    'sendTx.pendingBefore': sendTx.statsFilled.pendingTxs,
    'sendTx.timed': settings.sendTxs,
    'sendTx.acceptedPerSecond': round((timed.completed - timed.errors) / (timed.windowMs / 1000), 0),
    'sendTx.rejected': timed.errors,
    'sendTx.p50Ms': round(timed.p50Ms, 2),
    'sendTx.p99Ms': round(timed.p99Ms, 2),
    'sendTx.fillPerSecond': round((sendTx.fill.completed - sendTx.fill.errors) / (sendTx.fill.windowMs / 1000), 0),
    'sendTx.fillRejected': sendTx.fill.errors,
    'sendTx.eventLoopP99Ms': round(sendTx.statsAfter.eventLoopPhase.p99Ms, 1),
    // The node's CPU time (all its threads) per timed call: what the machine's load does not inflate as it does rates.
    'sendTx.nodeCpuUsPerTx': round((sendTx.statsAfter.cpuMicros - sendTx.statsFilled.cpuMicros) / settings.sendTxs, 0),
    'sendTx.baselineInProcessPerSecond': round(sendTx.inProcessPerSecond, 0),
    'sendTx.pendingAfter': sendTx.statsAfter.pendingTxs,
  };
}

function memoryFigures(sendTx: SendTxFigures, idle: ReadFigures, loadedSync: SyncFigures): Record<string, number> {
  const mb = (bytes: number) => round(bytes / BYTES_PER_MB, 1);
  const bytesPerKey = sortedKeyIndexBytesPerKey();
  const keys = idle.stats.keyIndexMemoryKeys;
  return {
    'memory.syncedIdle.rssMb': mb(sendTx.statsFilled.rssBytes),
    'memory.syncedIdle.heapUsedMb': mb(sendTx.statsFilled.heapUsedBytes),
    'memory.syncedIdle.pendingTxs': sendTx.statsFilled.pendingTxs,
    'memory.afterReads.rssMb': mb(idle.stats.rssBytes),
    'memory.afterReads.heapUsedMb': mb(idle.stats.heapUsedBytes),
    'memory.afterReads.heapTotalMb': mb(idle.stats.heapTotalBytes),
    'memory.afterReads.externalMb': mb(idle.stats.externalBytes),
    'memory.beforeReads.liveHeapMb': mb(idle.liveBefore.heapUsedBytes),
    'memory.beforeReads.rssAfterGcMb': mb(idle.liveBefore.rssBytes),
    'memory.afterReads.liveHeapMb': mb(idle.liveAfter.heapUsedBytes),
    'memory.afterReads.rssAfterGcMb': mb(idle.liveAfter.rssBytes),
    'memory.idleReads.minutes': round(idle.minutes, 1),
    'memory.idleReads.rssMaxMb': round(idle.rssMaxMb, 1),
    'memory.idleReads.rssSlopeMbPerMin': round(idle.rssSlopeMbPerMin, 2),
    'memory.idleReads.rssSecondHalfSlopeMbPerMin': round(idle.rssSecondHalfSlopeMbPerMin, 2),
    'memory.loadedSync.rssSlopeMbPerMin': round(loadedSync.rssSlopeMbPerMin, 2),
    'memory.loadedSync.rssEndMb': mb(loadedSync.stats.rssBytes),
    'memory.keyIndex.memoryKeys': keys,
    'memory.keyIndex.inStorage': idle.stats.keyIndexInStorage ? 1 : 0,
    'memory.keyIndex.bytesPerKey': bytesPerKey,
    'memory.keyIndex.estimatedMb': mb(keys * bytesPerKey),
  };
}

async function printProfiles(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.cpuprofile')) continue;
    const file = path.join(entry.parentPath, entry.name);
    process.stdout.write(`\n${file}\n${await summarizeProfileFile(file)}\n`);
  }
}

function progress(line: string): void {
  if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(60)}`);
  else if (line.endsWith('\n')) process.stdout.write(line);
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
