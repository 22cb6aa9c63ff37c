/**
 * Blob sources on a real L1 (anvil) and real servers on loopback. One local network publishes checkpoints and uploads
 * their blobs to an S3 store (s3rver); followers read blobs through a beacon proxy in front of anvil's beacon routes,
 * from S3, static HTTP and local file stores, and from a Blobscan-style archive, each case taking some sources away.
 * Every follower must sync the sequencer's checkpointed chain from whatever source still has the blobs, and no log
 * line may show a credential of a source.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsensusBlobSource } from '../../adapters/blobs/consensusBlobSource.js';
import { blobPath, createFileStoreBlobUpload, type BlobStoreChain } from '../../adapters/blobs/fileStoreBlobSource.js';
import { createKzgBlobChecker } from '../../adapters/blobs/kzgBlobChecker.js';
import { createFileStore, createReadOnlyFileStore } from '../../adapters/fileStore/fileStore.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import type { BlobSourceStats } from '../../core/blobs/blobSourceChain.js';
import type { VerifiedBlob } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import type { ConfigValues } from '../../spec/config/schema.js';
import { startBeaconProxy, type BeaconProxy } from '../helpers/beaconProxy.js';
import { startBlobArchiveServer } from '../helpers/blobArchiveServer.js';
import { flipBlobBytes } from '../helpers/httpTestServer.js';
import { startRpcProxy } from '../helpers/rpcProxy.js';
import { startS3Server, type S3Server } from '../helpers/s3Server.js';
import { startStaticFileServer } from '../helpers/staticFileServer.js';
import { capturingLogger, type LogLine } from '../helpers/testLogger.js';
import { rpc, waitFor } from './rpc.js';

type WireCheckpoint = {
  number: number;
  blobVersionedHashes: Hex[];
  l1: { blockNumber: string; blockHash: Hex; timestamp: string; txHash: Hex };
};
type WireTips = { checkpointed: { checkpoint: { number: number } } };

/** What every node of this test shares: ports the system picks, the admin port on loopback without an API key. */
const settings = {
  port: 0,
  adminPort: 0,
  adminHost: '127.0.0.1',
  adminApiKey: { disabled: true, reset: false },
} as const;
/** The checkpoints whose blobs the consensus proxies lose in the cases that take them away. */
const LOST_CHECKPOINTS = 3;
/** Credentials of the consensus endpoints and the archive, each sent its own way: no log line may contain them. */
const SECRETS = {
  apiKeyInHeader: 'hdr-key-7f3a9c21e4b8d605',
  apiKeyInQuery: 'qry-key-5d2e8b17a9c4f360',
  passwordInUrl: 'pwd-4c81f0e9b2d7a356',
  archiveKeyInUrl: 'arc-key-93e5a0c7d1f4b628',
} as const;
/**
 * How long a node may take to reach a checkpoint: three 4 s slots at best, but CI runs this file beside others on two
 * CPUs, where the local network's first checkpoints once took longer than 30 s.
 */
const SYNC_TIMEOUT_MS = 60_000;
/** Each case waits for one or two syncs (SYNC_TIMEOUT_MS each, at worst) and starts a node or two. */
const CASE_TIMEOUT_MS = 150_000;

