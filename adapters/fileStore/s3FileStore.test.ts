import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectFileStoreError } from '../../test/helpers/expectFileStoreError.js';
import { closedPort, startRawTcpServer } from '../../test/helpers/rawTcpServer.js';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server.js';
import { createFileStore } from './fileStore.js';
import type { FileStoreError } from './fileStoreError.js';
import { S3_MULTIPART_PARTS_MAX, S3_MULTIPART_PART_BYTES_MIN, S3_OBJECT_MAX_BYTES } from './fileStoreLimits.js';
import { multipartPartBytes } from './s3FileStore.js';

/** A closed port or a silent server must fail within this, retries included, not after the SDK's defaults. */
const UNREACHABLE_WITHIN_MS = 5_000;
const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';

let s3: S3Server;
let bucketUrl: string;
beforeAll(async () => {
  s3 = await startS3Server();
  bucketUrl = await s3.bucket('adapter-tests');
});
afterAll(async () => {
  await s3.stop();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const expectNoSecret = (error: FileStoreError): void => {
  expect(error.message).not.toContain(SECRET);
  expect(JSON.stringify(error.details)).not.toContain(SECRET);
};

describe('the s3:// URL', () => {
  it('is the store name, endpoint and region included', () => {
    const store = createFileStore(`s3://adapter-tests/node-1?endpoint=${s3.endpoint}&region=eu-west-1`);
    expect(store.name).toBe(`s3://adapter-tests/node-1?endpoint=${s3.endpoint}&region=eu-west-1`);
  });

  it('refuses credentials in the URL or in its endpoint, without repeating them', async () => {
    for (const url of [
      `s3://AKIAEXAMPLE:${SECRET}@bucket/prefix`,
      `s3://bucket/prefix?endpoint=http://minio:${SECRET}@127.0.0.1:9000`,
    ]) {
      const error = await expectFileStoreError(
        Promise.resolve().then(() => createFileStore(url)),
        'FILE_STORE_BAD_URL',
      );
      expectNoSecret(error);
      expect(error.message).toMatch(/AWS_ACCESS_KEY_ID|credentials/);
    }
  });

  it('refuses a URL without a bucket, with an unknown parameter, a bad endpoint or a bad prefix', async () => {
    for (const url of [
      's3:///prefix',
      's3://bucket?endpont=http://127.0.0.1:9000',
      's3://bucket?endpoint=ftp://127.0.0.1',
      's3://bucket/a//b',
    ]) {
      await expectFileStoreError(
        Promise.resolve().then(() => createFileStore(url)),
        'FILE_STORE_BAD_URL',
      );
    }
  });

  it('takes the endpoint and region from AWS_ENDPOINT_URL_S3 and AWS_REGION when the URL has none', async () => {
    const env = { AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_REGION: 'us-east-1' };
    const store = createFileStore('s3://adapter-tests/from-env', { env, s3Credentials: s3.credentials });
    await store.write('a.data', new Uint8Array([5]));
    expect(await store.read('a.data')).toEqual(new Uint8Array([5]));
    const unreachableEnv = { AWS_ENDPOINT_URL: `http://127.0.0.1:${await closedPort()}` };
    const byUrl = createFileStore(bucketUrl.replace('?', '/from-env?'), {
      env: unreachableEnv,
      s3Credentials: s3.credentials,
    });
    expect(await byUrl.read('a.data', {})).toEqual(new Uint8Array([5]));
  });
});

describe('the s3:// store', () => {
  it('keeps objects under the URL prefix', async () => {
    const prefixed = createFileStore(bucketUrl.replace('?', '/node-1/blobs?'), { s3Credentials: s3.credentials });
    const whole = createFileStore(bucketUrl, { s3Credentials: s3.credentials });
    await prefixed.write('0x01.data', new Uint8Array([1]));
    expect(await whole.read('node-1/blobs/0x01.data')).toEqual(new Uint8Array([1]));
  });

  it('finds credentials through the SDK default chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', s3.credentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', s3.credentials.secretAccessKey);
    const store = createFileStore(bucketUrl);
    await store.write('default-chain.data', new Uint8Array([7]));
    expect(await store.read('default-chain.data')).toEqual(new Uint8Array([7]));
  });

  it('fails with the S3 error code and HTTP status, never the secret, when the key is refused', async () => {
    const store = createFileStore(bucketUrl, { s3Credentials: { accessKeyId: 'UNKNOWN', secretAccessKey: SECRET } });
    const error = await expectFileStoreError(store.read('a.data'), 'FILE_STORE_FAILED');
    expect(error.message).toContain('InvalidAccessKeyId (HTTP 403)');
    expect(error.details.status).toBe(403);
    expectNoSecret(error);
  });

  it('fails a read in a missing bucket instead of calling the object missing', async () => {
    const store = createFileStore(bucketUrl.replace('adapter-tests', 'no-such-bucket'), {
      s3Credentials: s3.credentials,
    });
    const error = await expectFileStoreError(store.read('a.data'), 'FILE_STORE_FAILED');
    expect(error.message).toContain('NoSuchBucket');
  });

  it('uploads a file over the multipart threshold in parts and reads back the same bytes', async () => {
    const directory = await mkdtemp(join(tmpdir(), 's3-upload-'));
    const file = join(directory, 'big.bin');
    // Two parts and a short last one: S3_MULTIPART_PART_BYTES_MIN * 2 + 1 MiB of bytes that differ along the file.
    const size = S3_MULTIPART_PART_BYTES_MIN * 2 + 1024 * 1024;
    const bytes = Buffer.alloc(size);
    for (let offset = 0; offset < size; offset += 32) {
      createHash('sha256').update(String(offset)).digest().copy(bytes, offset);
    }
    await writeFile(file, bytes);
    const store = createFileStore(bucketUrl, { s3Credentials: s3.credentials, s3MultipartThresholdBytes: 1024 * 1024 });
    await store.uploadFile(file, 'multipart/big.bin');
    const back = join(directory, 'back.bin');
    await store.downloadToFile('multipart/big.bin', back, { maxBytes: size });
    expect(
      createHash('sha256')
        .update(await readFile(back))
        .digest('hex'),
    ).toBe(createHash('sha256').update(bytes).digest('hex'));
    await rm(directory, { recursive: true, force: true });
  });

  it('fails a multipart upload into a missing bucket and leaves no object', async () => {
    const directory = await mkdtemp(join(tmpdir(), 's3-upload-'));
    const file = join(directory, 'big.bin');
    await writeFile(file, Buffer.alloc(3 * 1024 * 1024, 7));
    const missing = bucketUrl.replace('adapter-tests', 'no-such-bucket');
    const store = createFileStore(missing, { s3Credentials: s3.credentials, s3MultipartThresholdBytes: 1024 * 1024 });
    await expectFileStoreError(store.uploadFile(file, 'big.bin'), 'FILE_STORE_FAILED');
    const listed = createFileStore(bucketUrl, { s3Credentials: s3.credentials });
    expect(await listed.exists('big.bin')).toBe(false);
    await rm(directory, { recursive: true, force: true });
  });

  it("refuses to upload a file over S3's largest object before reading it", async () => {
    const directory = await mkdtemp(join(tmpdir(), 's3-upload-'));
    const sparse = join(directory, 'sparse.bin');
    const handle = await open(sparse, 'w');
    await handle.truncate(S3_OBJECT_MAX_BYTES + 1);
    await handle.close();
    const store = createFileStore(bucketUrl, { s3Credentials: s3.credentials });
    await expectFileStoreError(store.uploadFile(sparse, 'huge.bin'), 'FILE_STORE_TOO_LARGE');
    await rm(directory, { recursive: true, force: true });
  });
});

describe('the multipart part size', () => {
  it('is at least the minimum and never needs more parts than S3 takes, for any size up to the largest object', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: S3_OBJECT_MAX_BYTES }), (size) => {
        const part = multipartPartBytes(size);
        expect(part).toBeGreaterThanOrEqual(S3_MULTIPART_PART_BYTES_MIN);
        expect(Math.ceil(size / part)).toBeLessThanOrEqual(S3_MULTIPART_PARTS_MAX);
      }),
    );
  });
});

