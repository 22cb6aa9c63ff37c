import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server.js';
import type { Hex } from '../../spec/chain.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import { createFileStore } from '../fileStore/fileStore.js';
import { blobPath, createFileStoreBlobSource, createFileStoreBlobUpload } from './fileStoreBlobSource.js';

const chain = {
  l1ChainId: 31337,
  rollupVersion: 7,
  rollupAddress: '0x00000000000000000000000000000000000000AB',
} as const;
const FOLDER = 'svc-31337-7-0x00000000000000000000000000000000000000ab';
const hashOf = (n: number) => `0x01${n.toString(16).padStart(62, '0')}` as Hex;
const blobOf = (n: number) => new Uint8Array(BLOB_SIZE_BYTES).fill(n);
const l1 = { blockNumber: 1n, blockHash: hashOf(100), timestamp: 12n, txHash: hashOf(101) };

let root: string;
let s3: S3Server;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'blob-file-store-'));
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
  await rm(root, { recursive: true, force: true });
});

describe('blobs in a file store', () => {
  it('live at svc-{l1ChainId}-{rollupVersion}-{rollupAddress}/blobs/{versionedHash}.data, in lowercase', () => {
    expect(blobPath(chain, '0x01ABCD' as Hex)).toBe(`${FOLDER}/blobs/0x01abcd.data`);
  });

  it('are uploaded once each and read back; a blob the store lacks is a miss', async () => {
    const url = `file://${join(root, 'store')}`;
    const upload = createFileStoreBlobUpload(createFileStore(url), chain);
    await upload.check();
    await upload.putBlobs([1, 2].map((n) => ({ versionedHash: hashOf(n), blob: blobOf(n) })));
    // A second copy of blob 1 (other bytes, as a wrong one would be) does not replace the first.
    await upload.putBlobs([{ versionedHash: hashOf(1), blob: blobOf(9) }]);
    expect(await readFile(join(root, 'store', FOLDER, 'blobs', `${hashOf(1)}.data`))).toEqual(Buffer.from(blobOf(1)));

    const source = createFileStoreBlobSource(createFileStore(url), chain);
    await source.check();
    const found = await source.getBlobs({ versionedHashes: [hashOf(1), hashOf(3), hashOf(2)], l1 });
    expect(found.map((c) => c.blob[0])).toEqual([1, 2]);
  });

  it('the startup check passes on an empty store and fails on an S3 bucket that does not exist', async () => {
    const options = { s3Credentials: s3.credentials };
    const empty = createFileStoreBlobSource(createFileStore(await s3.bucket('empty'), options), chain);
    await expect(empty.check()).resolves.toBeUndefined();
    const missingUrl = (await s3.bucket('present')).replace('present', 'absent');
    const missing = createFileStoreBlobSource(createFileStore(missingUrl, options), chain);
    await expect(missing.check()).rejects.toThrow(/NoSuchBucket/);
  });
});
