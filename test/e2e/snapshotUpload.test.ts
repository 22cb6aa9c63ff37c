/**
 * svcAdmin_startSnapshotUpload on a running local network (anvil L1, one node that syncs, sequences and proves) to a
 * file:// store: the call answers at once; while the upload runs the node is in UploadingSnapshot with sync paused and
 * a second call is refused; then the store's index lists the snapshot, its data file holds the very block its header
 * names, and the node syncs again; a failed upload leaves the index as it was and the node syncing. The production port is wrapped in a gate so the test sees the upload in progress.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { createFileStoreSnapshots } from '../../adapters/snapshots/fileStoreSnapshots.js';
import { fromStoredJson } from '../../core/chain/serde.js';
import type { SnapshotPort } from '../../core/ports.js';
import type { L2Tips } from '../../spec/chain.js';
import {
  decodeSnapshotEntry,
  parseSnapshotIndex,
  snapshotFolder,
  snapshotHeaderSchema,
} from '../../spec/snapshots/snapshotFormat.js';
import { waitFor } from './rpc.js';

const logger = createPinoLogger({ level: 'silent' });

/** The production port, each upload held until the test releases it. */
function gatedSnapshots(): { port: SnapshotPort; release: () => void; started: Promise<void> } {
  const inner = createFileStoreSnapshots();
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let markStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    port: {
      locationProblem: (location) => inner.locationProblem(location),
      async upload(location, snapshot, onProgress) {
        markStarted();
        await gate;
        return inner.upload(location, snapshot, onProgress);
      },
    },
    release: () => release(),
    started,
  };
}

async function adminCall(url: string, method: string, params: unknown[]) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe('svcAdmin_startSnapshotUpload on a running node', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('answers at once, pauses sync while it uploads, refuses a second call, indexes the snapshot, syncs again', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-snapshot-e2e-'));
    const gated = gatedSnapshots();
    const net: RunningLocalNetwork = await runLocalNetwork({
      port: 0,
      adminPort: 0,
      adminHost: '127.0.0.1',
      adminApiKey: { disabled: true, reset: false },
      logger,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
      print: () => undefined,
      snapshots: gated.port,
    });
    stops.push(() => net.stop());
    const { node } = net;
    // Checkpointed blocks, not proposed ones: on a loaded machine a slot can pass without its checkpoint, and its
    // proposed blocks are then pruned (slotPassedWithoutCheckpoint) before the snapshot is taken.
    await waitFor('two checkpointed blocks', async () => node.chain.tips.checkpointed.block.number >= 2, 60_000);
    await waitFor('the archiver following', async () => node.machineStates().archiver === 'Following', 30_000);

    const location = pathToFileURL(path.join(root, 'store')).href;
    expect(await adminCall(net.adminUrl, 'svcAdmin_startSnapshotUpload', [location])).toMatchObject({ result: null });
    await gated.started;
    expect(node.service.admin.operationalState()).toBe('UploadingSnapshot');
    expect(node.machineStates().archiver).toBe('Paused');
    const second = await adminCall(net.adminUrl, 'svcAdmin_startSnapshotUpload', [location]);
    expect(second.error).toMatchObject({ code: -32007, message: expect.stringMatching(/in progress/) });
    expect((await adminCall(net.adminUrl, 'svcAdmin_pauseSync', [])).error?.code).toBe(-32007);

    const proposedAtRelease = node.chain.tips.proposed.number;
    gated.release();
    await waitFor('sync to resume', async () => node.service.admin.operationalState() === 'Syncing', 30_000);
    await waitFor('the archiver following again', async () => node.machineStates().archiver !== 'Paused', 30_000);

    const folder = path.join(
      root,
      'store',
      ...snapshotFolder({ ...node.constants, rollupAddress: net.rollupAddress }).split('/'),
    );
    const index = parseSnapshotIndex(await readFile(path.join(folder, 'index.json'), 'utf8'));
    expect(index.snapshots).toHaveLength(1);
    const entry = index.snapshots[0]!;
    expect(entry).toMatchObject({
      l1ChainId: node.constants.l1ChainId,
      rollupAddress: net.rollupAddress.toLowerCase(),
    });
    expect(entry.blockNumber).toBeGreaterThanOrEqual(2);
    expect(entry.blockNumber).toBeLessThanOrEqual(proposedAtRelease);
    const [atSnapshot] = await node.service.chain.getBlocks(entry.blockNumber, 1);
    expect(entry.blockHash).toBe(atSnapshot?.block.hash.toLowerCase());

    // The data file's own tips name the block its header names: metadata and entries are of one storage view.
    const lines = gunzipSync(await readFile(path.join(folder, entry.dataFile)))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    expect(snapshotHeaderSchema.parse(JSON.parse(lines[0]!))).toMatchObject({ blockNumber: entry.blockNumber });
    const stored = new Map(lines.slice(1).map((line) => decodeSnapshotEntry(line)));
    expect(stored.size).toBe(entry.entries);
    const tips = fromStoredJson<L2Tips>(stored.get('meta:tips')!);
    expect(tips.proposed).toMatchObject({ number: entry.blockNumber });
    expect([...stored.keys()].some((key) => key.startsWith('txPool:') || key.startsWith('validators:'))).toBe(false);

    // Syncing again: the node's checkpointed tip moves past where it was when the upload ended.
    const checkpointed = node.chain.tips.checkpointed.checkpoint.number;
    await waitFor(
      'a new checkpoint after the upload',
      async () => node.chain.tips.checkpointed.checkpoint.number > checkpointed,
      60_000,
    );

    // A failed upload (the store's index is not one the node may rewrite) leaves that index as it was and the node
    // syncing again.
    const brokenFolder = path.join(root, 'broken', path.relative(path.join(root, 'store'), folder));
    await mkdir(brokenFolder, { recursive: true });
    await writeFile(path.join(brokenFolder, 'index.json'), 'not an index');
    const brokenLocation = pathToFileURL(path.join(root, 'broken')).href;
    expect(await adminCall(net.adminUrl, 'svcAdmin_startSnapshotUpload', [brokenLocation])).toMatchObject({
      result: null,
    });
    await waitFor(
      'sync to resume after the failure',
      async () => node.service.admin.operationalState() === 'Syncing',
      30_000,
    );
    expect(await readFile(path.join(brokenFolder, 'index.json'), 'utf8')).toBe('not an index');
    expect(await readdir(brokenFolder)).toEqual(['index.json']);
    await waitFor('the archiver following again', async () => node.machineStates().archiver !== 'Paused', 30_000);
  });
});
