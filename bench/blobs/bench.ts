/**
 * `npm run bench -- blobs`: checkpoints synced per second from each kind of blob source, on loopback. The blob chain
 * (core/blobs/blobSourceChain.ts) is built with one kind of source at a time, as createBlobPorts builds them, and asked
 * for each checkpoint's blobs in turn, as the archiver asks (core/archiver/syncStep.ts, one checkpoint after another),
 * with historical urgency:
 *   consensusAnvil     the consensus source on anvil's beacon routes (`blobs/{block}`, blobs as hex, no spec);
 *   consensusSidecars  the consensus source through a beacon proxy serving only `blob_sidecars` (commitments and
 *                      proofs served, so the checker verifies a proof instead of computing a commitment);
 *   fileLocal          a `file://` store;
 *   fileS3             an `s3://` store on s3rver;
 *   fileHttp           a read-only `http://` store (a static file server over the local store's directory);
 *   archive            a Blobscan-style archive;
 *   missThenFile       consensus misses (a proxy answering 404 for the blobs), then the `file://` store;
 *   missThenArchive    consensus misses, then the archive: reached only after the historical retry rounds.
 * Checkpoints come in two shapes: 1 blob (a 40 KB payload) and 3 blobs (a 300 KB payload: two full blobs and a third
 * filled to a third), of pseudo-random payload bytes framed by payloadToBlobs, each sent to anvil as one blob tx.
 *
 * Per case and shape: checkpoints/s, blobs/s, ms per checkpoint p50 and p99, the share of the time in the KZG checker
 * (timed around each call; the chain checks one blob at a time), CPU of this process (the client) and of the server
 * process per checkpoint (anvil's own CPU is not counted). Retry waits are recorded by the clock rather than slept
 * and reported apart; the figures of missThenArchive add them back (the chain sleeps between rounds, so a real clock
 * adds exactly them), and a few checkpoints with the real clock confirm it. Baseline: the KZG checker alone on the
 * same blobs, computing commitments and verifying proofs.
 *
 * The servers run in their own process (bench/blobs/serverChild.ts); anvil is its own process too.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createWalletClient, http, parseGwei, type Kzg } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createArchiveBlobSource } from '../../adapters/blobs/archiveBlobSource.js';
import { createConsensusBlobSource } from '../../adapters/blobs/consensusBlobSource.js';
import { blobPath, createFileStoreBlobSource, type BlobStoreChain } from '../../adapters/blobs/fileStoreBlobSource.js';
import { createKzgBlobChecker } from '../../adapters/blobs/kzgBlobChecker.js';
import { createSystemClock } from '../../adapters/clock/systemClock.js';
import { createFileStore, createReadOnlyFileStore } from '../../adapters/fileStore/fileStore.js';
import { startAnvil, type AnvilInstance } from '../../adapters/l1/anvil.js';
import { commitmentVersionedHash, getKzg } from '../../adapters/l1/kzg.js';
import { createL1PublicClient } from '../../adapters/l1/l1Rpc.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { BLOB_RETRY_DELAYS_HISTORICAL_MS, createBlobSourceChain } from '../../core/blobs/blobSourceChain.js';
import type { BlobCheckerPort, BlobRequest, BlobSourcePort, ClockPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import type { BlobServersUrls, ServerChildCommand, ServerChildMessage } from './protocol.js';

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

const SHAPES = [
  { name: 'blobs1', blobCount: 1, payloadBytes: 40_000 },
  { name: 'blobs3', blobCount: 3, payloadBytes: 300_000 },
] as const;
type Shape = (typeof SHAPES)[number];

/** Timed checkpoints per shape and case. */
const CHECKPOINTS_PER_SHAPE = 30;
/** Checkpoints per shape fetched untimed first in each case (connections, the JIT, the consensus source's timing). */
const WARM_UP_CHECKPOINTS_PER_SHAPE = 3;
/** Checkpoints of missThenArchive fetched with the real clock, to confirm that the recorded waits add up. */
const REAL_CLOCK_CHECKPOINTS = 3;
/** Verifications per timed blob in the baseline (one is noisy; a proof check takes a few ms). */
const BASELINE_REPEATS = 3;

