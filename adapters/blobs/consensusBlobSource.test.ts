/**
 * The consensus blob source against a real anvil (its beacon routes), directly and through the beacon proxy of
 * test/helpers/beaconProxy.ts. anvil starts at T0 with 12 s between blocks, so block n is at T0 + 12n and its slot is
 * n; it serves no spec, so the source asks it by execution block number (what anvil's routes take).
 */
import { createWalletClient, http, parseGwei, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlobCandidate, BlobRequest, BlobSourcePort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { startBeaconProxy, type BeaconProxy } from '../../test/helpers/beaconProxy.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { findFreePort, startAnvil, type AnvilInstance } from '../l1/anvil.js';
import { blobVersionedHashes, getKzg } from '../l1/kzg.js';
import { createL1PublicClient, rawRequest } from '../l1/l1Rpc.js';
import { BlobSourceError, type BlobSourceErrorCode } from './blobSourceError.js';
import { CONSENSUS_BLOBS_ANSWER_BYTES_MAX, createConsensusBlobSource } from './consensusBlobSource.js';
import { createKzgBlobChecker } from './kzgBlobChecker.js';

// anvil's default dev account 2
const SENDER_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
const T0 = 1_800_000_000n;
const L1_BLOCK_SECONDS = 12n;
const API_KEY = 'k3y-Sup3r-s3cret-value';
const FAKE_HASH: Hex = `0x01${'ab'.repeat(31)}`;

async function expectBlobSourceError(
  promise: Promise<unknown>,
  code: BlobSourceErrorCode,
  message: RegExp,
): Promise<BlobSourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlobSourceError);
  expect((error as BlobSourceError).code).toBe(code);
  expect((error as BlobSourceError).message).toMatch(message);
  return error as BlobSourceError;
}

