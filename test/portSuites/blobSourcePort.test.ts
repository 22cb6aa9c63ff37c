import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createArchiveBlobSource } from '../../adapters/blobs/archiveBlobSource.js';
import { createFileStoreBlobSource, createFileStoreBlobUpload } from '../../adapters/blobs/fileStoreBlobSource.js';
import { createFileStore, createReadOnlyFileStore } from '../../adapters/fileStore/fileStore.js';
import { createScheduler } from '../../sim/scheduler.js';
import { SimBlobStores } from '../../sim/simBlobStores.js';
import type { SimL1 } from '../../sim/simL1.js';
import type { SimL1Link } from '../../sim/l1/link.js';
import { startBlobArchiveServer, type BlobArchiveServer } from '../helpers/blobArchiveServer.js';
import { startS3Server, type S3Server } from '../helpers/s3Server.js';
import { describeBlobSourcePort } from './blobSourcePort.suite.js';

const chain = { l1ChainId: 31337, rollupVersion: 1, rollupAddress: `0x${'ab'.repeat(20)}` as const };

let s3: S3Server;
let archive: BlobArchiveServer;
let buckets = 0;
beforeAll(async () => {
  [s3, archive] = await Promise.all([startS3Server(), startBlobArchiveServer()]);
});
afterAll(async () => {
  await Promise.all([s3.stop(), archive.close()]);
});

describeBlobSourcePort('a file:// store', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'blob-source-contract-'));
  const url = pathToFileURL(directory).href;
  const upload = createFileStoreBlobUpload(createFileStore(url), chain);
  return {
    source: createFileStoreBlobSource(createReadOnlyFileStore(url), chain),
    hold: (blobs) => upload.putBlobs(blobs),
    cleanup: () => rm(directory, { recursive: true, force: true }),
  };
});

describeBlobSourcePort('an s3:// store on s3rver', async () => {
  buckets++;
  const url = await s3.bucket(`blob-contract-${buckets}`);
  const options = { s3Credentials: s3.credentials };
  const upload = createFileStoreBlobUpload(createFileStore(url, options), chain);
  const source = createFileStoreBlobSource(createReadOnlyFileStore(url, options), chain);
  // The health file `check` looks at is written by the upload store's own check.
  await upload.check();
  return { source, hold: (blobs) => upload.putBlobs(blobs) };
});

describeBlobSourcePort('a Blobscan-style archive', async () => {
  archive.reset();
  return { source: createArchiveBlobSource({ url: archive.url }), hold: async (blobs) => archive.put(blobs) };
});

describeBlobSourcePort("the simulator's team file store", async () => {
  const stores = new SimBlobStores({} as SimL1, createScheduler());
  const ports = stores.portsFor('node', { blobSource: { kind: 'consensus', name: 'unused' } } as SimL1Link);
  return { source: ports.sources[1]!, hold: (blobs) => ports.upload!.putBlobs(blobs) };
});
