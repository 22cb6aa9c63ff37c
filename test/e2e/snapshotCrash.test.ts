/**
 * Issue 16: a crash (kill -9) at any moment of a snapshot upload or download leaves a node that starts cleanly and a
 * store whose index lists only complete snapshots. Nodes run as child processes (`svc start --node`) so that SIGKILL
 * is a real crash: a follower is killed at several moments of svcAdmin_startSnapshotUpload, then restarted on the same
 * data directory; fresh nodes are killed at several moments of installing that store's snapshot
 * (`--sync-mode snapshot`), then restarted and compared block by block with the sequencer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, watch } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { SNAPSHOT_WORK_DIRECTORY } from '../../adapters/snapshots/fileStoreSnapshots.js';
import { SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX } from '../../adapters/snapshots/snapshotSync.js';
import type { L1RollupConstants, L2Tips } from '../../spec/chain.js';
import {
  parseSnapshotIndex,
  snapshotFolder,
  type SnapshotIndex,
  type SnapshotIndexEntry,
} from '../../spec/snapshots/snapshotFormat.js';
import { rpc, waitFor } from './rpc.js';
import { collectLines } from '../helpers/streamLines.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

/** The levels of lines a kill must not cause. */
const PROBLEM_LEVELS = new Set(['warn', 'error', 'fatal']);
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * Milliseconds after the upload's work directory appears at which the uploading node is killed. A test snapshot is
 * small: its upload takes a few milliseconds, so these cover writing, uploading and indexing.
 */
const UPLOAD_KILL_DELAYS_MS = [0, 3, 15] as const;
/** Milliseconds after the download directory appears at which an installing node is killed (-1: at once on spawn). */
const DOWNLOAD_KILL_DELAYS_MS = [-1, 0, 5, 25, 100] as const;
/**
 * How long a node may take to show progress (serve JSON-RPC, reach the moment it is to be killed at, answer, list an
 * upload, sync on) before the test gives up on it. A liveness bound, not a speed check: loading the node's modules
 * takes about 2 s of CPU even prebuilt (4 to 5 s through tsx), and the download part starts ten such processes within
 * seconds (five, then each again after its kill), on 2 cores shared with another test file in CI. With 30 s, a node
 * that was only waiting for CPU (not one line printed yet) failed the test as if it had hung.
 */
const NODE_PROGRESS_TIMEOUT_MS = 120_000;

/** A `svc start --node` child process and what it printed. */
interface NodeProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Log messages (pino's `msg`) at warn level or above, each with its level. */
  readonly problems: () => string[];
  readonly messages: () => string[];
  /** Resolves with the public and admin URLs once it serves JSON-RPC; rejects if it exits first. */
  readonly serving: Promise<{ publicUrl: string; adminUrl: string }>;
  readonly exited: Promise<void>;
  kill(): Promise<void>;
}

