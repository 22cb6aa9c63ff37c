/**
 * `npm run bench -- snapshot`: how much faster a new node joins a long chain from a snapshot than by syncing it from
 * L1, on this machine, in one run.
 *
 * 1. A chain of SNAPSHOT_BENCH_CHECKPOINTS checkpoints of 16 blocks (10,000 blocks; 4 synthetic txs each) is put on
 *    anvil by bench/snapshot/chainMaker.ts, every epoch proved. Not timed as a figure (it is set-up).
 * 2. Node A (production wiring, adapters/node/runNode.ts, LevelDB) syncs it from L1: blocks from the logs, blobs from
 *    anvil's beacon routes, every blob checked, every block applied to the world state. Timed from the start of the
 *    node until its checkpointed tip is L1's: the baseline.
 * 3. Node A uploads a snapshot of itself through `svcAdmin_startSnapshotUpload`, to a `file://` store and to an
 *    S3-compatible one (s3rver, in its own process). Timed from the call until the index lists it and the node is
 *    syncing again; bytes as the index records them.
 * 4. Two more checkpoints land on L1, so the new nodes have something to catch up.
 * 5. Node B starts with `--sync-mode snapshot` from the `file://` store and node C from the S3 one: each downloads,
 *    checks, installs, opens and syncs the rest from L1. Timed from the start of the node until its checkpointed tip
 *    is L1's. Their tip block (hash and state roots) must equal node A's, or the benchmark fails.
 *
 * The figure is the ratio: full sync time over restore time. Everything runs on this machine (2 cores shared by
 * anvil, the node and s3rver), one node at a time.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startAnvil } from '../../adapters/l1/anvil.js';
import { deployRollup } from '../../adapters/l1/deployRollup.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import {
  LOCAL_DEPLOYER_PRIVATE_KEY,
  LOCAL_PROVER_PRIVATE_KEY,
  LOCAL_PUBLISHER_PRIVATE_KEY,
} from '../../adapters/node/localNetwork.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import type { LoggerPort } from '../../core/ports.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import type { Hex, L2Tips } from '../../spec/chain.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT, type ConfigValues } from '../../spec/config/schema.js';
import { L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT } from '../../spec/constants.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { rpc } from '../../test/e2e/rpc.js';
import { createChainMaker, type ChainShape } from './chainMaker.js';
import type { S3ChildCommand, S3ChildMessage } from './protocol.js';

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

/** 625 checkpoints of 16 blocks: 10,000 blocks. `SNAPSHOT_BENCH_CHECKPOINTS` overrides it for a quick look. */
const CHECKPOINTS_DEFAULT = 625;
const SHAPE: Omit<ChainShape, 'checkpoints'> = { blocksPerCheckpoint: 16, txsPerBlock: 4, publicDataSlots: 5_000 };
const CHECKPOINTS_AFTER_SNAPSHOT = 2;
const SLOT_DURATION_SECONDS = 36;
const EPOCH_DURATION_SLOTS = 32;
/** anvil's safe and finalized depths (latest - n, latest - 2n), as on the local network. */
const L1_SLOTS_IN_AN_EPOCH = 32;
/** Spare slots before the chain's first one: anvil starts this far in the past so that the chain ends about now. */
const SPARE_SLOTS = 8;
const SYNC_TIMEOUT_MS = 60 * 60_000;
const UPLOAD_TIMEOUT_MS = 30 * 60_000;
const POLL_INTERVAL_MS = 100;
const IDLE_WINDOW_MS = 1_000;
const IDLE_WINDOWS = 3;
const IDLE_CPU_SHARE = 0.05;

const common = {
  port: 0,
  adminPort: 0,
  adminHost: '127.0.0.1',
  adminApiKey: { disabled: true, reset: false },
} as const;

export interface L1Setup {
  readonly l1RpcUrl: string;
  readonly rollupAddress: Hex;
}

