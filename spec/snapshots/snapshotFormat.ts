/**
 * Snapshots of a node's database, as written to and read from file stores (adapters/fileStore/):
 *
 *   {store URL}/svc-{l1ChainId}-{rollupVersion}-{rollupAddress}/snapshots/index.json
 *   {store URL}/svc-{l1ChainId}-{rollupVersion}-{rollupAddress}/snapshots/{dataFile}
 *
 * `index.json` lists the complete snapshots of that chain and rollup in the store, oldest first (SnapshotIndex). It is
 * rewritten only after a data file is wholly uploaded, so it never lists a partial one. A data file is gzip of UTF-8
 * lines: the first line the JSON of a SnapshotHeader, then one line per database entry, the JSON array
 * `[key, value]`, in key order. Every field a reader acts on is checked (zod) and every data file against the
 * SHA-256 and size its index entry records.
 */
import { z } from 'zod';

/** Version of the data file's layout (this module). */
export const SNAPSHOT_FORMAT_VERSION = 1;
/**
 * Version of the node's database layout: a snapshot of another version cannot be opened by this node. Raise it with
 * any change to what the chain store, world state or indexes write.
 */
export const NODE_DATABASE_SCHEMA_VERSION = 1;
/** The most snapshots an index lists; the oldest beyond are dropped from it when a new one is added. */
export const SNAPSHOT_INDEX_ENTRIES_MAX = 64;
/** Largest index.json read, in bytes. */
export const SNAPSHOT_INDEX_BYTES_MAX = 1024 * 1024;
/** Longest line of a data file (one entry), in characters: world-state pages are the largest values. */
export const SNAPSHOT_LINE_CHARS_MAX = 16 * 1024 * 1024;

/**
 * Database keys left out of a snapshot: the node's own state, not the chain's. The tx pool (a restored node fills its
 * own) and its validators' offense log and statistics.
 */
export const SNAPSHOT_EXCLUDED_KEY_PREFIXES: readonly string[] = ['txPool:', 'validators:'];

