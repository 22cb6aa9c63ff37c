/**
 * The `s3://bucket/prefix` store on any S3-compatible service (AWS, MinIO, R2, s3rver), through @aws-sdk/client-s3.
 * `?endpoint=` (or AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL) points it at a service other than AWS, with path-style
 * addressing; `?region=` (or AWS_REGION) names the region, us-east-1 by default. Credentials come from the SDK's
 * default chain, never from the URL.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { collectBounded, streamToFileAtomically } from './boundedStreams.js';
import type { FileStore, FileStoreOptions, ReadOptions } from './fileStore.js';
import { FileStoreError, tooLargeError } from './fileStoreError.js';
import {
  FILE_STORE_CONNECT_TIMEOUT_MS,
  FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT,
  FILE_STORE_IDLE_TIMEOUT_MS,
  FILE_STORE_READ_MAX_BYTES_DEFAULT,
  S3_MULTIPART_PARTS_IN_FLIGHT,
  S3_MULTIPART_PARTS_MAX,
  S3_MULTIPART_PART_BYTES_MIN,
  S3_MULTIPART_THRESHOLD_BYTES,
  S3_OBJECT_MAX_BYTES,
  S3_REQUEST_ATTEMPTS_MAX,
} from './fileStoreLimits.js';
import { isUnreachable, networkErrorCode } from './networkErrors.js';
import { objectPathSegments } from './objectPath.js';
import { redactedUrlName } from './storeUrl.js';

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Where the objects are: the bucket, the key prefix (no slashes at either end), the service and its region. */
interface S3Location {
  readonly bucket: string;
  readonly prefix: string;
  readonly endpoint: string | undefined;
  readonly region: string;
}

interface S3Context {
  readonly name: string;
  readonly bucket: string;
  /** Retries requests, so never given a stream body: a retry would send a stream already read. */
  readonly client: S3Client;
  /** Makes one attempt, for streamed uploads; the caller retries with a fresh stream. */
  readonly streamingClient: S3Client;
  readonly keyOf: (path: string) => string;
  readonly multipartThresholdBytes: number;
}

const URL_PARAMETERS = new Set(['endpoint', 'region']);
const DEFAULT_REGION = 'us-east-1';
/** Error names (S3 codes) of an object that does not exist: GetObject's, and HeadObject's bodiless 404. */
const MISSING_OBJECT_NAMES = new Set(['NoSuchKey', 'NotFound']);

export function createS3FileStore(url: URL, options: FileStoreOptions): FileStore {
  const name = redactedUrlName(url);
  const location = s3LocationOf(url, name, options.env ?? process.env);
  const keyOf = (path: string): string =>
    [location.prefix, ...objectPathSegments(name, path)].filter(Boolean).join('/');
  const context: S3Context = {
    name,
    bucket: location.bucket,
    client: createS3Client(location, options, S3_REQUEST_ATTEMPTS_MAX),
    streamingClient: createS3Client(location, options, 1),
    keyOf,
    multipartThresholdBytes: options.s3MultipartThresholdBytes ?? S3_MULTIPART_THRESHOLD_BYTES,
  };
  return {
    name,
    read: async (path, readOptions) => guard(context, 'read', path, () => readS3(context, path, readOptions)),
    exists: async (path) => guard(context, 'look up', path, () => existsS3(context, path)),
    downloadToFile: async (path, localFile, readOptions) =>
      guard(context, 'download', path, () => downloadS3(context, path, localFile, readOptions)),
    write: async (path, data) => guard(context, 'write', path, () => writeS3(context, path, data)),
    uploadFile: async (localFile, path) =>
      guard(context, `upload ${localFile} to`, path, () => uploadS3(context, localFile, path)),
    delete: async (path) =>
      guard(context, 'delete', path, async () => {
        await context.client.send(new DeleteObjectCommand({ Bucket: context.bucket, Key: keyOf(path) }));
      }),
  };
}

function createS3Client(location: S3Location, options: FileStoreOptions, maxAttempts: number): S3Client {
  return new S3Client({
    region: location.region,
    ...(location.endpoint === undefined ? {} : { endpoint: location.endpoint, forcePathStyle: true }),
    ...(options.s3Credentials === undefined ? {} : { credentials: options.s3Credentials }),
    // The SDK's default since 3.729 adds CRC32 checksums, which it sends on a streamed body as an aws-chunked trailer:
    // s3rver then stores the chunk framing as the object's bytes (a 5 MB upload came back 728 bytes longer), and
    // some S3-compatible stores refuse it. Checksums only where the API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts,
    // socketTimeout is an idle bound (no bytes either way for that long), which a long snapshot transfer respects;
    // requestTimeout would bound the whole upload.
    requestHandler: {
      connectionTimeout: options.connectTimeoutMs ?? FILE_STORE_CONNECT_TIMEOUT_MS,
      socketTimeout: options.idleTimeoutMs ?? FILE_STORE_IDLE_TIMEOUT_MS,
    },
  });
}

