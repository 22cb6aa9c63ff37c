/**
 * svcAdmin_startSnapshotUpload's work, once the operations machine has paused sync: one storage snapshot is taken, and
 * both the snapshot's metadata (the proposed tip, the L1 sync position) and its entries are read from it. The
 * sequencer and the tx pool may go on writing while the upload runs; they change the live database, never what the
 * storage snapshot holds, and every chain change writes its tips in the same batch as its blocks, so the entries are
 * those of exactly the block the metadata names.
 */
import {
  isSnapshotKey,
  NODE_DATABASE_SCHEMA_VERSION,
  type SnapshotChain,
  type SnapshotIndexEntry,
  type SnapshotPoint,
} from '../../spec/snapshots/snapshotFormat.js';
import { readStoredChainHead } from '../chain/chainStore.js';
import { NodeError } from '../errors.js';
import type {
  ClockPort,
  LoggerPort,
  MetricsPort,
  SnapshotPort,
  SnapshotUploadProgress,
  StoragePort,
} from '../ports.js';

export interface SnapshotUploadDeps {
  readonly storage: StoragePort;
  readonly snapshots: SnapshotPort;
  readonly clock: ClockPort;
  readonly logger: LoggerPort;
  /** Told of the upload's progress and outcome; absent: nothing is counted. */
  readonly metrics?: MetricsPort;
}

type StorageSnapshot = ReturnType<StoragePort['snapshot']>;

/** Uploads a snapshot of the database as it is now; the caller has paused sync. Logs progress and the outcome. */
export async function uploadDatabaseSnapshot(deps: SnapshotUploadDeps, location: string): Promise<SnapshotIndexEntry> {
  const { storage, logger } = deps;
  if (!storage.supports.explicitSnapshots) {
    throw new NodeError('OPERATION_REFUSED', 'this storage cannot take a consistent snapshot of the database', {
      location,
    });
  }
  const startedAtMs = deps.clock.now();
  // Taken synchronously, before any other write can land: every read below sees this one version of the database.
  const view = storage.snapshot();
  try {
    const { chain, point } = await snapshotMetadata(storage, view, deps.clock);
    logger.info('snapshot upload started', { location, blockNumber: point.blockNumber, blockHash: point.blockHash });
    const entry = await deps.snapshots.upload(
      location,
      { chain, point, entries: snapshotEntries(storage, view) },
      (progress) => {
        logProgress(logger, location, progress);
        deps.metrics?.report({ kind: 'snapshotUploadProgress', progress });
      },
    );
    const durationMs = deps.clock.now() - startedAtMs;
    deps.metrics?.report({
      kind: 'snapshotUploadFinished',
      outcome: 'succeeded',
      durationMs,
      sizeBytes: entry.sizeBytes,
    });
    logger.info('snapshot upload finished', {
      location,
      dataFile: entry.dataFile,
      blockNumber: entry.blockNumber,
      entries: entry.entries,
      sizeBytes: entry.sizeBytes,
      durationMs,
    });
    return entry;
  } catch (error) {
    const durationMs = deps.clock.now() - startedAtMs;
    deps.metrics?.report({ kind: 'snapshotUploadFinished', outcome: 'failed', durationMs });
    logger.error('snapshot upload failed', {
      location,
      error: error instanceof Error ? error.message : String(error),
      durationMs,
    });
    throw error;
  } finally {
    await view.close();
  }
}

/** What chain the snapshot is of and where in it: read from the storage snapshot itself. */
async function snapshotMetadata(
  storage: StoragePort,
  view: StorageSnapshot,
  clock: ClockPort,
): Promise<{ chain: SnapshotChain; point: SnapshotPoint }> {
  const head = await readStoredChainHead((key) => storage.get(key, { snapshot: view }));
  if (head === undefined) throw new NodeError('OPERATION_REFUSED', 'the database holds no chain to snapshot', {});
  const chain: SnapshotChain = {
    l1ChainId: head.identity.l1ChainId,
    rollupVersion: head.identity.rollupVersion,
    rollupAddress: head.identity.rollupAddress.toLowerCase(),
    schemaVersion: NODE_DATABASE_SCHEMA_VERSION,
  };
  const point: SnapshotPoint = {
    blockNumber: head.tips.proposed.number,
    blockHash: head.tips.proposed.hash.toLowerCase(),
    l1BlockNumber: (head.l1Sync?.blockNumber ?? 0n).toString(),
    createdAt: isoUtcTimestamp(clock.now()),
  };
  return { chain, point };
}

/** The snapshot's entries in key order, without the node's own records (isSnapshotKey). */
async function* snapshotEntries(storage: StoragePort, view: StorageSnapshot): AsyncIterable<readonly [string, string]> {
  for await (const [key, value] of storage.iterator({ snapshot: view })) {
    const text = String(key);
    if (isSnapshotKey(text)) yield [text, value] as const;
  }
}

function logProgress(logger: LoggerPort, location: string, progress: SnapshotUploadProgress): void {
  const { stage, ...fields } = progress;
  const message = {
    writing: 'snapshot entries written',
    written: 'snapshot data file written',
    uploaded: 'snapshot data file uploaded',
    indexed: 'snapshot index updated',
  }[stage];
  logger.info(message, { location, ...fields });
}

const MS_PER_DAY = 86_400_000;

/**
 * `ms` (Unix milliseconds) as ISO 8601 UTC with milliseconds, like Date's toISOString, which core/ may not use: the
 * civil date from the day count (Howard Hinnant's days_from_civil inverse).
 */
export function isoUtcTimestamp(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const msOfDay = ms - days * MS_PER_DAY;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const time = [Math.floor(msOfDay / 3_600_000), Math.floor(msOfDay / 60_000) % 60, Math.floor(msOfDay / 1000) % 60];
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${time.map((n) => pad(n, 2)).join(':')}.${pad(msOfDay % 1000, 3)}Z`;
}