describe('blob sources on a real L1 (anvil) and real stores', { timeout: CASE_TIMEOUT_MS }, () => {
  const stops: (() => Promise<void>)[] = [];
  const lines: (LogLine & { readonly node: string })[] = [];
  const printed: string[] = [];
  const savedEnv = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  let root = '';
  let s3: S3Server;
  let uploadUrl = '';
  let net: RunningLocalNetwork;
  let chain: BlobStoreChain;
  /** The L1 blocks (anvil's beacon slots) of checkpoints 1..LOST_CHECKPOINTS, and their blobs read from anvil. */
  let lost: { slots: Set<bigint>; blobs: VerifiedBlob[] };

  const loggerFor = (node: string) => capturingLogger((line) => lines.push({ ...line, node }));
  const checkpointedOf = async (url: string) =>
    (await rpc<WireTips>(url, 'svc_getChainTips')).checkpointed.checkpoint.number;

  /** A follower (no sequencer, chain in memory) on the local network's L1, with `extra` configuration. */
  const startFollower = async (name: string, extra: Partial<ConfigValues>): Promise<RunningNode> => {
    const follower = await runNode({
      config: configFromSettings(
        { ...settings, l1RpcUrl: net.l1RpcUrl, rollupAddress: net.rollupAddress },
        { blobAllowEmptySources: false, ...extra },
      ),
      logger: loggerFor(name),
      print: (line) => printed.push(line),
    });
    stops.push(() => follower.stop());
    return follower;
  };

  /**
   * The follower reaches `checkpoint` (and so does the sequencing node, whose archiver may be a step behind), and
   * its checkpoints 1..checkpoint and their blocks equal the sequencing node's.
   */
  const syncsSameChain = async (follower: RunningNode, checkpoint: number) => {
    await waitFor(
      `the follower to sync checkpoint ${checkpoint}`,
      async () =>
        (await checkpointedOf(follower.publicUrl)) >= checkpoint && (await checkpointedOf(net.publicUrl)) >= checkpoint,
      SYNC_TIMEOUT_MS,
    );
    const query = [1, checkpoint, { includeBlocks: true }];
    const [ours, theirs] = await Promise.all([
      rpc<unknown[]>(net.publicUrl, 'svc_getCheckpoints', query),
      rpc<unknown[]>(follower.publicUrl, 'svc_getCheckpoints', query),
    ]);
    expect(theirs).toHaveLength(checkpoint);
    expect(theirs).toEqual(ours);
  };

  /** The counts of the follower's one source of `kind`. */
  const statsOf = (follower: RunningNode, kind: BlobSourceStats['kind']) => {
    const found = follower.node.blobSources.stats().filter((s) => s.kind === kind);
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  /** A beacon proxy in front of anvil that answers 404 for the blocks of the lost checkpoints. */
  const proxyLosingEarlyBlobs = async (): Promise<BeaconProxy> => {
    const proxy = await startBeaconProxy(net.l1RpcUrl);
    stops.push(() => proxy.close());
    proxy.set({ missingSlots: lost.slots });
    return proxy;
  };
  /** Requests for the blobs of a lost checkpoint's block: each answered 404. */
  const lostBlobRequests = (proxy: BeaconProxy) =>
    proxy.requests.filter((r) => {
      const slot = /^\/eth\/v1\/beacon\/(?:blobs|blob_sidecars)\/(\d+)/.exec(r.url)?.[1];
      return slot !== undefined && lost.slots.has(BigInt(slot));
    });
  const lostBlobCount = () => lost.blobs.length;
  /** A checkpoint past the lost ones, published by now: a follower that reaches it read the lost ones too. */
  const pastLost = async () => Math.max(LOST_CHECKPOINTS + 1, await checkpointedOf(net.publicUrl));

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-blobs-'));
    s3 = await startS3Server();
    stops.push(() => s3.stop());
    // s3rver's key pair, for the in-process nodes' S3 stores (the AWS SDK's default chain reads the environment).
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    uploadUrl = await s3.bucket('blobs');
    net = await runLocalNetwork({
      config: configFromSettings(
        { ...settings, dataDirectory: path.join(root, 'local') },
        {
          localNetworkL1Port: 0,
          localNetworkSlotDurationSeconds: 4,
          localNetworkL1BlockTimeSeconds: 1,
          blobFileStoreUploadUrl: uploadUrl,
        },
      ),
      logger: loggerFor('sequencer'),
      print: (line) => printed.push(line),
    });
    stops.push(() => net.stop());
    const constants = await rpc<{ l1ChainId: number; rollupVersion: number }>(net.publicUrl, 'svc_getL1Constants');
    chain = {
      l1ChainId: constants.l1ChainId,
      rollupVersion: constants.rollupVersion,
      rollupAddress: net.rollupAddress,
    };
    await waitFor(
      `the local network to publish ${LOST_CHECKPOINTS} checkpoints`,
      async () => (await checkpointedOf(net.publicUrl)) >= LOST_CHECKPOINTS,
      SYNC_TIMEOUT_MS,
    );
    const checkpoints = await rpc<WireCheckpoint[]>(net.publicUrl, 'svc_getCheckpoints', [1, LOST_CHECKPOINTS]);
    lost = {
      slots: new Set(checkpoints.map((c) => BigInt(c.l1.blockNumber))),
      blobs: (await Promise.all(checkpoints.map(blobsOf(net.l1RpcUrl)))).flat(),
    };
  }, CASE_TIMEOUT_MS);

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    restoreEnv('AWS_ACCESS_KEY_ID', savedEnv.id);
    restoreEnv('AWS_SECRET_ACCESS_KEY', savedEnv.secret);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('the sequencing node uploads every blob it publishes to its S3 store', async () => {
    expect(lost.blobs.length).toBeGreaterThanOrEqual(LOST_CHECKPOINTS);
    const store = createReadOnlyFileStore(uploadUrl);
    await waitFor(
      'the published blobs in the S3 store',
      async () => {
        const held = await Promise.all(lost.blobs.map((b) => store.read(blobPath(chain, b.versionedHash))));
        return held.every((blob, i) => blob !== undefined && Buffer.from(blob).equals(lost.blobs[i]!.blob));
      },
      SYNC_TIMEOUT_MS,
    );
    expect(lines.filter((l) => l.message === 'could not copy blobs to the upload store')).toEqual([]);
  });

  it('production path: an L1 that refuses every development method and a consensus API behind a key', async () => {
    const devMethods: string[] = [];
    const l1 = await startRpcProxy(net.l1RpcUrl, {
      refuse: ({ method }) =>
        /^(anvil|evm|hardhat)_/.test(method) ? (devMethods.push(method), `${method} is not served`) : undefined,
    });
    stops.push(() => l1.stop());
    const methods = new Set<string>();
    const l1Watch = await startRpcProxy(l1.url, { onRequest: ({ method }) => methods.add(method) });
    stops.push(() => l1Watch.stop());
    const beacon = await startBeaconProxy(net.l1RpcUrl);
    stops.push(() => beacon.close());
    const follower = await startFollower('production', {
      l1RpcUrls: [l1Watch.url],
      l1ConsensusHostUrls: [beacon.url],
      l1ConsensusHostApiKeys: [SECRETS.apiKeyInHeader],
      l1ConsensusHostApiKeyHeaders: ['x-api-key'],
    });
    await syncsSameChain(follower, await pastLost());
    expect(devMethods).toEqual([]);
    expect(methods).toContain('eth_getLogs');
    expect(beacon.requests.length).toBeGreaterThan(0);
    expect(beacon.requests.every((r) => r.headers['x-api-key'] === SECRETS.apiKeyInHeader)).toBe(true);
    expect(statsOf(follower, 'consensus')).toMatchObject({ failed: 0 });
    expect(statsOf(follower, 'consensus').served).toBeGreaterThanOrEqual(lostBlobCount());
  });

  it('consensus lost some blobs: they come from the S3 store the sequencing node uploaded to', async () => {
    const beacon = await proxyLosingEarlyBlobs();
    const follower = await startFollower('s3', { l1ConsensusHostUrls: [beacon.url], blobFileStoreUrls: [uploadUrl] });
    await syncsSameChain(follower, await pastLost());
    expect(lostBlobRequests(beacon).length).toBeGreaterThanOrEqual(LOST_CHECKPOINTS);
    const consensus = statsOf(follower, 'consensus');
    expect(consensus.missed).toBeGreaterThanOrEqual(lostBlobCount());
    expect(consensus.served).toBeGreaterThan(0);
    expect(statsOf(follower, 'fileStore').served).toBeGreaterThanOrEqual(lostBlobCount());
  });

  it('a file store serving corrupt blobs is skipped for the next one', async () => {
    const corruptDirectory = path.join(root, 'corrupt-store');
    for (const { versionedHash, blob } of lost.blobs) {
      const file = path.join(corruptDirectory, blobPath(chain, versionedHash));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, flipBlobBytes(blob));
    }
    const corrupt = await startStaticFileServer(corruptDirectory);
    stops.push(() => corrupt.stop());
    const goodUrl = `file://${path.join(root, 'good-store')}`;
    await createFileStoreBlobUpload(createFileStore(goodUrl), chain).putBlobs(lost.blobs);
    const beacon = await proxyLosingEarlyBlobs();
    const follower = await startFollower('corrupt', {
      l1ConsensusHostUrls: [beacon.url],
      blobFileStoreUrls: [corrupt.url, goodUrl],
    });
    await syncsSameChain(follower, await pastLost());
    const [bad, good] = follower.node.blobSources.stats().filter((s) => s.kind === 'fileStore');
    expect(bad?.name).toContain(corrupt.url);
    expect(bad).toMatchObject({ served: 0, failed: lostBlobCount() });
    expect(good).toMatchObject({ served: lostBlobCount(), failed: 0 });
    const warnings = lines.filter((l) => l.node === 'corrupt' && l.level === 'warn' && l.fields?.source === bad?.name);
    expect(warnings.map((l) => l.message)).toContain('a blob source served a blob that is not one asked for: skipped');
  });

  it('every source down: the node refuses to start, or with allowEmptySources waits, says why, and resumes', async () => {
    const beacon = await startBeaconProxy(net.l1RpcUrl);
    stops.push(() => beacon.close());
    beacon.set({ mode: 'down' });
    const withPassword = beacon.url.replace('http://', `http://operator:${SECRETS.passwordInUrl}@`);
    const down = { l1ConsensusHostUrls: [withPassword], l1ConsensusHostApiKeys: [SECRETS.apiKeyInQuery] };
    await expect(startFollower('refused', down)).rejects.toThrow(/no blob source answers/);

    const follower = await startFollower('waiting', { ...down, blobAllowEmptySources: true });
    const warnings = () => lines.filter((l) => l.node === 'waiting' && l.level === 'warn');
    expect(warnings().map((l) => l.message)).toContainEqual(expect.stringMatching(/no blob source answers.*anyway/));
    const archiverSaysWhy = () =>
      warnings().some(
        (l) =>
          l.bindings.module === 'archiver' &&
          l.fields?.code === 'L1_BLOBS_UNAVAILABLE' &&
          /^no blob source has blob/.test(String(l.fields.error)),
      );
    await waitFor('the follower to say why it does not sync', async () => archiverSaysWhy(), SYNC_TIMEOUT_MS);
    expect(await checkpointedOf(follower.publicUrl)).toBe(0);

    beacon.set({ mode: 'pass' });
    await syncsSameChain(follower, await checkpointedOf(net.publicUrl));
    const basic = `Basic ${Buffer.from(`operator:${SECRETS.passwordInUrl}`).toString('base64')}`;
    expect(beacon.requests.every((r) => r.headers.authorization === basic)).toBe(true);
    expect(beacon.requests.every((r) => r.url.includes(`key=${SECRETS.apiKeyInQuery}`))).toBe(true);
  });

  it('the archive API is the last resort', async () => {
    const beacon = await proxyLosingEarlyBlobs();
    const archive = await startBlobArchiveServer();
    stops.push(() => archive.close());
    archive.put(lost.blobs);
    const follower = await startFollower('archive', {
      l1ConsensusHostUrls: [beacon.url],
      blobArchiveApiUrl: `${archive.url}/?apikey=${SECRETS.archiveKeyInUrl}`,
    });
    await syncsSameChain(follower, await pastLost());
    expect(lostBlobRequests(beacon).length).toBeGreaterThanOrEqual(LOST_CHECKPOINTS);
    expect(statsOf(follower, 'archive')).toMatchObject({ served: lostBlobCount(), failed: 0 });
    const blobRequests = archive.requests.filter((r) => r.url.startsWith('/blobs/'));
    expect(blobRequests.length).toBe(lostBlobCount());
    expect(blobRequests.every((r) => r.url.endsWith(`?apikey=${SECRETS.archiveKeyInUrl}`))).toBe(true);
  });

  it('no log line or printed line shows a credential', () => {
    expect(lines.length).toBeGreaterThan(0);
    const shown = [...lines.map((l) => JSON.stringify(l, bigints)), ...printed];
    for (const secret of Object.values(SECRETS)) {
      expect(shown.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
});

/** The blobs of a checkpoint, read from the consensus API at `url` and checked against their versioned hashes. */
function blobsOf(url: string) {
  const source = createConsensusBlobSource({ url });
  const checker = createKzgBlobChecker();
  return async (checkpoint: WireCheckpoint): Promise<VerifiedBlob[]> => {
    const { l1 } = checkpoint;
    const candidates = await source.getBlobs({
      versionedHashes: checkpoint.blobVersionedHashes,
      l1: {
        blockNumber: BigInt(l1.blockNumber),
        blockHash: l1.blockHash,
        timestamp: BigInt(l1.timestamp),
        txHash: l1.txHash,
      },
    });
    const blobs = await Promise.all(
      candidates.map(async (candidate) => ({
        versionedHash: await checker.versionedHashOf(candidate),
        blob: candidate.blob,
      })),
    );
    const verified = blobs.filter((b): b is VerifiedBlob => b.versionedHash !== undefined);
    expect(verified.map((b) => b.versionedHash).sort()).toEqual([...checkpoint.blobVersionedHashes].sort());
    return verified;
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
