/**
 * Starting a node from a snapshot (docs/running.md, "Starting from a snapshot"), run by adapters/node/runNode.ts
 * before the node's database is opened. It reads the index of every snapshot store, picks the newest snapshot of this
 * node's chain, rollup and database schema, downloads its data file into `<data directory>/snapshot-download-<random>`,
 * checks it (adapters/snapshots/snapshotRestore.ts), writes a new database beside it and renames that into
 * `<data directory>/node-db`. A refused or failed snapshot is logged and the node syncs from L1 as without one; the
 * temporary directory is removed in every case, so nothing half-downloaded is ever at `node-db`.
 */
import { mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readStoredL1SyncPosition } from '../../core/chain/chainStore.js';
import type { LoggerPort } from '../../core/ports.js';
import type { SyncMode } from '../../spec/config/schema.js';
import {
  SNAPSHOT_INDEX_BYTES_MAX,
  compareSnapshots,
  parseSnapshotIndex,
  snapshotFolder,
  snapshotMismatch,
  type SnapshotChain,
  type SnapshotIndexEntry,
} from '../../spec/snapshots/snapshotFormat.js';
import { createReadOnlyFileStore, type FileStoreOptions, type ReadOnlyFileStore } from '../fileStore/fileStore.js';
import { FileStoreError } from '../fileStore/fileStoreError.js';
import { NODE_DATABASE_DIRECTORY_NAME, openClassicLevelStorage } from '../storage/classicLevelStorage.js';
import { restoreDataFile, verifyDataFile } from './snapshotRestore.js';
import { SnapshotRefusedError, type SnapshotRefusalCode } from './snapshotSyncError.js';

/** Prefix of the temporary download directories inside the data directory. */
export const SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX = 'snapshot-download-';
/** Where, inside the download directory, a replaced database waits until the new one is in place. */
const PREVIOUS_DATABASE_NAME = 'previous-node-db';
const DATA_FILE_NAME = 'snapshot.gz';

export interface SnapshotSyncOptions {
  readonly dataDirectory: string;
  readonly mode: SyncMode;
  /** Snapshot stores (`--snapshots-urls`). */
  readonly urls: readonly string[];
  /** This node's L1 chain, rollup and database schema: only snapshots of these are used. */
  readonly chain: SnapshotChain;
  readonly logger: LoggerPort;
  readonly fileStoreOptions?: FileStoreOptions;
}

export type SnapshotSyncResult =
  | { readonly outcome: 'installed'; readonly store: string; readonly snapshot: SnapshotIndexEntry }
  | { readonly outcome: 'skipped'; readonly reason: string }
  | { readonly outcome: 'refused'; readonly code: SnapshotRefusalCode; readonly reason: string };

interface Candidate {
  readonly store: ReadOnlyFileStore;
  readonly entry: SnapshotIndexEntry;
}

/**
 * Installs the newest usable snapshot when the mode asks for one. Never throws for a bad snapshot, a failing store or
 * a failed install (those are logged and answered); only when the data directory itself cannot be read.
 */
export async function syncFromSnapshot(options: SnapshotSyncOptions): Promise<SnapshotSyncResult> {
  const { dataDirectory, mode, urls, logger } = options;
  await mkdir(dataDirectory, { recursive: true });
  await removeLeftoverDownloads(dataDirectory, logger);
  // Every start without snapshots comes this way: said at debug level only.
  if (mode === 'full') return skipped(logger, 'the sync mode is full', 'debug');
  if (urls.length === 0) return skipped(logger, 'no snapshot store is configured', 'debug');
  const hasData = await hasLocalData(dataDirectory);
  if (hasData && mode === 'snapshot') return skipped(logger, 'the node already has data (sync mode snapshot)');
  const candidate = await newestCandidate(options);
  if (candidate === undefined) return skipped(logger, 'no store lists a usable snapshot');
  const { store, entry } = candidate;
  const log = logger.child({ store: store.name, dataFile: entry.dataFile });
  try {
    if (hasData) await refuseUnlessNewer(dataDirectory, entry);
    log.info('installing snapshot', { blockNumber: entry.blockNumber, l1BlockNumber: entry.l1BlockNumber });
    const startedMs = Date.now();
    await installSnapshot(dataDirectory, candidate, options.chain);
    log.info('installed snapshot: the node syncs the rest from L1', {
      blockNumber: entry.blockNumber,
      entries: entry.entries,
      durationMs: Date.now() - startedMs,
    });
    return { outcome: 'installed', store: store.name, snapshot: entry };
  } catch (error) {
    const refusal =
      error instanceof SnapshotRefusedError
        ? error
        : new SnapshotRefusedError(
            'SNAPSHOT_INSTALL_FAILED',
            `install failed: ${messageOf(error)}`,
            {},
            { cause: error },
          );
    log.warn(`refused snapshot: ${refusal.shortMessage}; syncing from L1 instead`, { code: refusal.code });
    return { outcome: 'refused', code: refusal.code, reason: refusal.shortMessage };
  }
}