export async function benchSnapshot(): Promise<BenchResult> {
  const started = performance.now();
  const checkpoints = Number(process.env.SNAPSHOT_BENCH_CHECKPOINTS ?? CHECKPOINTS_DEFAULT);
  const root = await mkdtemp(path.join(os.tmpdir(), 'bench-snapshot-'));
  const anvil = await startAnvil({
    chainId: L1_CHAIN_ID_LOCAL_NETWORK,
    timestamp: BigInt(Math.floor(Date.now() / 1000) - (checkpoints + SPARE_SLOTS) * SLOT_DURATION_SECONDS),
    slotsInAnEpoch: L1_SLOTS_IN_AN_EPOCH,
  });
  const s3 = await startS3Child();
  const stops: (() => Promise<void>)[] = [];
  try {
    const l1 = await deployBenchRollup(anvil.url);
    const quiet = createPinoLogger({ level: 'warn' });
    const maker = await createChainMaker(
      {
        ...l1,
        publisherPrivateKey: LOCAL_PUBLISHER_PRIVATE_KEY,
        proverPrivateKey: LOCAL_PROVER_PRIVATE_KEY,
        logger: quiet,
      },
      { ...SHAPE, checkpoints },
    );
    const makeStarted = performance.now();
    const made = await maker.publish(checkpoints, (n) => progress(`chain: checkpoint ${n} of ${checkpoints}`));
    const makeSeconds = seconds(makeStarted);
    progress(
      `chain: ${made.blockNumber} blocks in ${made.checkpointNumber} checkpoints (${round(makeSeconds, 1)} s)\n`,
    );

    const full = await timedSync('A (full sync from L1)', l1, path.join(root, 'a'), {}, made.checkpointNumber, stops);
    const nodeA = full.node;
    await waitForIdle(nodeA);
    const dataDirectoryBytes = await directoryBytes(path.join(root, 'a'));
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    const fileStoreUrl = pathToFileURL(path.join(root, 'store')).href;
    const uploadFile = await timedUpload(nodeA, full.lines, fileStoreUrl);
    const s3CpuBefore = await s3.cpuMicros();
    const uploadS3 = await timedUpload(nodeA, full.lines, s3.bucketUrl);
    const uploadS3ServerCpuSeconds = ((await s3.cpuMicros()) - s3CpuBefore) / 1e6;

    const after = await maker.publish(CHECKPOINTS_AFTER_SNAPSHOT);
    await waitUntil('node A on the new checkpoints', () => checkpointOf(nodeA), after.checkpointNumber);
    const referenceTip = JSON.stringify(await rpc(nodeA.publicUrl, 'svc_getBlockData', [after.blockNumber]));
    await nodeA.stop();
    stops.pop();

    const restoreFile = await timedRestore('B (snapshot from file://)', l1, root, 'b', fileStoreUrl, after, stops);
    const restoreS3 = await timedRestore('C (snapshot from s3://)', l1, root, 'c', s3.bucketUrl, after, stops);
    for (const restored of [restoreFile, restoreS3]) {
      if (JSON.stringify(restored.tipBlock) !== referenceTip)
        throw new Error(`a restored node's block ${after.blockNumber} differs from the one node A synced from L1`);
    }

    const blocks = made.blockNumber;
    const figures: Record<string, number | string> = {
      chain: `${made.checkpointNumber} checkpoints, ${blocks} blocks, ${blocks * SHAPE.txsPerBlock} txs (synthetic effects), every epoch proved`,
      chainBlocks: blocks,
      chainMakeSeconds: round(makeSeconds, 1),
      'fullSync.seconds': round(full.seconds, 1),
      'fullSync.blocksPerSecond': round(blocks / full.seconds, 1),
      'fullSync.cpuSeconds': round(full.cpuSeconds, 1),
      'fullSync.dataDirectoryBytes': dataDirectoryBytes,
      'uploadFile.seconds': round(uploadFile.seconds, 2),
      'uploadFile.bytes': uploadFile.sizeBytes,
      'uploadFile.entries': uploadFile.entries,
      'uploadS3.seconds': round(uploadS3.seconds, 2),
      'uploadS3.bytes': uploadS3.sizeBytes,
      'uploadS3.entries': uploadS3.entries,
      'uploadS3.serverCpuSeconds': round(uploadS3ServerCpuSeconds, 2),
      'restoreFile.seconds': round(restoreFile.seconds, 2),
      'restoreFile.installSeconds': round(restoreFile.installSeconds, 2),
      'restoreFile.dataDirectoryBytes': restoreFile.dataDirectoryBytes,
      'restoreS3.seconds': round(restoreS3.seconds, 2),
      'restoreS3.installSeconds': round(restoreS3.installSeconds, 2),
      checkpointsCaughtUpAfterSnapshot: CHECKPOINTS_AFTER_SNAPSHOT,
      'ratio.fullSyncOverRestoreFile': round(full.seconds / restoreFile.seconds, 1),
      'ratio.fullSyncOverRestoreS3': round(full.seconds / restoreS3.seconds, 1),
      note:
        'restore = start of the node with --sync-mode snapshot until its checkpointed tip is L1s (download, checksum, ' +
        `install, open, then ${CHECKPOINTS_AFTER_SNAPSHOT} checkpoints from L1); full sync = start of a node with an ` +
        'empty data directory until its checkpointed tip is L1s (before those checkpoints); upload = the admin call ' +
        'until the index lists the snapshot and the node is syncing again, started once node A is idle (history ' +
        'pruned on finality); bytes = the gzip data file',
      wallSeconds: round(seconds(started), 1),
    };
    process.stdout.write(
      `\n${Object.entries(figures)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}\n\n`,
    );
    return { name: 'snapshot', figures };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await s3.stop().catch(() => undefined);
    await anvil.stop();
    await rm(root, { recursive: true, force: true });
  }
}

