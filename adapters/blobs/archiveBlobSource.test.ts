/** The archive blob source against the Blobscan-style server of test/helpers/blobArchiveServer.ts, on loopback. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlobCandidate, BlobRequest, VerifiedBlob } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { startBlobArchiveServer, type BlobArchiveServer } from '../../test/helpers/blobArchiveServer.js';
import { findFreePort } from '../l1/anvil.js';
import { blobVersionedHashes } from '../l1/kzg.js';
import { ARCHIVE_BLOB_ANSWER_BYTES_MAX, createArchiveBlobSource } from './archiveBlobSource.js';
import { BlobSourceError, type BlobSourceErrorCode } from './blobSourceError.js';
import { createKzgBlobChecker } from './kzgBlobChecker.js';

const FAKE_HASH: Hex = `0x01${'cd'.repeat(31)}`;

async function expectBlobSourceError(promise: Promise<unknown>, code: BlobSourceErrorCode, message: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BlobSourceError);
  expect((error as BlobSourceError).code).toBe(code);
  expect((error as BlobSourceError).message).toMatch(message);
}

describe('archive blob source against a Blobscan-style server', () => {
  let server: BlobArchiveServer;
  let held: VerifiedBlob[];
  let request: BlobRequest;
  const checker = createKzgBlobChecker();
  const hashesOf = (candidates: readonly BlobCandidate[]) =>
    Promise.all(candidates.map((candidate) => checker.versionedHashOf(candidate)));
  const source = (requestTimeoutMs = 2_000) => createArchiveBlobSource({ url: `${server.url}/`, requestTimeoutMs });

  beforeAll(async () => {
    server = await startBlobArchiveServer();
    const blobs = [0x0a, 0x0b].map((seed) => payloadToBlobs(new Uint8Array(40_000).fill(seed))[0]!);
    held = blobVersionedHashes(blobs).map((versionedHash, i) => ({ versionedHash, blob: blobs[i]! }));
    server.put(held);
    request = {
      versionedHashes: held.map((blob) => blob.versionedHash),
      l1: {
        blockNumber: 7n,
        blockHash: `0x${'07'.repeat(32)}`,
        timestamp: 1_800_000_084n,
        txHash: `0x${'70'.repeat(32)}`,
      },
    };
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(() => {
    server.reset();
    server.requests.length = 0;
  });

  it('reads each wanted blob from /blobs/{versionedHash}/data', async () => {
    const archive = source();
    expect(archive.kind).toBe('archive');
    expect(archive.name).toBe(server.url);
    await archive.check();
    const candidates = await archive.getBlobs(request);
    expect(await hashesOf(candidates)).toEqual(request.versionedHashes);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/healthcheck',
      ...request.versionedHashes.map((hash) => `/blobs/${hash}/data`),
    ]);
  });

  it('answers without the blobs it lacks (404), and empty when it lacks them all', async () => {
    const archive = source();
    expect(
      await hashesOf(await archive.getBlobs({ ...request, versionedHashes: [FAKE_HASH, held[1]!.versionedHash] })),
    ).toEqual([held[1]!.versionedHash]);
    server.set({ missingBlobs: 'all' });
    expect(await archive.getBlobs(request)).toEqual([]);
  });

  it('serves a corrupt blob as such: its hash is another', async () => {
    server.set({ corruptBlobs: new Set([held[0]!.versionedHash]) });
    const [first, second] = await hashesOf(await source().getBlobs(request));
    expect(first).not.toBe(held[0]!.versionedHash);
    expect(second).toBe(held[1]!.versionedHash);
  });

  it('drops a blob of the wrong size, keeps asking for the others', async () => {
    server.set({ answer: { status: 200, body: JSON.stringify(`${bytesToHex(held[0]!.blob)}00`) } });
    expect(await source().getBlobs(request)).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('fails, without crashing, on an error status, a non-string answer, HTML or a huge body', async () => {
    const cases = [
      [
        { status: 500, body: '{"message":"Internal server error","code":"INTERNAL_SERVER_ERROR"}' },
        'BLOB_SOURCE_HTTP_ERROR',
        /HTTP 500/,
      ],
      [
        { status: 403, body: '{"message":"This endpoint is disabled.","code":"FORBIDDEN"}' },
        'BLOB_SOURCE_HTTP_ERROR',
        /HTTP 403: .*disabled/,
      ],
      [{ status: 200, body: '{"data":"0x00"}' }, 'BLOB_SOURCE_BAD_RESPONSE', /not a JSON string/],
      [{ status: 200, body: '"0x0000' }, 'BLOB_SOURCE_BAD_RESPONSE', /not JSON/],
      [{ status: 200, contentType: 'text/html', body: '<html></html>' }, 'BLOB_SOURCE_BAD_RESPONSE', /not JSON/],
      [{ status: 200, streamBytes: 8 * ARCHIVE_BLOB_ANSWER_BYTES_MAX }, 'BLOB_SOURCE_BAD_RESPONSE', /more than/],
    ] as const;
    for (const [answer, code, message] of cases) {
      server.set({ answer });
      await expectBlobSourceError(source().getBlobs(request), code, message);
    }
    server.set({ answer: { status: 503, body: 'maintenance' } });
    await expectBlobSourceError(source().check(), 'BLOB_SOURCE_HTTP_ERROR', /GET \/healthcheck with HTTP 503/);
  });

  it('fails quickly when the archive is down, hangs, or nothing listens', async () => {
    server.set({ mode: 'down' });
    await expectBlobSourceError(source().getBlobs(request), 'BLOB_SOURCE_UNREACHABLE', /unreachable \(GET \/blobs\//);
    server.set({ mode: 'hang' });
    const start = performance.now();
    await expectBlobSourceError(source(200).check(), 'BLOB_SOURCE_UNREACHABLE', /no answer within 200 ms/);
    expect(performance.now() - start).toBeLessThan(2_000);
    const offline = createArchiveBlobSource({ url: `http://127.0.0.1:${await findFreePort()}` });
    await expectBlobSourceError(offline.check(), 'BLOB_SOURCE_UNREACHABLE', /ECONNREFUSED/);
  });
});