const hex = (bytes: number) =>
  z.string().regex(new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`), `expected ${bytes} bytes of lowercase 0x hex`);
const decimal = z.string().regex(/^\d{1,30}$/, 'expected a decimal string');
/** A file name in the snapshots folder: no separators, no leading dot. */
const fileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/, 'expected a plain file name');

/** What chain, rollup and database a snapshot belongs to. */
export const snapshotChainSchema = z.object({
  l1ChainId: z.number().int().positive(),
  rollupVersion: z.number().int().nonnegative(),
  rollupAddress: hex(20),
  schemaVersion: z.number().int().positive(),
});

/** Where in the chain a snapshot was taken. */
export const snapshotPointSchema = z.object({
  /** The node's proposed tip when the snapshot was taken. */
  blockNumber: z.number().int().nonnegative(),
  blockHash: hex(32),
  /** The L1 block the node had synced to (decimal string). */
  l1BlockNumber: decimal,
  /** ISO 8601, UTC. */
  createdAt: z.string().datetime(),
});

export const snapshotIndexEntrySchema = snapshotChainSchema.merge(snapshotPointSchema).extend({
  dataFile: fileName,
  sha256: hex(32),
  sizeBytes: z.number().int().nonnegative(),
  entries: z.number().int().nonnegative(),
});

export const snapshotIndexSchema = z.object({
  format: z.literal('svc-snapshot-index'),
  version: z.literal(SNAPSHOT_FORMAT_VERSION),
  snapshots: z.array(snapshotIndexEntrySchema).max(SNAPSHOT_INDEX_ENTRIES_MAX),
});

export const snapshotHeaderSchema = snapshotChainSchema.merge(snapshotPointSchema).extend({
  format: z.literal('svc-snapshot'),
  version: z.literal(SNAPSHOT_FORMAT_VERSION),
});

export type SnapshotChain = z.infer<typeof snapshotChainSchema>;
export type SnapshotPoint = z.infer<typeof snapshotPointSchema>;
export type SnapshotIndexEntry = z.infer<typeof snapshotIndexEntrySchema>;
export type SnapshotIndex = z.infer<typeof snapshotIndexSchema>;
export type SnapshotHeader = z.infer<typeof snapshotHeaderSchema>;

export const EMPTY_SNAPSHOT_INDEX: SnapshotIndex = {
  format: 'svc-snapshot-index',
  version: SNAPSHOT_FORMAT_VERSION,
  snapshots: [],
};

/** The folder of a chain's snapshots in a store. */
export function snapshotFolder(chain: Pick<SnapshotChain, 'l1ChainId' | 'rollupVersion' | 'rollupAddress'>): string {
  return `svc-${chain.l1ChainId}-${chain.rollupVersion}-${chain.rollupAddress.toLowerCase()}/snapshots`;
}

/** A data file's name: block number, UTC time and block hash, so names sort by block and never collide. */
export function snapshotDataFileName(point: Pick<SnapshotPoint, 'blockNumber' | 'blockHash' | 'createdAt'>): string {
  const stamp = point.createdAt.replace(/[-:]/g, '').replace(/\.\d+/, '').replace('T', '').replace('Z', '');
  return `${String(point.blockNumber).padStart(12, '0')}-${stamp}-${point.blockHash.slice(2, 18)}.snapshot.gz`;
}

/** Why a snapshot cannot be used by a node of `expected`, or undefined when it can. */
export function snapshotMismatch(entry: SnapshotChain, expected: SnapshotChain): string | undefined {
  if (entry.l1ChainId !== expected.l1ChainId)
    return `it is of L1 chain ${entry.l1ChainId}, this node follows ${expected.l1ChainId}`;
  if (entry.rollupAddress.toLowerCase() !== expected.rollupAddress.toLowerCase())
    return `it is of rollup ${entry.rollupAddress}, this node follows ${expected.rollupAddress}`;
  if (entry.rollupVersion !== expected.rollupVersion)
    return `it is of rollup version ${entry.rollupVersion}, this node follows ${expected.rollupVersion}`;
  if (entry.schemaVersion !== expected.schemaVersion)
    return `its database schema is version ${entry.schemaVersion}, this node reads version ${expected.schemaVersion}`;
  return undefined;
}

/** The newest snapshot (highest L1 block, then L2 block) an index lists for `expected`, if any. */
export function newestUsableSnapshot(index: SnapshotIndex, expected: SnapshotChain): SnapshotIndexEntry | undefined {
  const usable = index.snapshots.filter((entry) => snapshotMismatch(entry, expected) === undefined);
  return usable.sort(compareSnapshots).at(-1);
}

/** Orders snapshots oldest first: by L1 block, then L2 block. */
export function compareSnapshots(a: SnapshotPoint, b: SnapshotPoint): number {
  const l1 = BigInt(a.l1BlockNumber) - BigInt(b.l1BlockNumber);
  if (l1 !== 0n) return l1 < 0n ? -1 : 1;
  return a.blockNumber - b.blockNumber;
}

/** The index with `entry` added (replacing one of the same data file), oldest dropped beyond the limit. */
export function withSnapshot(index: SnapshotIndex, entry: SnapshotIndexEntry): SnapshotIndex {
  const kept = index.snapshots.filter((e) => e.dataFile !== entry.dataFile);
  const snapshots = [...kept, entry].sort(compareSnapshots).slice(-SNAPSHOT_INDEX_ENTRIES_MAX);
  return { ...index, snapshots };
}

/** Parses index.json; throws with the first problem. */
export function parseSnapshotIndex(text: string): SnapshotIndex {
  return snapshotIndexSchema.parse(JSON.parse(text));
}

/** One data-file line of an entry. */
export function encodeSnapshotEntry(key: string, value: string): string {
  return JSON.stringify([key, value]);
}

/** An entry from a data-file line; throws on anything but `[string, string]`. */
export function decodeSnapshotEntry(line: string): readonly [string, string] {
  const parsed: unknown = JSON.parse(line);
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string')
    throw new Error('a snapshot entry is the JSON array [key, value] of two strings');
  return [parsed[0], parsed[1]];
}

/** Whether a database key goes into a snapshot. */
export function isSnapshotKey(key: string): boolean {
  return !SNAPSHOT_EXCLUDED_KEY_PREFIXES.some((prefix) => key.startsWith(prefix));
}