// anvil's default dev account 3
const SENDER_KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const STORE_CHAIN: BlobStoreChain = {
  l1ChainId: 31337,
  rollupVersion: 1,
  rollupAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
};

interface Checkpoint {
  readonly shape: Shape;
  readonly blobs: readonly Uint8Array[];
  readonly commitments: readonly Uint8Array[];
  readonly proofs: readonly Uint8Array[];
  readonly versionedHashes: readonly Hex[];
}

interface PublishedCheckpoint extends Checkpoint {
  readonly request: BlobRequest;
}

interface ShapeSet {
  readonly shape: Shape;
  readonly warmUp: readonly PublishedCheckpoint[];
  readonly timed: readonly PublishedCheckpoint[];
}

/** Deterministic pseudo-random bytes: sha256 of (seed, counter), concatenated. */
function pseudoRandomBytes(seed: string, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let offset = 0, counter = 0; offset < length; offset += 32, counter++) {
    const digest = createHash('sha256').update(`${seed}/${counter}`).digest();
    out.set(digest.subarray(0, Math.min(32, length - offset)), offset);
  }
  return out;
}

function makeCheckpoint(shape: Shape, index: number): Checkpoint {
  const blobs = payloadToBlobs(pseudoRandomBytes(`${shape.name}/${index}`, shape.payloadBytes));
  if (blobs.length !== shape.blobCount) throw new Error(`${shape.name} payload made ${blobs.length} blobs`);
  const kzg = getKzg();
  const commitments = blobs.map((blob) => kzg.blobToKzgCommitment(blob));
  const proofs = blobs.map((blob, i) => kzg.computeBlobKzgProof(blob, commitments[i]!));
  return { shape, blobs, commitments, proofs, versionedHashes: commitments.map(commitmentVersionedHash) };
}

/** viem's KZG over commitments and proofs computed already (viem would compute each again, twice). */
function knownKzg(checkpoints: readonly Checkpoint[]): Kzg {
  const known = new Map<string, { commitment: Uint8Array; proof: Uint8Array }>();
  for (const c of checkpoints)
    c.blobs.forEach((blob, i) => known.set(bytesToHex(blob), { commitment: c.commitments[i]!, proof: c.proofs[i]! }));
  const lookup = (blob: Uint8Array) => {
    const found = known.get(bytesToHex(blob));
    if (found === undefined) throw new Error('viem asked the KZG of a blob the benchmark did not make');
    return found;
  };
  return {
    blobToKzgCommitment: (blob) => lookup(blob).commitment,
    computeBlobKzgProof: (blob) => lookup(blob).proof,
  };
}

/** Sends each checkpoint's blobs to anvil as one blob tx (automine: one block each) and records its request. */
async function publish(anvil: AnvilInstance, checkpoints: readonly Checkpoint[]): Promise<PublishedCheckpoint[]> {
  const client = createL1PublicClient(anvil.url);
  const account = privateKeyToAccount(SENDER_KEY);
  const wallet = createWalletClient({ account, transport: http(anvil.url) });
  const kzg = knownKzg(checkpoints);
  const published: PublishedCheckpoint[] = [];
  for (const checkpoint of checkpoints) {
    const txHash = await wallet.sendTransaction({
      chain: null,
      to: account.address,
      blobs: checkpoint.blobs.map((blob) => bytesToHex(blob)),
      kzg,
      maxFeePerBlobGas: parseGwei('30'),
    });
    const receipt = await client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 20 });
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const l1 = { blockNumber: block.number, blockHash: block.hash, timestamp: block.timestamp, txHash };
    published.push({ ...checkpoint, request: { versionedHashes: checkpoint.versionedHashes, l1 } });
  }
  return published;
}

interface ServerChild {
  readonly child: ChildProcess;
  ask(command: ServerChildCommand): Promise<ServerChildMessage>;
}

