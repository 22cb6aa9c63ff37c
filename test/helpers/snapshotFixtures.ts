/**
 * Snapshots written the way spec/snapshots/snapshotFormat.ts describes, for tests of the restoring side: a data file
 * (gzip of a header line and `[key, value]` lines) and the index listing it, into any writable file store. Options
 * break one thing at a time (a header of another chain, a truncated file, a wrong checksum) to test each refusal.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ClassicLevel } from 'classic-level';
import type { FileStore } from '../../adapters/fileStore/fileStore.js';
import type { L1SyncPosition } from '../../core/chain/chainStore.js';
import { fromStoredJson } from '../../core/chain/serde.js';
import type { L2Tips } from '../../spec/chain.js';
import {
  EMPTY_SNAPSHOT_INDEX,
  NODE_DATABASE_SCHEMA_VERSION,
  SNAPSHOT_FORMAT_VERSION,
  encodeSnapshotEntry,
  isSnapshotKey,
  parseSnapshotIndex,
  snapshotDataFileName,
  snapshotFolder,
  withSnapshot,
  type SnapshotChain,
  type SnapshotHeader,
  type SnapshotIndexEntry,
  type SnapshotPoint,
} from '../../spec/snapshots/snapshotFormat.js';

export type SnapshotEntries = readonly (readonly [string, string])[];

export const FIXTURE_CHAIN: SnapshotChain = {
  l1ChainId: 31337,
  rollupVersion: 1,
  rollupAddress: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  schemaVersion: NODE_DATABASE_SCHEMA_VERSION,
};

export interface SnapshotFixture {
  readonly chain?: SnapshotChain;
  readonly point?: Partial<SnapshotPoint>;
  readonly entries: SnapshotEntries;
  /** Fields of the header that differ from the index entry's. */
  readonly header?: Partial<SnapshotHeader>;
  /** Changes the gzip bytes after the index entry's checksum and size are taken (a corrupted upload). */
  readonly corruptAfterIndexing?: (gzip: Buffer) => Buffer;
  /** Changes the gzip bytes before they are indexed (an uploader that wrote a broken file and indexed it). */
  readonly corruptBeforeIndexing?: (gzip: Buffer) => Buffer;
  /** The chain whose folder the snapshot is written to (default: its own), to list a foreign one in ours. */
  readonly folderOf?: SnapshotChain;
  /** Lines written instead of the encoded entries (the index still counts `entries`). */
  readonly entryLines?: readonly string[];
  /** Index entry fields overridden after they are computed. */
  readonly indexEntry?: Partial<SnapshotIndexEntry>;
}

/** The data file's bytes: gzip of the header line and one line per entry. */
export function snapshotDataFile(
  header: SnapshotHeader,
  entries: SnapshotEntries,
  entryLines: readonly string[] = entries.map(([key, value]) => encodeSnapshotEntry(key, value)),
): Buffer {
  const lines = [JSON.stringify(header), ...entryLines];
  return gzipSync(Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
}

/** Writes the data file and adds it to the store's index for its chain; answers the index entry. */
export async function writeSnapshotFixture(store: FileStore, fixture: SnapshotFixture): Promise<SnapshotIndexEntry> {
  const chain = fixture.chain ?? FIXTURE_CHAIN;
  const point: SnapshotPoint = {
    blockNumber: 10,
    blockHash: `0x${'ab'.repeat(32)}`,
    l1BlockNumber: '100',
    createdAt: '2026-11-26T05:00:00.000Z',
    ...fixture.point,
  };
  const header: SnapshotHeader = {
    format: 'svc-snapshot',
    version: SNAPSHOT_FORMAT_VERSION,
    ...chain,
    ...point,
    ...fixture.header,
  };
  let gzip = snapshotDataFile(header, fixture.entries, fixture.entryLines);
  if (fixture.corruptBeforeIndexing) gzip = fixture.corruptBeforeIndexing(gzip);
  const entry: SnapshotIndexEntry = {
    ...chain,
    ...point,
    dataFile: snapshotDataFileName(point),
    sha256: `0x${createHash('sha256').update(gzip).digest('hex')}`,
    sizeBytes: gzip.length,
    entries: fixture.entries.length,
    ...fixture.indexEntry,
  };
  if (fixture.corruptAfterIndexing) gzip = fixture.corruptAfterIndexing(gzip);
  const folder = snapshotFolder(fixture.folderOf ?? chain);
  await store.write(`${folder}/${entry.dataFile}`, gzip);
  const existing = await store.read(`${folder}/index.json`);
  const index = existing === undefined ? EMPTY_SNAPSHOT_INDEX : parseSnapshotIndex(Buffer.from(existing).toString());
  await store.write(`${folder}/index.json`, Buffer.from(JSON.stringify(withSnapshot(index, entry))));
  return entry;
}

/** Every entry of the LevelDB database at `directory`, in key order; only the snapshot's keys with `snapshotOnly`. */
export async function readDatabaseEntries(directory: string, snapshotOnly = false): Promise<[string, string][]> {
  const database = new ClassicLevel<string, string>(directory, {
    keyEncoding: 'utf8',
    valueEncoding: 'utf8',
    createIfMissing: false,
  });
  await database.open();
  try {
    const entries = await database.iterator().all();
    return snapshotOnly ? entries.filter(([key]) => isSnapshotKey(key)) : entries;
  } finally {
    await database.close();
  }
}

/** Writes `entries` into a new LevelDB database at `directory` (a node's existing data). */
export async function writeDatabase(directory: string, entries: SnapshotEntries): Promise<void> {
  const database = new ClassicLevel<string, string>(directory, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  await database.open();
  try {
    await database.batch(entries.map(([key, value]) => ({ type: 'put' as const, key, value })));
  } finally {
    await database.close();
  }
}

/**
 * A snapshot of a stopped node's database (`<data directory>/node-db`), as the uploading node would write it: the
 * snapshot's keys, at the database's proposed tip and L1 sync position.
 */
export async function writeSnapshotOfDatabase(
  store: FileStore,
  databaseDirectory: string,
  chain: SnapshotChain,
): Promise<SnapshotIndexEntry> {
  const entries = await readDatabaseEntries(databaseDirectory, true);
  const valueOf = (key: string): string => {
    const value = entries.find(([k]) => k === key)?.[1];
    if (value === undefined) throw new Error(`the database at ${databaseDirectory} has no ${key}`);
    return value;
  };
  const tips = fromStoredJson<L2Tips>(valueOf('meta:tips'));
  const l1Sync = fromStoredJson<L1SyncPosition>(valueOf('meta:l1Sync'));
  return writeSnapshotFixture(store, {
    chain,
    entries,
    point: {
      blockNumber: tips.proposed.number,
      blockHash: tips.proposed.hash,
      l1BlockNumber: String(l1Sync.blockNumber),
      createdAt: new Date().toISOString(),
    },
  });
}
