/**
 * A new node starts from a snapshot: node A follows the local network from L1 and uploads a snapshot of itself with
 * svcAdmin_startSnapshotUpload to a file:// store and to an S3-compatible one (s3rver);
 * node B starts with --sync-mode snapshot and that store, installs the snapshot, serves the same blocks as the
 * sequencer and syncs the rest from L1; node D does the same from an S3-compatible store. A corrupted snapshot, one
 * of another rollup, and (forced) one older than the node's own data are refused, and those nodes sync from L1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../adapters/fileStore/fileStore.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import type { L1RollupConstants, L2Tips } from '../../spec/chain.js';
import type { ConfigValues } from '../../spec/config/schema.js';
import {
  NODE_DATABASE_SCHEMA_VERSION,
  parseSnapshotIndex,
  snapshotFolder,
  type SnapshotIndexEntry,
} from '../../spec/snapshots/snapshotFormat.js';
import { startS3Server } from '../helpers/s3Server.js';
import { writeSnapshotFixture } from '../helpers/snapshotFixtures.js';
import { capturingLogger, type LogLine } from '../helpers/testLogger.js';
import { rpc, waitFor } from './rpc.js';

const silent = createPinoLogger({ level: 'silent' });
const common = {
  port: 0,
  adminPort: 0,
  adminHost: '127.0.0.1',
  adminApiKey: { disabled: true, reset: false },
} as const;

describe('a new node started from a snapshot of another node', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  const savedEnv = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
    restoreEnv('AWS_ACCESS_KEY_ID', savedEnv.id);
    restoreEnv('AWS_SECRET_ACCESS_KEY', savedEnv.secret);
  });

  it('installs it, serves the same blocks as the sequencer and syncs the rest from L1', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-snapshot-'));
    const net: RunningLocalNetwork = await runLocalNetwork({
      ...common,
      logger: silent,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
      print: () => undefined,
    });
    stops.push(() => net.stop());

    const startFollower = async (name: string, extra: Partial<ConfigValues>, lines?: LogLine[]) => {
      const node: RunningNode = await runNode({
        config: configFromSettings(
          {
            ...common,
            l1RpcUrl: net.l1RpcUrl,
            l1ConsensusHostUrl: net.l1RpcUrl,
            rollupAddress: net.rollupAddress,
            dataDirectory: path.join(root, name),
          },
          extra,
        ),
        logger: lines ? capturingLogger((line) => lines.push(line)) : silent,
        print: () => undefined,
      });
      stops.push(() => node.stop());
      return node;
    };
    const checkpointOf = async (url: string) =>
      (await rpc<L2Tips>(url, 'svc_getChainTips')).checkpointed.checkpoint.number;

    // Node A follows from L1 and uploads a snapshot of itself through the admin API, to a directory and to an
    // S3-compatible store (credentials from the environment, as in production).
    const nodeA = await startFollower('a', {});
    await waitFor('two checkpoints on node A', async () => (await checkpointOf(nodeA.publicUrl)) >= 2, 60_000);
    const constants = await rpc<L1RollupConstants>(nodeA.publicUrl, 'svc_getL1Constants');
    const chain = {
      l1ChainId: constants.l1ChainId,
      rollupVersion: constants.rollupVersion,
      rollupAddress: net.rollupAddress,
      schemaVersion: NODE_DATABASE_SCHEMA_VERSION,
    };
    const s3 = await startS3Server();
    stops.push(() => s3.stop());
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    const bucketUrl = await s3.bucket('snapshots');
    const storeUrl = pathToFileURL(path.join(root, 'store')).href;
    const uploaded = async (url: string) => {
      await rpc(nodeA.adminUrl, 'svcAdmin_startSnapshotUpload', [url]);
      const store = createFileStore(url, { s3Credentials: s3.credentials });
      let listed: SnapshotIndexEntry | undefined;
      await waitFor(
        `node A's snapshot listed in ${url}`,
        async () => {
          const index = await store.read(`${snapshotFolder(chain)}/index.json`);
          listed =
            index === undefined ? undefined : parseSnapshotIndex(Buffer.from(index).toString('utf8')).snapshots.at(-1);
          return listed !== undefined && nodeA.node.service.admin.operationalState() === 'Syncing';
        },
        60_000,
      );
      return listed!;
    };
    const snapshot = await uploaded(storeUrl);
    expect(snapshot.blockNumber).toBeGreaterThan(0);
    await uploaded(bucketUrl);

    // Node B starts from it: the snapshot's blocks are there at once, the same as the sequencer's.
    const linesB: LogLine[] = [];
    const nodeB = await startFollower('b', { syncMode: 'snapshot', snapshotsUrls: [storeUrl] }, linesB);
    expect(linesB.some((line) => line.message.startsWith('installed snapshot'))).toBe(true);
    for (let n = 1; n <= snapshot.blockNumber; n++) {
      const [ours, theirs] = await Promise.all([
        rpc(net.publicUrl, 'svc_getBlockData', [n]),
        rpc(nodeB.publicUrl, 'svc_getBlockData', [n]),
      ]);
      expect(theirs).toEqual(ours);
    }
    const checkpointAtSnapshot = await checkpointOf(nodeB.publicUrl);
    await waitFor(
      'node B to sync past the snapshot from L1',
      async () => (await checkpointOf(nodeB.publicUrl)) >= checkpointAtSnapshot + 1,
      60_000,
    );
    const tipsB = await rpc<L2Tips>(nodeB.publicUrl, 'svc_getChainTips');
    const height = tipsB.checkpointed.block.number;
    const [ours, theirs] = await Promise.all([
      rpc(net.publicUrl, 'svc_getBlockData', [height]),
      rpc(nodeB.publicUrl, 'svc_getBlockData', [height]),
    ]);
    expect(theirs).toEqual(ours);

    // Node D starts from node A's snapshot in the S3-compatible store.
    const linesD: LogLine[] = [];
    const nodeD = await startFollower('d', { syncMode: 'snapshot', snapshotsUrls: [bucketUrl] }, linesD);
    expect(linesD.some((line) => line.message.startsWith('installed snapshot'))).toBe(true);
    expect(await rpc(nodeD.publicUrl, 'svc_getBlockData', [snapshot.blockNumber])).toEqual(
      await rpc(net.publicUrl, 'svc_getBlockData', [snapshot.blockNumber]),
    );
    expect(JSON.stringify(linesD)).not.toContain(s3.credentials.secretAccessKey);

    // Node C is offered a corrupted snapshot: it refuses it and syncs from L1 alone.
    const corruptUrl = pathToFileURL(path.join(root, 'corrupt-store')).href;
    await writeSnapshotFixture(createFileStore(corruptUrl), {
      chain,
      entries: [['meta:tips', '{}']],
      point: { l1BlockNumber: '999999' },
      corruptAfterIndexing: (gzip) => Buffer.concat([gzip.subarray(0, -1), Buffer.from([gzip.at(-1)! ^ 1])]),
    });
    const linesC: LogLine[] = [];
    const nodeC = await startFollower('c', { syncMode: 'snapshot', snapshotsUrls: [corruptUrl] }, linesC);
    expect(linesC.some((line) => /refused snapshot: bad checksum/.test(line.message))).toBe(true);
    await waitFor('node C to sync from L1', async () => (await checkpointOf(nodeC.publicUrl)) >= 1, 60_000);

    // Node E is offered a snapshot of another rollup only: it skips it, says why, and syncs from L1.
    const foreignUrl = pathToFileURL(path.join(root, 'foreign-store')).href;
    await writeSnapshotFixture(createFileStore(foreignUrl), {
      chain: { ...chain, rollupAddress: `0x${'ee'.repeat(20)}` },
      entries: [['meta:tips', '{}']],
    });
    // The foreign snapshot sits in this chain's folder of the store, as a misconfigured uploader would leave it.
    await moveFixtureIndex(foreignUrl, { ...chain, rollupAddress: `0x${'ee'.repeat(20)}` }, chain);
    const linesE: LogLine[] = [];
    const nodeE = await startFollower('e', { syncMode: 'snapshot', snapshotsUrls: [foreignUrl] }, linesE);
    expect(linesE.some((line) => /skipping snapshot .*another rollup/.test(line.message))).toBe(true);
    expect(linesE.some((line) => line.message.startsWith('installed snapshot'))).toBe(false);
    await waitFor('node E to sync from L1', async () => (await checkpointOf(nodeE.publicUrl)) >= 1, 60_000);

    // Node C again, forced to take node A's snapshot, which is older than what C has synced since: refused.
    await waitFor(
      'node C past the snapshot',
      async () => (await checkpointOf(nodeC.publicUrl)) > snapshot.blockNumber,
      60_000,
    );
    await nodeC.stop();
    const linesC2: LogLine[] = [];
    const nodeC2 = await startFollower('c', { syncMode: 'force-snapshot', snapshotsUrls: [storeUrl] }, linesC2);
    expect(linesC2.some((line) => /refused snapshot: older than this node's data/.test(line.message))).toBe(true);
    await checkpointOf(nodeC2.publicUrl);

    // Node B from the snapshot and node A from L1 agree on the tips they share and on the blocks (state roots in
    // their headers) at the checkpointed height.
    await waitFor(
      'nodes A and B on the same checkpointed block',
      async () => {
        const [a, b] = await Promise.all([
          rpc<L2Tips>(nodeA.publicUrl, 'svc_getChainTips'),
          rpc<L2Tips>(nodeB.publicUrl, 'svc_getChainTips'),
        ]);
        return a.checkpointed.block.hash === b.checkpointed.block.hash;
      },
      60_000,
    );
  }, 240_000);
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Moves a fixture's index from the folder of `from` to the folder of `to` in the store at `url`. */
async function moveFixtureIndex(
  url: string,
  from: Parameters<typeof snapshotFolder>[0],
  to: Parameters<typeof snapshotFolder>[0],
): Promise<void> {
  const store = createFileStore(url);
  const index = await store.read(`${snapshotFolder(from)}/index.json`);
  const parsed = parseSnapshotIndex(Buffer.from(index!).toString('utf8'));
  for (const entry of parsed.snapshots) {
    const data = await store.read(`${snapshotFolder(from)}/${entry.dataFile}`);
    await store.write(`${snapshotFolder(to)}/${entry.dataFile}`, data!);
  }
  await store.write(`${snapshotFolder(to)}/index.json`, index!);
}
