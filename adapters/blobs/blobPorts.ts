/**
 * The production blob ports from the configuration: the consensus endpoints (--l1-consensus-host-urls, with their API
 * keys and headers), the read file stores (BLOB_FILE_STORE_URLS), the upload store (BLOB_FILE_STORE_UPLOAD_URL), the
 * archive API (BLOB_ARCHIVE_API_URL) and the KZG checker. The core asks them in the order of kinds
 * (core/blobs/blobSourceChain.ts); within a kind, in the order configured.
 */
import type { BlobsPort, BlobSourcePort, LoggerPort } from '../../core/ports.js';
import { createFileStore, createReadOnlyFileStore, type FileStoreOptions } from '../fileStore/fileStore.js';
import { createArchiveBlobSource } from './archiveBlobSource.js';
import { createConsensusBlobSource } from './consensusBlobSource.js';
import { createFileStoreBlobSource, createFileStoreBlobUpload, type BlobStoreChain } from './fileStoreBlobSource.js';
import { createKzgBlobChecker } from './kzgBlobChecker.js';

export interface BlobPortsOptions {
  readonly consensusHostUrls: readonly string[];
  /** By position: the API key of each consensus endpoint ('' or absent: none). */
  readonly consensusHostApiKeys?: readonly string[];
  /** By position: the header each key goes in (absent: the `key` query parameter). */
  readonly consensusHostApiKeyHeaders: readonly string[];
  readonly fileStoreUrls: readonly string[];
  readonly fileStoreUploadUrl?: string;
  readonly archiveApiUrl?: string;
  /** What the file stores' blob folder is keyed by. */
  readonly chain: BlobStoreChain;
  readonly logger: LoggerPort;
  /** S3 credentials and environment for the file stores (tests); default the AWS SDK's chain. */
  readonly fileStoreOptions?: FileStoreOptions;
}

export function createBlobPorts(options: BlobPortsOptions): BlobsPort {
  const { chain, logger } = options;
  const keys = options.consensusHostApiKeys ?? [];
  if (keys.length > options.consensusHostUrls.length || options.consensusHostApiKeyHeaders.length > keys.length) {
    throw new Error(
      `there are ${options.consensusHostUrls.length} consensus endpoints, ${keys.length} API keys and ` +
        `${options.consensusHostApiKeyHeaders.length} key headers: give at most one key per endpoint and one header per key, in the same order`,
    );
  }
  const consensus = options.consensusHostUrls.map((url, i) => {
    const apiKey = keys[i] === undefined || keys[i] === '' ? undefined : keys[i];
    const apiKeyHeader = options.consensusHostApiKeyHeaders[i];
    return createConsensusBlobSource({
      url,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(apiKeyHeader !== undefined && apiKeyHeader !== '' ? { apiKeyHeader } : {}),
      logger: logger.child({ source: 'consensus' }),
    });
  });
  // The upload store is read too (it holds what this node copied), unless it is one of the read stores already.
  const readUrls = [...options.fileStoreUrls];
  const uploadUrl = options.fileStoreUploadUrl;
  if (uploadUrl !== undefined && !readUrls.includes(uploadUrl)) readUrls.push(uploadUrl);
  const stores = readUrls.map((url) =>
    createFileStoreBlobSource(createReadOnlyFileStore(url, options.fileStoreOptions), chain),
  );
  const archives: BlobSourcePort[] =
    options.archiveApiUrl === undefined
      ? []
      : [createArchiveBlobSource({ url: options.archiveApiUrl, logger: logger.child({ source: 'archive' }) })];
  const upload =
    options.fileStoreUploadUrl === undefined
      ? undefined
      : createFileStoreBlobUpload(createFileStore(options.fileStoreUploadUrl, options.fileStoreOptions), chain);
  return {
    sources: [...consensus, ...stores, ...archives],
    ...(upload !== undefined ? { upload } : {}),
    checker: createKzgBlobChecker(),
  };
}
