/** Messages between the blob benchmark's orchestrator (bench/blobs/bench.ts) and its server process (serverChild.ts). */
import type { S3Credentials } from '../../adapters/fileStore/fileStore.js';
import type { VerifiedBlob } from '../../core/ports.js';

export interface BlobServersSetup {
  /** anvil's URL: the beacon proxies' upstream. */
  readonly anvilUrl: string;
  /** The directory of the local file store, served read-only over http. */
  readonly blobDirectory: string;
  /** What the archive server holds. */
  readonly archiveBlobs: readonly VerifiedBlob[];
  /** L1 blocks whose sidecars the sidecar proxy computes (and keeps) before the timed runs. */
  readonly sidecarBlocks: readonly bigint[];
  /** L1 blocks the missing-blocks proxy answers 404 for, on both blob routes. */
  readonly missingBlocks: readonly bigint[];
}

export interface BlobServersUrls {
  /** `s3://bench-blobs?endpoint=...&region=...` on s3rver. */
  readonly s3Url: string;
  readonly s3Credentials: S3Credentials;
  /** The static file server over `blobDirectory`. */
  readonly httpUrl: string;
  readonly archiveUrl: string;
  /** A beacon proxy over anvil that serves only the older `blob_sidecars` route, with commitments and proofs. */
  readonly sidecarProxyUrl: string;
  /** A beacon proxy over anvil that answers 404 for the blobs of `missingBlocks`. */
  readonly missingProxyUrl: string;
}

export type ServerChildCommand =
  | { readonly kind: 'setUp'; readonly setup: BlobServersSetup }
  | { readonly kind: 'cpu' }
  | { readonly kind: 'shutdown' };

export type ServerChildMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'servers'; readonly urls: BlobServersUrls }
  /** process.cpuUsage() of the server process, user + system. */
  | { readonly kind: 'cpu'; readonly cpuMicros: number }
  | { readonly kind: 'stopped' };