describe('a crash at any moment of a snapshot upload or download', () => {
  const children: NodeProcess[] = [];
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    await Promise.all(children.map((child) => child.kill()));
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  // 600 s: a passing run takes about 135 s in CI; at a load average of 20 to 30 on 2 cores, about 460 s.
  it('leaves an index of complete snapshots and nodes that start cleanly', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-snapshot-crash-'));
    const net: RunningLocalNetwork = await runLocalNetwork({
      port: 0,
      adminPort: 0,
      adminHost: '127.0.0.1',
      adminApiKey: { disabled: true, reset: false },
      logger: createPinoLogger({ level: 'silent' }),
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
      print: () => undefined,
    });
    stops.push(() => net.stop());
    const checkpointOf = async (url: string) =>
      (await rpc<L2Tips>(url, 'svc_getChainTips')).checkpointed.checkpoint.number;
    await waitFor('two checkpoints', async () => (await checkpointOf(net.publicUrl)) >= 2, NODE_PROGRESS_TIMEOUT_MS);

    const constants = await rpc<L1RollupConstants>(net.publicUrl, 'svc_getL1Constants');
    const storeDirectory = path.join(root, 'store');
    const storeUrl = pathToFileURL(storeDirectory).href;
    const indexFile = path.join(
      storeDirectory,
      snapshotFolder({ ...constants, rollupAddress: net.rollupAddress }),
      'index.json',
    );
    const start = (dataDirectory: string, extra: string[] = []): NodeProcess => {
      const node = startNode([
        ...['--l1-rpc-urls', net.l1RpcUrl, '--l1-consensus-host-urls', net.l1RpcUrl],
        ...['--rollup-address', net.rollupAddress, '--data-directory', dataDirectory],
        ...['--port', '0', '--admin-port', '0', '--disable-admin-api-key', '--log-level', 'info'],
        ...extra,
      ]);
      children.push(node);
      return node;
    };
    const startCleanly = async (dataDirectory: string, extra: string[] = []) => {
      const node = start(dataDirectory, extra);
      const urls = await node.serving;
      await waitFor(
        'the node to answer',
        async () => (await checkpointOf(urls.publicUrl)) >= 0,
        NODE_PROGRESS_TIMEOUT_MS,
      );
      expect(node.problems(), node.lines.join('\n')).toEqual([]);
      return { node, ...urls };
    };

    // Upload: a follower is killed at several moments of an upload; each time the index lists only complete data
    // files, and the node restarted on the same data directory syncs on and completes a new upload.
    const followerDirectory = path.join(root, 'follower');
    let follower = await startCleanly(followerDirectory);
    /** The index as text: it changes when an upload is listed (an entry of the same data file name is replaced). */
    const indexText = async () => JSON.stringify((await readIndex(indexFile)) ?? null);
    const uploadListed = async (adminUrl: string) => {
      const before = await indexText();
      await rpc(adminUrl, 'svcAdmin_startSnapshotUpload', [storeUrl]);
      await waitFor('the upload to be listed', async () => (await indexText()) !== before, NODE_PROGRESS_TIMEOUT_MS);
    };
    const killMoments: (() => Promise<void>)[] = [
      ...UPLOAD_KILL_DELAYS_MS.map((delayMs) => async () => {
        const killed = killWhenCreated(follower.node, followerDirectory, SNAPSHOT_WORK_DIRECTORY, delayMs);
        await rpc(follower.adminUrl, 'svcAdmin_startSnapshotUpload', [storeUrl]);
        await killed;
      }),
      // Just after the index lists the new snapshot.
      () => uploadListed(follower.adminUrl),
    ];
    await waitFor(
      'the follower to sync a checkpoint',
      async () => (await checkpointOf(follower.publicUrl)) >= 1,
      NODE_PROGRESS_TIMEOUT_MS,
    );
    for (const killAtMoment of killMoments) {
      // A data file is named by block and second: an upload in the same second as the last is refused.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await killAtMoment();
      await follower.node.kill();
      await expectCompleteSnapshotsListed(indexFile);
      follower = await startCleanly(followerDirectory);
      const target = await checkpointOf(net.publicUrl);
      await waitFor(
        'the restarted follower to sync on',
        async () => (await checkpointOf(follower.publicUrl)) >= target,
        NODE_PROGRESS_TIMEOUT_MS,
      );
      await uploadListed(follower.adminUrl);
      await expectCompleteSnapshotsListed(indexFile);
    }
    await follower.node.kill();
    const snapshot = (await readIndex(indexFile))!.snapshots.at(-1)!;
    expect(snapshot.blockNumber).toBeGreaterThan(0);

    // Download: fresh nodes are killed at several moments of installing that snapshot, all at once; each restarted
    // on its data directory starts cleanly, leaves no download directory and serves the sequencer's blocks.
    const downloadArgs = ['--sync-mode', 'snapshot', '--snapshots-urls', storeUrl];
    await Promise.all(
      DOWNLOAD_KILL_DELAYS_MS.map(async (delayMs, index) => {
        const dataDirectory = path.join(root, `download-${index}`);
        await mkdir(dataDirectory);
        const node = start(dataDirectory, downloadArgs);
        await (delayMs < 0
          ? node.kill()
          : killWhenCreated(node, dataDirectory, SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX, delayMs));
        const restarted = await startCleanly(dataDirectory, downloadArgs);
        const leftovers = (await readdir(dataDirectory)).filter((name) =>
          name.startsWith(SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX),
        );
        expect(leftovers).toEqual([]);
        for (let n = 1; n <= snapshot.blockNumber; n++) {
          const ours = await rpcRetried(net.publicUrl, 'svc_getBlockData', [n]);
          const theirs = await rpcRetried(restarted.publicUrl, 'svc_getBlockData', [n]);
          expect(theirs, `block ${n} after a kill ${delayMs} ms into the install`).toEqual(ours);
        }
        await restarted.node.kill();
      }),
    );
  }, 600_000);
});

