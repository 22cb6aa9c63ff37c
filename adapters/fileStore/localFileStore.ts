/** The `file:///absolute/directory` store: objects are files under the directory, written atomically. */
import { copyFile, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectBounded, isTemporaryName, replaceFileAtomically } from './boundedStreams.js';
import type { FileStore, ReadOptions } from './fileStore.js';
import { FileStoreError, tooLargeError } from './fileStoreError.js';
import {
  FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT,
  FILE_STORE_READ_MAX_BYTES_DEFAULT,
  LOCAL_STORE_STALE_TEMPORARY_MS,
} from './fileStoreLimits.js';
import { objectPathSegments } from './objectPath.js';
import { redactedUrlName } from './storeUrl.js';

/** Errno codes meaning "no such object": the file is missing, or a segment of its path is a file, not a directory. */
const MISSING_ERRNO_CODES = new Set(['ENOENT', 'ENOTDIR']);

export function createLocalFileStore(url: URL): FileStore {
  const name = redactedUrlName(url);
  const directory = baseDirectoryOf(url, name);
  const fileOf = (path: string): string => join(directory, ...objectPathSegments(name, path));
  const guard = <T>(action: string, path: string, run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      throw localFailure(name, action, path, error);
    });
  return {
    name,
    read: async (path, options) => guard('read', path, () => readLocal(name, path, fileOf(path), options)),
    exists: async (path) => guard('look up', path, async () => (await fileSize(fileOf(path))) !== undefined),
    downloadToFile: async (path, localFile, options) =>
      guard('download', path, () => copyLocal(name, path, fileOf(path), localFile, options)),
    write: async (path, data) =>
      guard('write', path, () => replaceFileAtomically(fileOf(path), (temp) => writeFile(temp, data))),
    uploadFile: async (localFile, path) =>
      guard(`upload ${localFile} to`, path, async () => {
        await removeStaleTemporaries(dirname(fileOf(path)));
        await replaceFileAtomically(fileOf(path), (temp) => copyFile(localFile, temp));
      }),
    delete: async (path) => guard('delete', path, () => deleteLocal(fileOf(path))),
  };
}

/**
 * Removes the temporary files of atomic writes in `directory` that nothing has written to for
 * LOCAL_STORE_STALE_TEMPORARY_MS: left by a writer that was killed (a snapshot's copy can be gigabytes). Done before
 * each file upload (rare, and into few directories), never before a blob write (a blob directory is huge).
 */
async function removeStaleTemporaries(directory: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names.filter(isTemporaryName)) {
    const file = join(directory, name);
    const stats = await stat(file).catch(() => undefined);
    if (stats !== undefined && Date.now() - stats.mtimeMs > LOCAL_STORE_STALE_TEMPORARY_MS) {
      await rm(file, { force: true });
    }
  }
}

/** The directory a `file:` URL names: an absolute local path, so the host must be empty and there is no query. */
function baseDirectoryOf(url: URL, store: string): string {
  if (url.host !== '' || url.search !== '' || url.hash !== '') {
    throw new FileStoreError(
      'FILE_STORE_BAD_URL',
      `File store ${store}: a file store URL is file:///absolute/directory, with no host, query or fragment`,
      { store },
    );
  }
  return fileURLToPath(url).replace(/\/+$/, '') || '/';
}

async function readLocal(
  store: string,
  path: string,
  file: string,
  options: ReadOptions | undefined,
): Promise<Uint8Array | undefined> {
  const maxBytes = options?.maxBytes ?? FILE_STORE_READ_MAX_BYTES_DEFAULT;
  const handle = await open(file, 'r').catch(undefinedWhenMissing);
  if (handle === undefined) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    if (stats.size > maxBytes) throw tooLargeError(store, path, maxBytes);
    // Bounded again while reading: the file may grow between the stat and the read.
    return await collectBounded(handle.createReadStream({ autoClose: false }), maxBytes, () =>
      tooLargeError(store, path, maxBytes),
    );
  } finally {
    await handle.close();
  }
}

async function copyLocal(
  store: string,
  path: string,
  file: string,
  localFile: string,
  options: ReadOptions | undefined,
): Promise<boolean> {
  const maxBytes = options?.maxBytes ?? FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT;
  const size = await fileSize(file);
  if (size === undefined) return false;
  if (size > maxBytes) throw tooLargeError(store, path, maxBytes);
  await replaceFileAtomically(localFile, (temp) => copyFile(file, temp));
  return true;
}

/** Removes the file; a missing file, or a directory (which is not an object), is left as it is. */
async function deleteLocal(file: string): Promise<void> {
  if ((await fileSize(file)) !== undefined) await rm(file, { force: true });
}

/** The size of a regular file; undefined when there is none (a directory is not an object). */
async function fileSize(file: string): Promise<number | undefined> {
  const stats = await stat(file).catch(undefinedWhenMissing);
  return stats?.isFile() ? stats.size : undefined;
}

function undefinedWhenMissing(error: unknown): undefined {
  if (MISSING_ERRNO_CODES.has(errnoOf(error) ?? '')) return undefined;
  throw error;
}

const errnoOf = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

function localFailure(store: string, action: string, path: string, error: unknown): FileStoreError {
  if (error instanceof FileStoreError) return error;
  const reason = errnoOf(error) ?? (error instanceof Error ? error.message : String(error));
  return new FileStoreError(
    'FILE_STORE_FAILED',
    `File store ${store}: could not ${action} ${path} (${reason})`,
    { store, path },
    { cause: error },
  );
}