function s3LocationOf(url: URL, store: string, env: Readonly<Record<string, string | undefined>>): S3Location {
  const bad = (reason: string): FileStoreError =>
    new FileStoreError('FILE_STORE_BAD_URL', `File store ${store}: ${reason}`, { store });
  if (url.username !== '' || url.password !== '') {
    throw bad('credentials do not go in the URL: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or an AWS profile)');
  }
  if (url.hostname === '') throw bad('the URL names no bucket (s3://bucket/prefix)');
  if (url.hash !== '') throw bad('the URL has a fragment');
  const unknown = [...url.searchParams.keys()].filter((key) => !URL_PARAMETERS.has(key));
  if (unknown.length > 0) throw bad(`unknown URL parameters ${unknown.join(', ')} (known: endpoint, region)`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix !== '') prefixSegments(store, prefix, bad);
  const endpoint = url.searchParams.get('endpoint') ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  if (endpoint !== undefined) checkEndpoint(endpoint, bad);
  const region = url.searchParams.get('region') ?? env.AWS_REGION ?? DEFAULT_REGION;
  return { bucket: url.hostname, prefix, endpoint, region };
}

function prefixSegments(store: string, prefix: string, bad: (reason: string) => FileStoreError): void {
  try {
    objectPathSegments(store, prefix);
  } catch (error) {
    throw bad(`the prefix is not a valid path (${error instanceof Error ? error.message : String(error)})`);
  }
}

function checkEndpoint(endpoint: string, bad: (reason: string) => FileStoreError): void {
  const parsed = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw bad('the endpoint is not an http:// or https:// URL');
  }
  if (parsed.username !== '' || parsed.password !== '') throw bad('credentials do not go in the endpoint URL');
}

async function readS3(
  context: S3Context,
  path: string,
  options: ReadOptions | undefined,
): Promise<Uint8Array | undefined> {
  const maxBytes = options?.maxBytes ?? FILE_STORE_READ_MAX_BYTES_DEFAULT;
  const output = await getObject(context, path);
  if (output === undefined) return undefined;
  const body = bodyChunks(context, path, output);
  if ((output.ContentLength ?? 0) > maxBytes) {
    await discard(body);
    throw tooLargeError(context.name, path, maxBytes);
  }
  return collectBounded(body, maxBytes, () => tooLargeError(context.name, path, maxBytes));
}

async function downloadS3(
  context: S3Context,
  path: string,
  localFile: string,
  options: ReadOptions | undefined,
): Promise<boolean> {
  const maxBytes = options?.maxBytes ?? FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT;
  const output = await getObject(context, path);
  if (output === undefined) return false;
  const body = bodyChunks(context, path, output);
  if ((output.ContentLength ?? 0) > maxBytes) {
    await discard(body);
    throw tooLargeError(context.name, path, maxBytes);
  }
  await streamToFileAtomically(body, localFile, maxBytes, () => tooLargeError(context.name, path, maxBytes));
  return true;
}

async function existsS3(context: S3Context, path: string): Promise<boolean> {
  try {
    await context.client.send(new HeadObjectCommand({ Bucket: context.bucket, Key: context.keyOf(path) }));
    return true;
  } catch (error) {
    if (isMissingObject(error)) return false;
    throw error;
  }
}

