/**
 * File stores: places named by URL where the node reads and writes blobs (and later snapshot files). `file://` and
 * `s3://` stores are writable; `http://` and `https://` ones are read-only. Every path is relative to the URL's base
 * and checked (adapters/fileStore/objectPath.ts) before any I/O; every failure is a FileStoreError naming the store
 * by its redacted `name`, so a URL's credentials never reach a log.
 */
import { FileStoreError } from './fileStoreError.js';
import { createHttpFileStore } from './httpFileStore.js';
import { createLocalFileStore } from './localFileStore.js';
import { createS3FileStore, type S3Credentials } from './s3FileStore.js';
import { parseStoreUrl } from './storeUrl.js';

export interface ReadOptions {
  /**
   * The largest object to accept, in bytes: by default FILE_STORE_READ_MAX_BYTES_DEFAULT for `read` and
   * FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT for `downloadToFile` (adapters/fileStore/fileStoreLimits.ts).
   */
  readonly maxBytes?: number;
}

export interface ReadOnlyFileStore {
  /**
   * Names the store in logs and errors: the URL with any credential (userinfo, secret query params, signatures)
   * removed.
   */
  readonly name: string;
  /**
   * The object's bytes; undefined when it does not exist. Throws FileStoreError on any other failure. Refuses objects
   * over `maxBytes` (FILE_STORE_TOO_LARGE) without reading them whole.
   */
  read(path: string, options?: ReadOptions): Promise<Uint8Array | undefined>;
  exists(path: string): Promise<boolean>;
  /**
   * Streams the object into a local file (for large snapshot files), replacing it atomically and creating its
   * directory; false when the object does not exist, and then the local file is left as it was.
   */
  downloadToFile(path: string, localFile: string, options?: ReadOptions): Promise<boolean>;
}

export interface FileStore extends ReadOnlyFileStore {
  /** Creates or replaces the object; a reader sees the old bytes or the new, never part of them. */
  write(path: string, data: Uint8Array): Promise<void>;
  /** Streams a local file into the object, without holding it in memory (snapshot files). */
  uploadFile(localFile: string, path: string): Promise<void>;
  /** Removes the object; removing one that does not exist is not an error. */
  delete(path: string): Promise<void>;
}

export interface FileStoreOptions {
  /** How long a remote request may make no progress; default FILE_STORE_IDLE_TIMEOUT_MS. */
  readonly idleTimeoutMs?: number;
  /** How long connecting to a remote store may take; default FILE_STORE_CONNECT_TIMEOUT_MS. */
  readonly connectTimeoutMs?: number;
  /** Where `s3://` stores read AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL and AWS_REGION; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Credentials for `s3://` stores; default the AWS SDK's default chain (AWS_ACCESS_KEY_ID and the rest). */
  readonly s3Credentials?: S3Credentials;
  /** Files larger than this go to `s3://` stores as multipart uploads; default S3_MULTIPART_THRESHOLD_BYTES. */
  readonly s3MultipartThresholdBytes?: number;
}

export type { S3Credentials };

/** A writable store: `file:///absolute/directory` or `s3://bucket/prefix?endpoint=...&region=...`. */
export function createFileStore(url: string, options: FileStoreOptions = {}): FileStore {
  const parsed = parseStoreUrl(url);
  switch (parsed.protocol) {
    case 'file:':
      return createLocalFileStore(parsed);
    case 's3:':
      return createS3FileStore(parsed, options);
    default:
      throw unsupportedScheme(parsed, 'file:, s3:');
  }
}

/** A store to read from: any writable one, or `http://` and `https://` (read-only, e.g. a public bucket's URL). */
export function createReadOnlyFileStore(url: string, options: FileStoreOptions = {}): ReadOnlyFileStore {
  const parsed = parseStoreUrl(url);
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return createHttpFileStore(parsed, options);
  if (parsed.protocol === 'file:' || parsed.protocol === 's3:') return createFileStore(url, options);
  throw unsupportedScheme(parsed, 'file:, s3:, http:, https:');
}

/** Names the store by its scheme alone: the rest of a URL we cannot interpret might be anything, a secret included. */
function unsupportedScheme(url: URL, supported: string): FileStoreError {
  const store = `${url.protocol}…`;
  return new FileStoreError(
    'FILE_STORE_BAD_URL',
    `File store ${store}: the scheme ${url.protocol} is not one this store serves (${supported})`,
    { store },
  );
}