function skipped(logger: LoggerPort, reason: string, level: 'debug' | 'info' = 'info'): SnapshotSyncResult {
  logger[level](`not starting from a snapshot: ${reason}`);
  return { outcome: 'skipped', reason };
}

/** Downloads, checks and restores into a fresh temporary directory, then moves the database into place. */
async function installSnapshot(dataDirectory: string, candidate: Candidate, chain: SnapshotChain): Promise<void> {
  const { store, entry } = candidate;
  const temp = await mkdtemp(join(dataDirectory, SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX));
  try {
    const file = join(temp, DATA_FILE_NAME);
    await download(store, entry, file);
    await verifyDataFile(file, entry);
    const restored = join(temp, NODE_DATABASE_DIRECTORY_NAME);
    await restoreDataFile(file, entry, chain, restored);
    await moveIntoPlace(dataDirectory, restored, temp);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function download(store: ReadOnlyFileStore, entry: SnapshotIndexEntry, file: string): Promise<void> {
  const path = `${snapshotFolder(entry)}/${entry.dataFile}`;
  let found: boolean;
  try {
    found = await store.downloadToFile(path, file, { maxBytes: entry.sizeBytes });
  } catch (error) {
    if (!(error instanceof FileStoreError)) throw error;
    if (error.code === 'FILE_STORE_TOO_LARGE')
      throw new SnapshotRefusedError('SNAPSHOT_BAD_CHECKSUM', `bad size: over the ${entry.sizeBytes} bytes listed`);
    throw new SnapshotRefusedError('SNAPSHOT_DOWNLOAD_FAILED', `download failed: ${error.shortMessage}`);
  }
  if (!found) throw new SnapshotRefusedError('SNAPSHOT_DOWNLOAD_FAILED', 'download failed: the data file is missing');
}

/**
 * Renames the restored database to `node-db`. An existing one is first moved into the temporary directory (removed
 * with it); a crash between the two renames is undone by removeLeftoverDownloads.
 */
async function moveIntoPlace(dataDirectory: string, restored: string, temp: string): Promise<void> {
  const target = join(dataDirectory, NODE_DATABASE_DIRECTORY_NAME);
  try {
    if (await exists(target)) await rename(target, join(temp, PREVIOUS_DATABASE_NAME));
    await rename(restored, target);
    await syncDirectory(dataDirectory);
  } catch (error) {
    throw new SnapshotRefusedError(
      'SNAPSHOT_LOCAL_DATABASE',
      `could not move the restored database into place: ${messageOf(error)}`,
    );
  }
}

/** The newest snapshot usable by this node across every store; logs each store and snapshot left out, and why. */
async function newestCandidate(options: SnapshotSyncOptions): Promise<Candidate | undefined> {
  let newest: Candidate | undefined;
  for (const url of options.urls) {
    const store = openStore(url, options);
    if (store === undefined) continue;
    const entries = await readIndex(store, options);
    for (const entry of entries ?? []) {
      const mismatch = snapshotMismatch(entry, options.chain);
      if (mismatch !== undefined) {
        options.logger.info(
          `skipping snapshot ${entry.dataFile} of ${store.name}: ${mismatchKind(entry, options.chain)} (${mismatch})`,
        );
        continue;
      }
      if (newest === undefined || compareSnapshots(newest.entry, entry) < 0) newest = { store, entry };
    }
  }
  return newest;
}

function openStore(url: string, options: SnapshotSyncOptions): ReadOnlyFileStore | undefined {
  try {
    return createReadOnlyFileStore(url, options.fileStoreOptions);
  } catch (error) {
    if (!(error instanceof FileStoreError)) throw error;
    options.logger.warn(`skipping a snapshot store: ${error.shortMessage}`);
    return undefined;
  }
}

/** The store's index entries for this chain; undefined (logged) when it cannot be read or parsed. */
async function readIndex(
  store: ReadOnlyFileStore,
  options: SnapshotSyncOptions,
): Promise<readonly SnapshotIndexEntry[] | undefined> {
  const path = `${snapshotFolder(options.chain)}/index.json`;
  try {
    const bytes = await store.read(path, { maxBytes: SNAPSHOT_INDEX_BYTES_MAX });
    if (bytes === undefined) {
      options.logger.info(`snapshot store ${store.name} has no index for this chain`, { path });
      return undefined;
    }
    return parseSnapshotIndex(new TextDecoder().decode(bytes)).snapshots;
  } catch (error) {
    const why = error instanceof FileStoreError ? error.shortMessage : `its index is unparsable (${messageOf(error)})`;
    options.logger.warn(`skipping snapshot store ${store.name}: ${why}`, { path });
    return undefined;
  }
}

function mismatchKind(entry: SnapshotChain, chain: SnapshotChain): string {
  if (entry.l1ChainId !== chain.l1ChainId) return 'another chain';
  if (entry.rollupAddress.toLowerCase() !== chain.rollupAddress.toLowerCase()) return 'another rollup';
  if (entry.rollupVersion !== chain.rollupVersion) return 'another rollup version';
  return 'another database schema';
}

/** force-snapshot: refuses a snapshot whose L1 block is not past the one the node's own database has synced to. */
async function refuseUnlessNewer(dataDirectory: string, entry: SnapshotIndexEntry): Promise<void> {
  let localL1Block: bigint | undefined;
  try {
    const storage = await openClassicLevelStorage(dataDirectory);
    try {
      localL1Block = (await readStoredL1SyncPosition(storage))?.blockNumber;
    } finally {
      await storage.close();
    }
  } catch (error) {
    throw new SnapshotRefusedError('SNAPSHOT_LOCAL_DATABASE', `could not read this node's data: ${messageOf(error)}`);
  }
  if (localL1Block !== undefined && BigInt(entry.l1BlockNumber) <= localL1Block) {
    throw new SnapshotRefusedError(
      'SNAPSHOT_OLDER_THAN_LOCAL',
      `older than this node's data: the snapshot is at L1 block ${entry.l1BlockNumber}, this node at ${localL1Block}`,
    );
  }
}

/** Whether `<data directory>/node-db` exists and holds anything. */
async function hasLocalData(dataDirectory: string): Promise<boolean> {
  try {
    return (await readdir(join(dataDirectory, NODE_DATABASE_DIRECTORY_NAME))).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Removes the download directories a crashed run left. One that holds a moved-aside database while `node-db` is
 * missing crashed between the two renames of moveIntoPlace: that database goes back first.
 */
async function removeLeftoverDownloads(dataDirectory: string, logger: LoggerPort): Promise<void> {
  const names = (await readdir(dataDirectory)).filter((name) => name.startsWith(SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX));
  const target = join(dataDirectory, NODE_DATABASE_DIRECTORY_NAME);
  for (const name of names.sort()) {
    const leftover = join(dataDirectory, name);
    const previous = join(leftover, PREVIOUS_DATABASE_NAME);
    if (!(await exists(target)) && (await exists(previous))) {
      await rename(previous, target);
      logger.warn('put back the database an interrupted snapshot install had moved aside', { directory: name });
    }
    await rm(leftover, { recursive: true, force: true });
    logger.info('removed the download directory of an interrupted snapshot install', { directory: name });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Makes the renames in `directory` durable. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
}
