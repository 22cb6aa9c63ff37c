import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createFileStore, createReadOnlyFileStore } from '../../adapters/fileStore/fileStore.js';
import { startS3Server, type S3Server } from '../helpers/s3Server.js';
import { startStaticFileServer } from '../helpers/staticFileServer.js';
import { describeFileStorePort, describeReadOnlyFileStorePort } from './fileStore.suite.js';

let s3: S3Server;
let bucketCount = 0;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
});

/** A fresh bucket per test, so no test sees another's objects. */
async function freshBucket(): Promise<string> {
  bucketCount += 1;
  return s3.bucket(`contract-${bucketCount}`);
}

async function temporaryDirectory(): Promise<{ directory: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'file-store-contract-'));
  return { directory, remove: () => rm(directory, { recursive: true, force: true }) };
}

describeFileStorePort('file://', async () => {
  const { directory, remove } = await temporaryDirectory();
  return { store: createFileStore(pathToFileURL(join(directory, 'base')).href), cleanup: remove };
});

/** s3rver writes a PUT into the object's file in place; S3 itself keeps racing PUTs whole. */
const s3rverGuarantees = { racingWritesLeaveOneWhole: false };

describeFileStorePort(
  's3:// on s3rver',
  async () => ({
    store: createFileStore(await freshBucket(), { s3Credentials: s3.credentials }),
    cleanup: async () => undefined,
  }),
  s3rverGuarantees,
);

describeFileStorePort(
  's3:// on s3rver, under a prefix',
  async () => ({
    store: createFileStore((await freshBucket()).replace('?', '/node-1/blobs?'), { s3Credentials: s3.credentials }),
    cleanup: async () => undefined,
  }),
  s3rverGuarantees,
);

describeReadOnlyFileStorePort('http:// on a static file server', async () => {
  const { directory, remove } = await temporaryDirectory();
  const server = await startStaticFileServer(directory);
  const writer = createFileStore(pathToFileURL(join(directory, 'public')).href);
  return {
    store: createReadOnlyFileStore(`${server.url}/public/`),
    seed: (path, data) => writer.write(path, data),
    cleanup: async () => {
      await server.stop();
      await remove();
    },
  };
});

describeReadOnlyFileStorePort('http:// on s3rver (path-style object URLs)', async () => {
  const bucketUrl = await freshBucket();
  const writer = createFileStore(bucketUrl.replace('?', '/prefix?'), { s3Credentials: s3.credentials });
  const bucketName = new URL(bucketUrl).hostname;
  return {
    store: createReadOnlyFileStore(`${s3.endpoint}/${bucketName}/prefix`),
    seed: (path, data) => writer.write(path, data),
    cleanup: async () => undefined,
  };
});