/** A rollup on `l1RpcUrl` with the benches' 36 s slots and 32-slot epochs (the read-load bench's too). */
export async function deployBenchRollup(l1RpcUrl: string): Promise<L1Setup> {
  const genesis = createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT);
  const { rollupAddress } = await deployRollup({
    l1RpcUrl,
    deployerPrivateKey: LOCAL_DEPLOYER_PRIVATE_KEY,
    genesisArchive: genesis.block.archive.root,
    slotDuration: SLOT_DURATION_SECONDS,
    epochDuration: EPOCH_DURATION_SLOTS,
    proofSubmissionEpochs: 1,
    rollupVersion: ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
    ethPerFeeAsset: INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
  });
  return { l1RpcUrl, rollupAddress };
}

async function startNode(
  l1: L1Setup,
  dataDirectory: string,
  extra: Partial<ConfigValues>,
  logger: LoggerPort,
): Promise<RunningNode> {
  return runNode({
    config: configFromSettings(
      {
        ...common,
        l1RpcUrl: l1.l1RpcUrl,
        l1ConsensusHostUrl: l1.l1RpcUrl,
        rollupAddress: l1.rollupAddress,
        dataDirectory,
      },
      extra,
    ),
    logger,
    print: () => undefined,
  });
}

interface TimedSync {
  readonly node: RunningNode;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly lines: LogLine[];
}

/** Starts a node and waits until its checkpointed tip is `checkpointNumber`; the node keeps running. */
async function timedSync(
  name: string,
  l1: L1Setup,
  dataDirectory: string,
  extra: Partial<ConfigValues>,
  checkpointNumber: number,
  stops: (() => Promise<void>)[],
): Promise<TimedSync> {
  const lines: LogLine[] = [];
  const logger = capturingLogger((line) => {
    if (line.level !== 'debug') lines.push(line);
    if (line.level === 'error') process.stderr.write(`node ${name}: ${line.message} ${JSON.stringify(line.fields)}\n`);
  });
  const cpuBefore = process.cpuUsage();
  const startedMs = performance.now();
  const node = await startNode(l1, dataDirectory, extra, logger);
  stops.push(() => node.stop());
  await waitUntil(
    `node ${name}`,
    () => checkpointOf(node),
    checkpointNumber,
    (n) => progress(`node ${name}: checkpoint ${n} of ${checkpointNumber}`),
  );
  const elapsed = seconds(startedMs);
  const cpu = process.cpuUsage(cpuBefore);
  progress(`node ${name}: ${round(elapsed, 1)} s\n`);
  return { node, seconds: elapsed, cpuSeconds: (cpu.user + cpu.system) / 1e6, lines };
}

interface TimedRestore {
  readonly seconds: number;
  readonly installSeconds: number;
  readonly dataDirectoryBytes: number;
  readonly tipBlock: unknown;
}

async function timedRestore(
  name: string,
  l1: L1Setup,
  root: string,
  directory: string,
  storeUrl: string,
  target: { readonly checkpointNumber: number; readonly blockNumber: number },
  stops: (() => Promise<void>)[],
): Promise<TimedRestore> {
  const dataDirectory = path.join(root, directory);
  const synced = await timedSync(
    name,
    l1,
    dataDirectory,
    { syncMode: 'snapshot', snapshotsUrls: [storeUrl] },
    target.checkpointNumber,
    stops,
  );
  const installed = synced.lines.find((line) => line.message.startsWith('installed snapshot'));
  if (installed === undefined) {
    const why = synced.lines.filter((line) => /snapshot/.test(line.message)).map((line) => line.message);
    throw new Error(`node ${name} did not install the snapshot: ${why.join('; ')}`);
  }
  const tipBlock = await rpc(synced.node.publicUrl, 'svc_getBlockData', [target.blockNumber]);
  const dataDirectoryBytes = await directoryBytes(dataDirectory);
  await synced.node.stop();
  stops.pop();
  return {
    seconds: synced.seconds,
    installSeconds: Number(installed.fields?.durationMs ?? 0) / 1000,
    dataDirectoryBytes,
    tipBlock,
  };
}

