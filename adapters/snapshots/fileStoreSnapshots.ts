/**
 * svcAdmin_startSnapshotUpload's destination in production: a writable file store (`file:///directory`, a plain
 * absolute path, or `s3://bucket/prefix`), laid out as spec/snapshots/snapshotFormat.ts says. The data file is
 * streamed as gzip JSON lines into a temporary file (its SHA-256 and size computed on the way, the database never held
 * in memory), uploaded whole, and only then added to the folder's index.json, which file stores replace atomically: a
 * failure at any step leaves the index as it was. Stores are named by their redacted name, never their URL.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import type { SnapshotPort, SnapshotUpload, SnapshotUploadProgress } from '../../core/ports.js';
import {
  EMPTY_SNAPSHOT_INDEX,
  encodeSnapshotEntry,
  parseSnapshotIndex,
  SNAPSHOT_FORMAT_VERSION,
  SNAPSHOT_INDEX_BYTES_MAX,
  SNAPSHOT_LINE_CHARS_MAX,
  snapshotHeaderSchema,
  snapshotDataFileName,
  snapshotFolder,
  withSnapshot,
  type SnapshotHeader,
  type SnapshotIndex,
  type SnapshotIndexEntry,
} from '../../spec/snapshots/snapshotFormat.js';
import { createFileStore, type FileStore, type FileStoreOptions } from '../fileStore/fileStore.js';
import { FileStoreError } from '../fileStore/fileStoreError.js';
import { parseStoreUrl } from '../fileStore/storeUrl.js';

/** Entries between two `writing` progress reports. */
export const SNAPSHOT_PROGRESS_ENTRIES = 100_000;
/** Characters of lines handed to gzip at once. */
const SNAPSHOT_WRITE_CHUNK_CHARS = 256 * 1024;
const INDEX_FILE = 'index.json';
/** The upload's own directory inside an owned temporary directory. */
export const SNAPSHOT_WORK_DIRECTORY = 'snapshot-upload';

export interface FileStoreSnapshotsOptions {
  /** How the stores are reached (s3 credentials, endpoints, timeouts). */
  readonly fileStore?: FileStoreOptions;
  /**
   * A directory this port owns (the node's data directory): data files are written in its `snapshot-upload/`, which
   * is emptied first, so what an upload killed midway left there goes with the next one. Default: a fresh directory
   * under os.tmpdir().
   */
  readonly temporaryDirectory?: string;
}