describe('an unreachable S3 service', () => {
  it('fails as FILE_STORE_UNREACHABLE quickly when nothing listens', async () => {
    const url = `s3://bucket?endpoint=http://127.0.0.1:${await closedPort()}`;
    const store = createFileStore(url, { s3Credentials: s3.credentials });
    const started = performance.now();
    const error = await expectFileStoreError(store.exists('a.data'), 'FILE_STORE_UNREACHABLE');
    expect(performance.now() - started).toBeLessThan(UNREACHABLE_WITHIN_MS);
    expect(error.message).toContain('ECONNREFUSED');
    await expectFileStoreError(store.write('a.data', new Uint8Array([1])), 'FILE_STORE_UNREACHABLE');
  });

  it('fails as FILE_STORE_UNREACHABLE after the idle timeout when the server accepts and never answers', async () => {
    const silent = await startRawTcpServer(() => undefined);
    const store = createFileStore(`s3://bucket?endpoint=${silent.url}`, {
      s3Credentials: s3.credentials,
      idleTimeoutMs: 200,
    });
    const started = performance.now();
    await expectFileStoreError(store.read('a.data'), 'FILE_STORE_UNREACHABLE');
    expect(performance.now() - started).toBeLessThan(UNREACHABLE_WITHIN_MS);
    await silent.stop();
  });
});