interface TimedUpload {
  readonly seconds: number;
  readonly sizeBytes: number;
  readonly entries: number;
}

/** Asks the node for a snapshot upload to `url` and waits for its outcome in the node's log. */
async function timedUpload(node: RunningNode, lines: LogLine[], url: string): Promise<TimedUpload> {
  const from = lines.length;
  const startedMs = performance.now();
  await rpc(node.adminUrl, 'svcAdmin_startSnapshotUpload', [url]);
  const deadline = Date.now() + UPLOAD_TIMEOUT_MS;
  for (;;) {
    const outcome = lines.slice(from).find((line) => /^snapshot upload (finished|failed)/.test(line.message));
    if (outcome !== undefined && node.node.service.admin.operationalState() === 'Syncing') {
      if (outcome.message.includes('failed'))
        throw new Error(`snapshot upload failed: ${JSON.stringify(outcome.fields)}`);
      const elapsed = seconds(startedMs);
      progress(`upload to ${new URL(url).protocol}: ${round(elapsed, 2)} s\n`);
      return {
        seconds: elapsed,
        sizeBytes: Number(outcome.fields?.sizeBytes),
        entries: Number(outcome.fields?.entries),
      };
    }
    if (Date.now() > deadline) throw new Error(`no outcome of the snapshot upload to ${url}`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/**
 * Waits until the node has finished the work that follows a sync (world-state history pruning on finality, run in
 * the background): its tips are unchanged and this process (the node runs in it) used under IDLE_CPU_SHARE of a core
 * over IDLE_WINDOW_MS, IDLE_WINDOWS times in a row. Uploads measured before that would share the CPU with it.
 */
async function waitForIdle(node: RunningNode): Promise<void> {
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  let quiet = 0;
  let lastTips = '';
  while (quiet < IDLE_WINDOWS) {
    if (Date.now() > deadline) throw new Error('node A never became idle after its sync');
    const before = process.cpuUsage();
    await sleep(IDLE_WINDOW_MS);
    const used = process.cpuUsage(before);
    const tips = JSON.stringify(await rpc(node.publicUrl, 'svc_getChainTips'));
    const idle = (used.user + used.system) / 1000 < IDLE_WINDOW_MS * IDLE_CPU_SHARE && tips === lastTips;
    quiet = idle ? quiet + 1 : 0;
    lastTips = tips;
  }
}

async function checkpointOf(node: RunningNode): Promise<number> {
  return (await rpc<L2Tips>(node.publicUrl, 'svc_getChainTips')).checkpointed.checkpoint.number;
}

async function waitUntil(
  what: string,
  current: () => Promise<number>,
  target: number,
  onProgress?: (n: number) => void,
): Promise<void> {
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  let last = -1;
  for (;;) {
    const n = await current();
    if (n !== last) onProgress?.(n);
    last = n;
    if (n >= target) return;
    if (Date.now() > deadline) throw new Error(`${what}: at checkpoint ${n} of ${target} after ${SYNC_TIMEOUT_MS} ms`);
    await sleep(POLL_INTERVAL_MS);
  }
}

async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

interface S3Child {
  readonly bucketUrl: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

function startS3Child(): Promise<S3Child> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child: ChildProcess = fork(path.join(here, 's3Child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<S3ChildMessage>((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the s3rver process exited (${code})`)));
    });
  const ask = (command: S3ChildCommand) => {
    const answer = next();
    child.send(command);
    return answer;
  };
  return next().then((ready) => {
    if (ready.kind !== 'ready') throw new Error(`the s3rver process said ${ready.kind} first`);
    return {
      bucketUrl: ready.bucketUrl,
      credentials: ready.credentials,
      async cpuMicros() {
        const answer = await ask({ kind: 'cpu' });
        if (answer.kind !== 'cpu') throw new Error(`the s3rver process answered ${answer.kind} to cpu`);
        return answer.cpuMicros;
      },
      async stop() {
        if (child.exitCode !== null) return;
        await ask({ kind: 'shutdown' }).catch(() => undefined);
        child.kill();
      },
    };
  });
}

function progress(line: string): void {
  if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(60)}`);
  else if (line.endsWith('\n')) process.stdout.write(line);
}

const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000;
const round = (value: number, digits: number) => Number(value.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