async function readIndex(indexFile: string): Promise<SnapshotIndex | undefined> {
  let text: string;
  try {
    text = await readFile(indexFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseSnapshotIndex(text);
}

/** The index is absent or parses, and each data file it lists is there with the listed size and SHA-256. */
async function expectCompleteSnapshotsListed(indexFile: string): Promise<void> {
  const index = await readIndex(indexFile);
  for (const entry of index?.snapshots ?? []) await expectComplete(path.dirname(indexFile), entry);
}

async function expectComplete(folder: string, entry: SnapshotIndexEntry): Promise<void> {
  const file = path.join(folder, entry.dataFile);
  const bytes = await readFile(file);
  expect((await stat(file)).size, entry.dataFile).toBe(entry.sizeBytes);
  expect(`0x${createHash('sha256').update(bytes).digest('hex')}`, entry.dataFile).toBe(entry.sha256.toLowerCase());
}

function startNode(args: string[]): NodeProcess {
  const child = spawn(process.execPath, svcNodeArgs('start', '--node', ...args), {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const parsed = () =>
    lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as { level?: string; msg?: string }];
      } catch {
        return [];
      }
    });
  const serving = new Promise<{ publicUrl: string; adminUrl: string }>((resolve, reject) => {
    let publicUrl: string | undefined;
    collectLines(child.stdout, (line) => {
      lines.push(line);
      publicUrl ??= /^public JSON-RPC: (\S+)/.exec(line)?.[1];
      const adminUrl = /^admin JSON-RPC: (\S+)/.exec(line)?.[1];
      if (publicUrl !== undefined && adminUrl !== undefined) resolve({ publicUrl, adminUrl });
    });
    collectLines(child.stderr, (line) => lines.push(line));
    void exited.then(() => reject(new Error(`the node exited before serving JSON-RPC:\n${lines.join('\n')}`)));
    const timedOut = () =>
      `the node did not serve JSON-RPC within ${NODE_PROGRESS_TIMEOUT_MS} ms (load average ${loadAverage()}, ` +
      `${lines.length} lines printed):\n${lines.join('\n')}`;
    setTimeout(() => reject(new Error(timedOut())), NODE_PROGRESS_TIMEOUT_MS);
  });
  serving.catch(() => undefined);
  return {
    child,
    lines,
    // The node's JSON lines carry the level as its label (adapters/logger/pinoLogger.ts).
    problems: () =>
      parsed().flatMap((line) => (PROBLEM_LEVELS.has(line.level ?? '') ? [`${line.level}: ${line.msg ?? ''}`] : [])),
    messages: () => parsed().flatMap((line) => (line.msg !== undefined ? [line.msg] : [])),
    serving,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Kills `node` `delayMs` after an entry named `prefix...` appears in `directory` (inotify: within the millisecond),
 * or at once if it exits first or nothing appears within NODE_PROGRESS_TIMEOUT_MS.
 */
async function killWhenCreated(node: NodeProcess, directory: string, prefix: string, delayMs: number): Promise<void> {
  const stopWatching = new AbortController();
  const deadline = setTimeout(() => void node.kill(), NODE_PROGRESS_TIMEOUT_MS);
  try {
    const appeared = (async () => {
      for await (const event of watch(directory, { signal: stopWatching.signal })) {
        if (event.filename?.startsWith(prefix)) return;
      }
    })().catch(() => undefined);
    await Promise.race([appeared, node.exited]);
    if (delayMs === 0) node.child.kill('SIGKILL');
    else await new Promise((resolve) => setTimeout(resolve, delayMs));
    await node.kill();
  } finally {
    clearTimeout(deadline);
    stopWatching.abort();
  }
}

/** The machine's load over the last minute, for messages that may be about a starved process rather than a hung one. */
const loadAverage = (): string => os.loadavg()[0]!.toFixed(1);

/** rpc, tried again once after a connection reset (a kept-alive connection the server had just closed). */
async function rpcRetried(url: string, method: string, params: unknown[]): Promise<unknown> {
  try {
    return await rpc(url, method, params);
  } catch {
    return rpc(url, method, params);
  }
}