function startServerChild(): Promise<ServerChild> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = fork(path.join(here, 'serverChild.ts'), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: ((message: ServerChildMessage) => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  child.on('message', (message: ServerChildMessage) => waiting?.(message));
  child.once('exit', (code) => failed?.(new Error(`the blob servers' process exited (${code})`)));
  const ask = (command: ServerChildCommand) =>
    new Promise<ServerChildMessage>((resolve, reject) => {
      waiting = resolve;
      failed = reject;
      child.send(command);
    });
  return new Promise((resolve, reject) => {
    waiting = () => resolve({ child, ask });
    failed = reject;
  });
}

async function serverCpuMicros(servers: ServerChild): Promise<number> {
  const answer = await servers.ask({ kind: 'cpu' });
  if (answer.kind !== 'cpu') throw new Error(`the servers answered ${answer.kind} to cpu`);
  return answer.cpuMicros;
}

/** The checker, with the time spent in it summed (the chain awaits one check at a time, so calls never overlap). */
function timedChecker(inner: BlobCheckerPort): { readonly checker: BlobCheckerPort; readonly totalMs: () => number } {
  let totalMs = 0;
  return {
    checker: {
      async versionedHashOf(candidate) {
        const started = performance.now();
        try {
          return await inner.versionedHashOf(candidate);
        } finally {
          totalMs += performance.now() - started;
        }
      },
    },
    totalMs: () => totalMs,
  };
}

/** A clock whose timers fire on the next turn of the loop, summing the delays asked for. */
function recordingClock(): { readonly clock: ClockPort; readonly waitedMs: () => number } {
  let waitedMs = 0;
  return {
    clock: {
      now: () => Date.now(),
      setTimeout: (callback, delayMs) => {
        waitedMs += delayMs;
        return setImmediate(callback);
      },
      clearTimeout: (id) => clearImmediate(id as ReturnType<typeof setImmediate>),
    },
    waitedMs: () => waitedMs,
  };
}

interface Environment {
  readonly anvilUrl: string;
  readonly fileUrl: string;
  readonly urls: BlobServersUrls;
}

interface BenchCase {
  readonly name: string;
  readonly sources: (env: Environment) => BlobSourcePort[];
  /** The kind of source every blob must come from. */
  readonly servedBy: BlobSourcePort['kind'];
}

const consensusOn = (url: string) => createConsensusBlobSource({ url });
const fileStoreOn = (url: string, env?: Environment) =>
  createFileStoreBlobSource(
    createReadOnlyFileStore(url, env === undefined ? {} : { s3Credentials: env.urls.s3Credentials }),
    STORE_CHAIN,
  );
const archiveOn = (url: string) => createArchiveBlobSource({ url });

const CASES: readonly BenchCase[] = [
  { name: 'consensusAnvil', servedBy: 'consensus', sources: (env) => [consensusOn(env.anvilUrl)] },
  { name: 'consensusSidecars', servedBy: 'consensus', sources: (env) => [consensusOn(env.urls.sidecarProxyUrl)] },
  { name: 'fileLocal', servedBy: 'fileStore', sources: (env) => [fileStoreOn(env.fileUrl)] },
  { name: 'fileS3', servedBy: 'fileStore', sources: (env) => [fileStoreOn(env.urls.s3Url, env)] },
  { name: 'fileHttp', servedBy: 'fileStore', sources: (env) => [fileStoreOn(env.urls.httpUrl)] },
  { name: 'archive', servedBy: 'archive', sources: (env) => [archiveOn(env.urls.archiveUrl)] },
  {
    name: 'missThenFile',
    servedBy: 'fileStore',
    sources: (env) => [consensusOn(env.urls.missingProxyUrl), fileStoreOn(env.fileUrl)],
  },
  {
    name: 'missThenArchive',
    servedBy: 'archive',
    sources: (env) => [consensusOn(env.urls.missingProxyUrl), archiveOn(env.urls.archiveUrl)],
  },
];

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round = (value: number, digits: number) => Number(value.toFixed(digits));
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

function sameBlobs(got: readonly Uint8Array[], want: readonly Uint8Array[]): boolean {
  return got.length === want.length && got.every((blob, i) => Buffer.compare(blob, want[i]!) === 0);
}

interface ShapeRun {
  readonly msPerCheckpoint: number[];
  readonly wallMs: number;
  readonly kzgMs: number;
  readonly waitedMs: number;
  readonly clientCpuMs: number;
  readonly serverCpuMs: number;
}

/** Fetches the warm-up checkpoints untimed, then times each of the others; every answer must be the blobs sent. */
async function runShape(
  benchCase: BenchCase,
  env: Environment,
  set: ShapeSet,
  servers: ServerChild,
): Promise<ShapeRun> {
  const timed = timedChecker(createKzgBlobChecker());
  const recording = recordingClock();
  const logger = createPinoLogger({ level: 'silent' });
  const sources = benchCase.sources(env);
  const chain = createBlobSourceChain({ blobs: { sources, checker: timed.checker }, clock: recording.clock, logger });
  for (const checkpoint of set.warmUp) await chain.getBlobs(checkpoint.request, 'historical');
  const [kzgBefore, waitedBefore] = [timed.totalMs(), recording.waitedMs()];
  const [clientBefore, serverBefore] = [cpuMicros(), await serverCpuMicros(servers)];
  const msPerCheckpoint: number[] = [];
  const started = performance.now();
  for (const checkpoint of set.timed) {
    const begun = performance.now();
    const blobs = await chain.getBlobs(checkpoint.request, 'historical');
    msPerCheckpoint.push(performance.now() - begun);
    if (!sameBlobs(blobs, checkpoint.blobs)) throw new Error(`${benchCase.name}: wrong blobs for a checkpoint`);
  }
  const wallMs = performance.now() - started;
  const [clientAfter, serverAfter] = [cpuMicros(), await serverCpuMicros(servers)];
  const blobCount = [...set.warmUp, ...set.timed].reduce((sum, c) => sum + c.blobs.length, 0);
  const served = chain.stats().filter((s) => s.kind === benchCase.servedBy);
  if (served.reduce((sum, s) => sum + s.served, 0) !== blobCount)
    throw new Error(`${benchCase.name}: not every blob came from the ${benchCase.servedBy} source`);
  return {
    msPerCheckpoint,
    wallMs,
    kzgMs: timed.totalMs() - kzgBefore,
    waitedMs: recording.waitedMs() - waitedBefore,
    clientCpuMs: (clientAfter - clientBefore) / 1000,
    serverCpuMs: (serverAfter - serverBefore) / 1000,
  };
}

/** The figures of one case and shape; the recorded retry waits are added to the times (a real clock sleeps them). */
function shapeFigures(prefix: string, set: ShapeSet, run: ShapeRun): Record<string, number> {
  const count = set.timed.length;
  const waitPerCheckpointMs = run.waitedMs / count;
  const totalMs = run.wallMs + run.waitedMs;
  const sorted = run.msPerCheckpoint.map((ms) => ms + waitPerCheckpointMs).sort((a, b) => a - b);
  const figures: Record<string, number> = {
    [`${prefix}.checkpointsPerSecond`]: round((count * 1000) / totalMs, 2),
    [`${prefix}.blobsPerSecond`]: round((count * set.shape.blobCount * 1000) / totalMs, 2),
    [`${prefix}.msPerCheckpointP50`]: round(quantile(sorted, 0.5), 1),
    [`${prefix}.msPerCheckpointP99`]: round(quantile(sorted, 0.99), 1),
    [`${prefix}.kzgShare`]: round(run.kzgMs / totalMs, 3),
    [`${prefix}.kzgMsPerCheckpoint`]: round(run.kzgMs / count, 1),
    [`${prefix}.clientCpuMsPerCheckpoint`]: round(run.clientCpuMs / count, 1),
    [`${prefix}.serverCpuMsPerCheckpoint`]: round(run.serverCpuMs / count, 1),
  };
  if (run.waitedMs > 0) {
    figures[`${prefix}.retryWaitMsPerCheckpoint`] = round(waitPerCheckpointMs, 0);
    figures[`${prefix}.withoutWaitsCheckpointsPerSecond`] = round((count * 1000) / run.wallMs, 2);
  }
  return figures;
}

async function runCase(
  benchCase: BenchCase,
  env: Environment,
  sets: readonly ShapeSet[],
  servers: ServerChild,
): Promise<{ figures: Record<string, number>; rows: TableRow[] }> {
  const figures: Record<string, number> = {};
  const rows: TableRow[] = [];
  for (const set of sets) {
    const shaped = shapeFigures(
      `${benchCase.name}.${set.shape.name}`,
      set,
      await runShape(benchCase, env, set, servers),
    );
    Object.assign(figures, shaped);
    rows.push(tableRow(benchCase.name, set.shape.name, shaped, `${benchCase.name}.${set.shape.name}`));
  }
  return { figures, rows };
}

/** missThenArchive with the system clock on a few checkpoints: ms per checkpoint, waits slept. */
async function realClockSample(env: Environment, set: ShapeSet): Promise<number> {
  const benchCase = CASES.find((c) => c.name === 'missThenArchive')!;
  const logger = createPinoLogger({ level: 'silent' });
  const chain = createBlobSourceChain({
    blobs: { sources: benchCase.sources(env), checker: createKzgBlobChecker() },
    clock: createSystemClock(),
    logger,
  });
  await chain.getBlobs(set.warmUp[0]!.request, 'historical');
  const sample = set.timed.slice(0, REAL_CLOCK_CHECKPOINTS);
  const started = performance.now();
  for (const checkpoint of sample) await chain.getBlobs(checkpoint.request, 'historical');
  return (performance.now() - started) / sample.length;
}

/** The KZG checker alone on the timed blobs: bare blobs (commitments computed), then with commitments and proofs. */
async function baseline(sets: readonly ShapeSet[]): Promise<{ figures: Record<string, number>; rows: TableRow[] }> {
  const checker = createKzgBlobChecker();
  const figures: Record<string, number> = {};
  const rows: TableRow[] = [];
  for (const set of sets) {
    for (const mode of ['commit', 'verifyProof'] as const) {
      const perCheckpoint: number[] = [];
      for (let repeat = 0; repeat < BASELINE_REPEATS; repeat++) {
        for (const checkpoint of set.timed) {
          const started = performance.now();
          for (const [i, blob] of checkpoint.blobs.entries()) {
            const candidate =
              mode === 'commit'
                ? { blob }
                : {
                    blob,
                    kzgCommitment: bytesToHex(checkpoint.commitments[i]!),
                    kzgProof: bytesToHex(checkpoint.proofs[i]!),
                  };
            if ((await checker.versionedHashOf(candidate)) !== checkpoint.versionedHashes[i])
              throw new Error(`baseline ${mode}: a blob did not check`);
          }
          perCheckpoint.push(performance.now() - started);
        }
      }
      const prefix = `kzgBaseline.${mode}.${set.shape.name}`;
      const totalMs = perCheckpoint.reduce((sum, ms) => sum + ms, 0);
      const sorted = [...perCheckpoint].sort((a, b) => a - b);
      const shaped = {
        [`${prefix}.checkpointsPerSecond`]: round((perCheckpoint.length * 1000) / totalMs, 2),
        [`${prefix}.blobsPerSecond`]: round((perCheckpoint.length * set.shape.blobCount * 1000) / totalMs, 2),
        [`${prefix}.msPerCheckpointP50`]: round(quantile(sorted, 0.5), 1),
        [`${prefix}.msPerCheckpointP99`]: round(quantile(sorted, 0.99), 1),
      };
      Object.assign(figures, shaped);
      rows.push(tableRow(`kzg ${mode} alone`, set.shape.name, shaped, prefix));
    }
  }
  return { figures, rows };
}

type TableRow = readonly string[];
const TABLE_HEADER: TableRow = ['case', 'shape', 'ckpt/s', 'blobs/s', 'p50 ms', 'p99 ms', 'kzg share', 'wait ms'];

function tableRow(name: string, shape: string, figures: Record<string, number>, prefix: string): TableRow {
  const at = (key: string) => figures[`${prefix}.${key}`];
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  return [
    name,
    shape,
    text(at('checkpointsPerSecond')),
    text(at('blobsPerSecond')),
    text(at('msPerCheckpointP50')),
    text(at('msPerCheckpointP99')),
    text(at('kzgShare')),
    text(at('retryWaitMsPerCheckpoint')),
  ];
}

function table(rows: readonly TableRow[]): string {
  const all = [TABLE_HEADER, ...rows];
  const widths = TABLE_HEADER.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  return all.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n');
}

/** Makes the checkpoints, sends them to anvil, and writes them to the local and S3 stores and the archive. */
async function setUpSources(anvil: AnvilInstance, blobDirectory: string, servers: ServerChild) {
  const made = SHAPES.flatMap((shape) =>
    Array.from({ length: WARM_UP_CHECKPOINTS_PER_SHAPE + CHECKPOINTS_PER_SHAPE }, (_, i) => makeCheckpoint(shape, i)),
  );
  const published = await publish(anvil, made);
  const sets: ShapeSet[] = SHAPES.map((shape) => {
    const ofShape = published.filter((c) => c.shape === shape);
    return {
      shape,
      warmUp: ofShape.slice(0, WARM_UP_CHECKPOINTS_PER_SHAPE),
      timed: ofShape.slice(WARM_UP_CHECKPOINTS_PER_SHAPE),
    };
  });
  const verified = published.flatMap((c) => c.blobs.map((blob, i) => ({ versionedHash: c.versionedHashes[i]!, blob })));
  const blocks = published.map((c) => c.request.l1.blockNumber);
  const answer = await servers.ask({
    kind: 'setUp',
    setup: { anvilUrl: anvil.url, blobDirectory, archiveBlobs: verified, sidecarBlocks: blocks, missingBlocks: blocks },
  });
  if (answer.kind !== 'servers') throw new Error(`the servers answered ${answer.kind} to setUp`);
  const fileUrl = pathToFileURL(blobDirectory).href;
  const local = createFileStore(fileUrl);
  const s3 = createFileStore(answer.urls.s3Url, { s3Credentials: answer.urls.s3Credentials });
  for (const { versionedHash, blob } of verified) {
    await local.write(blobPath(STORE_CHAIN, versionedHash), blob);
    await s3.write(blobPath(STORE_CHAIN, versionedHash), blob);
  }
  return { sets, env: { anvilUrl: anvil.url, fileUrl, urls: answer.urls } };
}

export async function benchBlobs(): Promise<BenchResult> {
  const started = performance.now();
  const blobDirectory = await mkdtemp(path.join(os.tmpdir(), 'bench-blobs-'));
  const anvil = await startAnvil();
  const servers = await startServerChild();
  try {
    const { sets, env } = await setUpSources(anvil, blobDirectory, servers);
    const setUpSeconds = (performance.now() - started) / 1000;
    const base = await baseline(sets);
    const figures: Record<string, number | string> = {
      checkpointsPerShape: CHECKPOINTS_PER_SHAPE,
      shapes: SHAPES.map((s) => `${s.name}: ${s.blobCount} blob(s) of a ${s.payloadBytes / 1000} KB payload`).join(
        '; ',
      ),
      urgency: 'historical',
      historicalRetryDelaysMs: BLOB_RETRY_DELAYS_HISTORICAL_MS.join(','),
      loadAverageAtStart: round(os.loadavg()[0]!, 2),
      note:
        `p99 of ${CHECKPOINTS_PER_SHAPE} checkpoints is their slowest; ` +
        'kzgShare is the time in the checker over the wall time; ' +
        'serverCpu is the server process (s3rver, file server, archive, beacon proxies), never anvil; ' +
        'retry waits are recorded, not slept, and added back into the missThenArchive figures',
      ...base.figures,
    };
    const rows = [...base.rows];
    for (const benchCase of CASES) {
      const result = await runCase(benchCase, env, sets, servers);
      Object.assign(figures, result.figures);
      rows.push(...result.rows);
    }
    figures['missThenArchive.blobs1.realClockMsPerCheckpoint'] = round(await realClockSample(env, sets[0]!), 1);
    figures.setUpSeconds = round(setUpSeconds, 1);
    figures.wallSeconds = round((performance.now() - started) / 1000, 1);
    process.stdout.write(`\n${table(rows)}\n\n`);
    return { name: 'blobs', figures };
  } finally {
    await servers.ask({ kind: 'shutdown' }).catch(() => undefined);
    servers.child.kill();
    await anvil.stop();
    await rm(blobDirectory, { recursive: true, force: true });
  }
}