async function getObject(context: S3Context, path: string): Promise<GetObjectCommandOutput | undefined> {
  try {
    return await context.client.send(new GetObjectCommand({ Bucket: context.bucket, Key: context.keyOf(path) }));
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}

async function writeS3(context: S3Context, path: string, data: Uint8Array): Promise<void> {
  const command = new PutObjectCommand({
    Bucket: context.bucket,
    Key: context.keyOf(path),
    Body: data,
    ContentLength: data.byteLength,
  });
  await context.client.send(command);
}

/** Streams a local file up: one PutObject up to the multipart threshold, a multipart upload above it. */
async function uploadS3(context: S3Context, localFile: string, path: string): Promise<void> {
  const { size } = await stat(localFile);
  if (size > S3_OBJECT_MAX_BYTES) throw tooLargeError(context.name, path, S3_OBJECT_MAX_BYTES);
  if (size > context.multipartThresholdBytes) await uploadS3Multipart(context, localFile, path, size);
  else await uploadS3Whole(context, localFile, path, size);
}

/** A streamed PutObject with its ContentLength known up front, so the SDK signs it whole instead of chunking it. */
async function uploadS3Whole(context: S3Context, localFile: string, path: string, size: number): Promise<void> {
  const body = createReadStream(localFile);
  const command = new PutObjectCommand({
    Bucket: context.bucket,
    Key: context.keyOf(path),
    Body: body,
    ContentLength: size,
  });
  try {
    await context.streamingClient.send(command);
  } finally {
    // A request that failed part way leaves the stream unread, and its file descriptor open.
    body.destroy();
  }
}

/**
 * A multipart upload (@aws-sdk/lib-storage): parts read from the file into buffers, S3_MULTIPART_PARTS_IN_FLIGHT at a
 * time, each retried alone by the retrying client. A failure aborts the upload, so no orphaned parts stay billed, and
 * the object appears only when every part is in.
 */
async function uploadS3Multipart(context: S3Context, localFile: string, path: string, size: number): Promise<void> {
  const body = createReadStream(localFile);
  const upload = new Upload({
    client: context.client,
    params: { Bucket: context.bucket, Key: context.keyOf(path), Body: body },
    partSize: multipartPartBytes(size),
    queueSize: S3_MULTIPART_PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  try {
    await upload.done();
  } finally {
    body.destroy();
  }
}

/** The part size of a `size`-byte upload: S3_MULTIPART_PART_BYTES_MIN, or more to stay within S3's part count. */
export function multipartPartBytes(size: number): number {
  return Math.max(S3_MULTIPART_PART_BYTES_MIN, Math.ceil(size / S3_MULTIPART_PARTS_MAX));
}

/** The body as chunks. In Node the SDK answers a Readable (an IncomingMessage), which is async-iterable. */
function bodyChunks(context: S3Context, path: string, output: GetObjectCommandOutput): AsyncIterable<Uint8Array> {
  const body: unknown = output.Body;
  if (typeof body === 'object' && body !== null && Symbol.asyncIterator in body) {
    return body as AsyncIterable<Uint8Array>;
  }
  throw new FileStoreError('FILE_STORE_FAILED', `File store ${context.name}: ${path} came back with no readable body`, {
    store: context.name,
    path,
  });
}

/** Stops reading a body we refuse, so its connection is closed rather than left draining. */
async function discard(body: AsyncIterable<Uint8Array>): Promise<void> {
  await body[Symbol.asyncIterator]().return?.();
}

function isMissingObject(error: unknown): boolean {
  return error instanceof Error && MISSING_OBJECT_NAMES.has(error.name);
}

async function guard<T>(context: S3Context, action: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw s3Failure(context.name, action, path, error);
  }
}

/**
 * The SDK's error as a FileStoreError. The message carries the S3 error code and HTTP status, never the SDK's own
 * message or request: those are the service's words, and a request holds the signed headers.
 */
function s3Failure(store: string, action: string, path: string, error: unknown): FileStoreError {
  if (error instanceof FileStoreError) return error;
  const details = { store, path, ...statusOf(error) };
  const options = { cause: error };
  if (isUnreachable(error)) {
    const reason = networkErrorCode(error) ?? 'no answer in time';
    return new FileStoreError(
      'FILE_STORE_UNREACHABLE',
      `File store ${store}: could not ${action} ${path}: the store did not answer (${reason})`,
      details,
      options,
    );
  }
  return new FileStoreError(
    'FILE_STORE_FAILED',
    `File store ${store}: could not ${action} ${path}: ${s3Reason(error)}`,
    details,
    options,
  );
}

function s3Reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'CredentialsProviderError') {
    return 'no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or an AWS profile)';
  }
  const status = statusOf(error).status;
  const code = networkErrorCode(error);
  return `${error.name}${status === undefined ? '' : ` (HTTP ${status})`}${code === undefined ? '' : ` (${code})`}`;
}

function statusOf(error: unknown): { status?: number } {
  const metadata = (error as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata;
  return typeof metadata?.httpStatusCode === 'number' ? { status: metadata.httpStatusCode } : {};
}
