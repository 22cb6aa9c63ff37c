/**
 * Blobs in file stores (adapters/fileStore/): a team's own blob archive, read when the consensus clients lack a blob
 * (BLOB_FILE_STORE_URLS) and written with every blob the node fetched or published (BLOB_FILE_STORE_UPLOAD_URL).
 *
 * Layout, under the store's URL:
 *
 *   svc-{l1ChainId}-{rollupVersion}-{rollupAddress}/blobs/{versionedHash}.data   the blob's 131,072 raw bytes
 *   svc-{l1ChainId}-{rollupVersion}-{rollupAddress}/.healthcheck                 written by the startup check
 *
 * with the rollup address and the versioned hash as 0x-prefixed lowercase hex. One store can hold the blobs of several
 * chains and rollups side by side. A blob read back is checked against its versioned hash like any other, so a store
 * that serves wrong bytes is skipped, never trusted.
 */
import { randomUUID } from 'node:crypto';
import type { BlobSourcePort, BlobUploadPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import type { FileStore, ReadOnlyFileStore } from '../fileStore/fileStore.js';

/** What the blob folder of a store is keyed by. */
export interface BlobStoreChain {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly rollupAddress: Hex;
}

/** Largest health file read back: it holds an ISO timestamp. */
const HEALTH_FILE_BYTES_MAX = 1024;
/** Read blobs of one checkpoint from a store this many at a time. */
const FILE_STORE_BLOB_READS_PARALLEL_MAX = 6;

/** The folder of a chain's blobs and health file in a store. */
export function blobStoreFolder(chain: BlobStoreChain): string {
  return `svc-${chain.l1ChainId}-${chain.rollupVersion}-${chain.rollupAddress.toLowerCase()}`;
}

/** The file the startup check writes (an upload store) or reads (a read store). */
function healthPath(chain: BlobStoreChain): string {
  return `${blobStoreFolder(chain)}/.healthcheck`;
}

/** Where a blob lives in a store. */
export function blobPath(chain: BlobStoreChain, versionedHash: Hex): string {
  return `${blobStoreFolder(chain)}/blobs/${versionedHash.toLowerCase()}.data`;
}

/** A file store as a blob source: one object per blob, a missing object is a miss. */
export function createFileStoreBlobSource(store: ReadOnlyFileStore, chain: BlobStoreChain): BlobSourcePort {
  return {
    kind: 'fileStore',
    name: store.name,
    async getBlobs(request) {
      const found: Uint8Array[] = [];
      const hashes = [...request.versionedHashes];
      while (hashes.length > 0) {
        const batch = hashes.splice(0, FILE_STORE_BLOB_READS_PARALLEL_MAX);
        const blobs = await Promise.all(
          batch.map((hash) => store.read(blobPath(chain, hash), { maxBytes: BLOB_SIZE_BYTES })),
        );
        for (const blob of blobs) if (blob !== undefined) found.push(blob);
      }
      return found.map((blob) => ({ blob }));
    },
    async check() {
      // A read, not `exists`: S3 answers a HEAD in a missing bucket as a missing object (404 without a body, so
      // without the NoSuchBucket code), and a misspelt bucket would pass. A GET there fails, naming NoSuchBucket.
      await store.read(healthPath(chain), { maxBytes: HEALTH_FILE_BYTES_MAX });
    },
  };
}

/** A writable file store as the node's blob upload store. */
export function createFileStoreBlobUpload(store: FileStore, chain: BlobStoreChain): BlobUploadPort {
  const health = healthPath(chain);
  return {
    name: store.name,
    async putBlobs(blobs) {
      for (const { versionedHash, blob } of blobs) {
        const path = blobPath(chain, versionedHash);
        if (!(await store.exists(path))) await store.write(path, blob);
      }
    },
    async check() {
      // The read-back goes through a file of this check's own: nodes sharing the store may check at the same time.
      const probe = `${health}-${randomUUID()}`;
      const stamp = new TextEncoder().encode(new Date().toISOString());
      await store.write(probe, stamp);
      const back = await store.read(probe, { maxBytes: HEALTH_FILE_BYTES_MAX });
      await store.delete(probe);
      if (back === undefined || Buffer.compare(Buffer.from(back), Buffer.from(stamp)) !== 0)
        throw new Error(`${store.name} did not read back the health file it was written`);
      // What the read stores' check reads: the store holds this chain's folder.
      await store.write(health, stamp);
    },
  };
}