describe('consensus blob source against anvil', () => {
  let anvil: AnvilInstance;
  let client: PublicClient;
  let proxy: BeaconProxy;
  let blobs: Uint8Array[];
  let hashes: Hex[];
  let request: BlobRequest;
  const checker = createKzgBlobChecker();
  const source = (options: Partial<Parameters<typeof createConsensusBlobSource>[0]> = {}): BlobSourcePort =>
    createConsensusBlobSource({ url: proxy.url, requestTimeoutMs: 2_000, ...options });
  const hashesOf = async (candidates: readonly BlobCandidate[]) =>
    Promise.all(candidates.map((candidate) => checker.versionedHashOf(candidate)));
  const blobRouteRequests = () => proxy.requests.filter((r) => r.url.includes('/blob')).map((r) => r.url);

  const SEND_TIMEOUT_MS = 60_000;

  beforeAll(async () => {
    anvil = await startAnvil({ timestamp: T0 });
    client = createL1PublicClient(anvil.url);
    await rawRequest(client, 'anvil_setBlockTimestampInterval', [Number(L1_BLOCK_SECONDS)]);
    proxy = await startBeaconProxy(anvil.url);
    blobs = [0x01, 0x02].map((seed) => payloadToBlobs(new Uint8Array(50_000).fill(seed))[0]!);
    hashes = blobVersionedHashes(blobs);
    const account = privateKeyToAccount(SENDER_KEY);
    // A liveness bound, not a speed check: anvil verifies the blobs' proofs, and on a loaded 2-core CI machine the
    // call once outlasted viem's 10 s default.
    const wallet = createWalletClient({ account, transport: http(anvil.url, { timeout: SEND_TIMEOUT_MS }) });
    await rawRequest(client, 'anvil_mine', ['0x3']);
    const txHash = await wallet.sendTransaction({
      chain: null,
      to: account.address,
      blobs: blobs.map((blob) => bytesToHex(blob)),
      kzg: getKzg(),
      maxFeePerBlobGas: parseGwei('30'),
    });
    const receipt = await client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 20 });
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.timestamp).toBe(T0 + L1_BLOCK_SECONDS * block.number);
    request = {
      versionedHashes: hashes,
      l1: { blockNumber: block.number, blockHash: block.hash, timestamp: block.timestamp, txHash },
    };
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  beforeEach(() => {
    proxy.reset();
    proxy.requests.length = 0;
  });

  it('finds the blobs of a block by its execution number on a node that serves no spec, saying so once', async () => {
    const lines: LogLine[] = [];
    const direct = createConsensusBlobSource({
      url: anvil.url,
      logger: capturingLogger((l) => lines.push(l)),
    });
    expect(direct.kind).toBe('consensus');
    await direct.check();
    const candidates = await direct.getBlobs(request);
    expect(new Set(await hashesOf(candidates))).toEqual(new Set(hashes));
    expect(candidates.map((c) => bytesToHex(c.blob)).sort()).toEqual(blobs.map((b) => bytesToHex(b)).sort());
    await direct.getBlobs(request);
    expect(lines.filter((l) => l.message.includes('asking it for blobs by execution block number'))).toHaveLength(1);
  });

  it('answers without a blob it lacks, and empty for a slot with no block, settling on the blobs route', async () => {
    const consensus = source();
    const partial = await consensus.getBlobs({ ...request, versionedHashes: [hashes[1]!, FAKE_HASH] });
    expect(await hashesOf(partial)).toEqual([hashes[1]]);
    const future = { ...request, l1: { ...request.l1, blockNumber: request.l1.blockNumber + 1_000n } };
    proxy.requests.length = 0;
    expect(await consensus.getBlobs(future)).toEqual([]);
    expect(blobRouteRequests()).toEqual([expect.stringMatching(/^\/eth\/v1\/beacon\/blobs\/\d+\?/)]);
  });

  it('a fresh source settles the route on a missing slot: blobs 404, then sidecars 410', async () => {
    const consensus = source();
    const slot = request.l1.blockNumber + 1_000n;
    const missing = { ...request, l1: { ...request.l1, blockNumber: slot } };
    expect(await consensus.getBlobs(missing)).toEqual([]);
    expect(await consensus.getBlobs(missing)).toEqual([]);
    expect(blobRouteRequests().map((url) => url.split('?')[0])).toEqual([
      `/eth/v1/beacon/blobs/${slot}`,
      `/eth/v1/beacon/blob_sidecars/${slot}`,
      `/eth/v1/beacon/blobs/${slot}`,
    ]);
  });

  it('a slot both routes answer 404 for is a miss, and settles nothing', async () => {
    const consensus = source();
    proxy.set({ missingSlots: new Set([request.l1.blockNumber]) });
    expect(await consensus.getBlobs(request)).toEqual([]);
    proxy.reset();
    expect(await consensus.getBlobs(request)).toHaveLength(2);
    expect(blobRouteRequests().map((url) => url.split('?')[0])).toEqual([
      `/eth/v1/beacon/blobs/${request.l1.blockNumber}`,
      `/eth/v1/beacon/blob_sidecars/${request.l1.blockNumber}`,
      `/eth/v1/beacon/blobs/${request.l1.blockNumber}`,
    ]);
  });

  it('serves what the proxy leaves out or corrupts as such', async () => {
    proxy.set({ missingBlobs: new Set([hashes[0]!]), corruptBlobs: new Set([hashes[1]!]) });
    const candidates = await source().getBlobs(request);
    expect(candidates).toHaveLength(1);
    const [hash] = await hashesOf(candidates);
    expect(hash).toMatch(/^0x01/);
    expect(hashes).not.toContain(hash);
  });

  it('reads through blob_sidecars from a node without the blobs route, with commitments and proofs', async () => {
    proxy.set({ routes: 'sidecarsOnly' });
    const consensus = source();
    const candidates = await consensus.getBlobs(request);
    expect(candidates.every((c) => c.kzgCommitment !== undefined && c.kzgProof !== undefined)).toBe(true);
    expect(new Set(await hashesOf(candidates))).toEqual(new Set(hashes));
    expect(await hashesOf(await consensus.getBlobs({ ...request, versionedHashes: [hashes[0]!] }))).toEqual([
      hashes[0],
    ]);
    const slot = request.l1.blockNumber;
    expect(blobRouteRequests().map((url) => url.split('?')[0])).toEqual([
      `/eth/v1/beacon/blobs/${slot}`,
      `/eth/v1/beacon/blob_sidecars/${slot}`,
      `/eth/v1/beacon/blob_sidecars/${slot}`,
    ]);
    proxy.set({ corruptBlobs: 'all' });
    expect(await hashesOf(await consensus.getBlobs(request))).toEqual([undefined, undefined]);
    const future = { ...request, l1: { ...request.l1, blockNumber: request.l1.blockNumber + 1_000n } };
    expect(await consensus.getBlobs(future)).toEqual([]);
  });

  it('asks by slot, from the genesis time and the slot length of a served spec', async () => {
    proxy.set({ specSecondsPerSlot: 12 });
    expect(new Set(await hashesOf(await source().getBlobs(request)))).toEqual(new Set(hashes));
    proxy.set({ specSecondsPerSlot: 6 });
    proxy.requests.length = 0;
    await source().getBlobs(request);
    expect(blobRouteRequests()[0]).toMatch(new RegExp(`^/eth/v1/beacon/blobs/${2n * request.l1.blockNumber}\\?`));
  });

  it('sends the API key in the given header, or as the key query parameter, and never shows it', async () => {
    const inHeader = source({ apiKey: API_KEY, apiKeyHeader: 'X-Goog-Api-Key' });
    expect(await inHeader.getBlobs(request)).toHaveLength(2);
    expect(proxy.requests.length).toBeGreaterThan(0);
    for (const recorded of proxy.requests) {
      expect(recorded.headers['x-goog-api-key']).toBe(API_KEY);
      expect(recorded.url).not.toContain(API_KEY);
    }
    proxy.requests.length = 0;
    const inQuery = source({ url: `http://user:passw0rd@${new URL(proxy.url).host}/`, apiKey: API_KEY });
    expect(await inQuery.getBlobs(request)).toHaveLength(2);
    for (const recorded of proxy.requests) {
      expect(new URL(recorded.url, proxy.url).searchParams.get('key')).toBe(API_KEY);
      expect(recorded.headers.authorization).toBe(`Basic ${Buffer.from('user:passw0rd').toString('base64')}`);
    }
    const echo = `Route GET:/eth/v1/beacon/blobs/1?key=${API_KEY} failed for user:passw0rd`;
    proxy.set({ blobAnswer: { status: 500, body: echo } });
    const shown = async (consensus: BlobSourcePort) => {
      expect(consensus.name).toBe(proxy.url);
      const error = await expectBlobSourceError(
        consensus.getBlobs(request),
        'BLOB_SOURCE_HTTP_ERROR',
        /HTTP 500: Route/,
      );
      return `${error.message} ${JSON.stringify(error.details)}`;
    };
    expect(await shown(inHeader)).not.toMatch(/k3y/);
    expect(await shown(inQuery)).not.toMatch(/k3y|passw0rd/);
  });

  it('fails quickly, naming the redacted URL, when nothing listens', async () => {
    const port = await findFreePort();
    const offline = createConsensusBlobSource({
      url: `http://user:passw0rd@127.0.0.1:${port}/?key=${API_KEY}`,
      apiKey: API_KEY,
    });
    expect(offline.name).toBe(`http://127.0.0.1:${port}`);
    const start = performance.now();
    const error = await expectBlobSourceError(
      offline.getBlobs(request),
      'BLOB_SOURCE_UNREACHABLE',
      new RegExp(`^http://127\\.0\\.0\\.1:${port} unreachable`),
    );
    await expectBlobSourceError(offline.check(), 'BLOB_SOURCE_UNREACHABLE', /ECONNREFUSED/);
    expect(performance.now() - start).toBeLessThan(1_000);
    expect(error.message).not.toMatch(/k3y|passw0rd/);
  });

  it('fails, naming the source, when the node is down or hangs', async () => {
    proxy.set({ mode: 'down' });
    await expectBlobSourceError(
      source().check(),
      'BLOB_SOURCE_UNREACHABLE',
      /unreachable \(GET \/eth\/v1\/beacon\/genesis\)/,
    );
    proxy.set({ mode: 'hang' });
    const start = performance.now();
    await expectBlobSourceError(
      source({ requestTimeoutMs: 200 }).getBlobs(request),
      'BLOB_SOURCE_UNREACHABLE',
      /no answer within 200 ms/,
    );
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('fails, without crashing, on truncated JSON, HTML, a huge body or an error status', async () => {
    const consensus = source();
    await consensus.check(); // genesis and slot length are kept: the answers below are the blob routes'
    const cases = [
      [{ status: 200, body: '{"data":["0x0000' }, 'BLOB_SOURCE_BAD_RESPONSE', /not JSON/],
      [{ status: 200, contentType: 'text/html', body: '<html>gateway</html>' }, 'BLOB_SOURCE_BAD_RESPONSE', /not JSON/],
      [{ status: 200, body: '{"data":{"blobs":[]}}' }, 'BLOB_SOURCE_BAD_RESPONSE', /no data list/],
      [{ status: 200, streamBytes: 4 * CONSENSUS_BLOBS_ANSWER_BYTES_MAX }, 'BLOB_SOURCE_BAD_RESPONSE', /more than/],
      [
        { status: 500, body: '{"code":500,"message":"Internal error"}' },
        'BLOB_SOURCE_HTTP_ERROR',
        /HTTP 500: .*Internal/,
      ],
      [{ status: 429, body: '' }, 'BLOB_SOURCE_HTTP_ERROR', /HTTP 429/],
      [{ status: 503, contentType: 'text/html', body: '<html>unavailable</html>' }, 'BLOB_SOURCE_HTTP_ERROR', /503/],
      [{ status: 405, body: '' }, 'BLOB_SOURCE_UNUSABLE', /serves neither .*blobs.* \(HTTP 405\) nor .*blob_sidecars/],
    ] as const;
    for (const [blobAnswer, code, message] of cases) {
      proxy.set({ blobAnswer });
      await expectBlobSourceError(consensus.getBlobs(request), code, message);
    }
  });

  it('drops malformed blobs of an answer and keeps the good ones', async () => {
    const good = bytesToHex(blobs[0]!);
    proxy.set({ blobAnswer: { status: 200, body: JSON.stringify({ data: [good, '0x1234', 42, `${good}00`, null] }) } });
    expect(await hashesOf(await source().getBlobs(request))).toEqual([hashes[0]]);
  });

  it('refuses a block from before its genesis: the node follows another chain', async () => {
    proxy.set({ specSecondsPerSlot: 12 });
    const early = { ...request, l1: { ...request.l1, timestamp: T0 - 1n } };
    await expectBlobSourceError(source().getBlobs(early), 'BLOB_SOURCE_UNUSABLE', /before the genesis time/);
  });
});