export function createFileStoreSnapshots(options: FileStoreSnapshotsOptions = {}): SnapshotPort {
  return {
    locationProblem: (location) => locationProblem(location, options.fileStore),
    async upload(location, snapshot, onProgress = () => undefined) {
      // Checked as readers will check it, before any work: an index must never list what they refuse.
      const header = snapshotHeaderSchema.parse({
        format: 'svc-snapshot',
        version: SNAPSHOT_FORMAT_VERSION,
        ...snapshot.chain,
        ...snapshot.point,
      });
      const store = createFileStore(storeUrlOf(location), options.fileStore);
      const folder = snapshotFolder(snapshot.chain);
      // Refused before any work when the index there is not one this node may rewrite.
      const dataFile = snapshotDataFileName(snapshot.point);
      refuseListedDataFile(store, await readIndex(store, `${folder}/${INDEX_FILE}`), `${folder}/${dataFile}`);
      const directory = await workDirectory(options.temporaryDirectory);
      try {
        const localFile = path.join(directory, dataFile);
        const written = await writeDataFile(localFile, header, snapshot.entries, onProgress);
        onProgress({ stage: 'written', entries: written.entries, bytes: written.sizeBytes, dataFile });
        await store.uploadFile(localFile, `${folder}/${dataFile}`);
        onProgress({ stage: 'uploaded', store: store.name, dataFile });
        const entry: SnapshotIndexEntry = { ...snapshot.chain, ...snapshot.point, dataFile, ...written };
        // Read again: another node may have added a snapshot while this one uploaded.
        const index = await readIndex(store, `${folder}/${INDEX_FILE}`);
        await store.write(`${folder}/${INDEX_FILE}`, encodeIndex(withSnapshot(index, entry)));
        onProgress({ stage: 'indexed', store: store.name, indexFile: `${folder}/${INDEX_FILE}` });
        return entry;
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Refuses an upload whose data file name (block and time to the second) an index entry already has: uploading would
 * replace a listed file with one of another SHA-256 (its header's time differs in the milliseconds), and a crash
 * before the index is rewritten would leave the index listing a file that no longer matches it.
 */
function refuseListedDataFile(store: FileStore, index: SnapshotIndex, dataPath: string): void {
  const dataFile = path.posix.basename(dataPath);
  if (!index.snapshots.some((entry) => entry.dataFile === dataFile)) return;
  throw new FileStoreError(
    'FILE_STORE_FAILED',
    `File store ${store.name}: ${dataPath} is already listed (a snapshot of the same block taken in the same second); it was left as it is`,
    { store: store.name, path: dataPath },
  );
}

/** Where one upload writes its data file; removed when it ends. */
async function workDirectory(owned: string | undefined): Promise<string> {
  if (owned === undefined) return mkdtemp(path.join(tmpdir(), 'svc-snapshot-'));
  const directory = path.join(owned, SNAPSHOT_WORK_DIRECTORY);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  return directory;
}

/** A location as a store URL: a plain absolute path is a `file://` one. */
function storeUrlOf(location: string): string {
  return path.isAbsolute(location) ? pathToFileURL(location).href : location;
}

function locationProblem(location: string, options: FileStoreOptions | undefined): string | undefined {
  try {
    const url = parseStoreUrl(storeUrlOf(location));
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      return `${url.protocol}// stores are read-only; snapshots are uploaded to a file:// or s3:// store`;
    }
    if (url.protocol !== 'file:' && url.protocol !== 's3:') {
      return `the scheme ${url.protocol} is not a store snapshots are uploaded to (file://, s3://, or an absolute path)`;
    }
    createFileStore(url.href, options);
    return undefined;
  } catch (error) {
    // FileStoreError messages name the store by its redacted name; anything else is not shown (it may echo the URL).
    return error instanceof FileStoreError ? error.shortMessage : 'the location is not a usable store URL';
  }
}

/** The folder's index, or the empty one when there is none; refuses (and so never overwrites) one it cannot parse. */
async function readIndex(store: FileStore, indexPath: string): Promise<SnapshotIndex> {
  const bytes = await store.read(indexPath, { maxBytes: SNAPSHOT_INDEX_BYTES_MAX });
  if (bytes === undefined) return EMPTY_SNAPSHOT_INDEX;
  try {
    return parseSnapshotIndex(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new FileStoreError(
      'FILE_STORE_FAILED',
      `File store ${store.name}: ${indexPath} is not a snapshot index (${reason}); it was left as it is, move it away to start a new one`,
      { store: store.name, path: indexPath },
      { cause: error },
    );
  }
}

function encodeIndex(index: SnapshotIndex): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(index, null, 2)}\n`);
}

/** Writes the gzip data file; answers its SHA-256, size and entry count. */
async function writeDataFile(
  localFile: string,
  header: SnapshotHeader,
  snapshotEntries: SnapshotUpload['entries'],
  onProgress: (progress: SnapshotUploadProgress) => void,
): Promise<{ sha256: string; sizeBytes: number; entries: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  let entries = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      callback(null, chunk);
    },
  });
  /** The file's lines, joined into chunks of about SNAPSHOT_WRITE_CHUNK_CHARS: a stream chunk per line is slow. */
  async function* chunks(): AsyncIterable<string> {
    let chunk = `${JSON.stringify(header)}\n`;
    for await (const [key, value] of snapshotEntries) {
      const line = encodeSnapshotEntry(key, value);
      if (line.length > SNAPSHOT_LINE_CHARS_MAX) {
        throw new Error(`the entry ${JSON.stringify(key.slice(0, 80))} is over ${SNAPSHOT_LINE_CHARS_MAX} characters`);
      }
      chunk += `${line}\n`;
      entries++;
      if (entries % SNAPSHOT_PROGRESS_ENTRIES === 0) onProgress({ stage: 'writing', entries, bytes: sizeBytes });
      if (chunk.length >= SNAPSHOT_WRITE_CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  }
  await pipeline(Readable.from(chunks()), createGzip(), measure, createWriteStream(localFile, { flags: 'wx' }));
  return { sha256: `0x${hash.digest('hex')}`, sizeBytes, entries };
}
