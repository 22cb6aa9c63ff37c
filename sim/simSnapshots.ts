/**
 * The simulator's snapshot store: the SnapshotPort of every simulated node over one in-memory store shared by the
 * run, as a team's bucket is. A location is `sim://<name>`; each holds data files and an index that lists the
 * complete snapshots only. An upload reads the node's entries with simulated time passing (SIM_SNAPSHOT_SLEEP_MS per
 * SIM_SNAPSHOT_ENTRIES_PER_SLEEP entries) on the node's own clock, writes them under a name as it goes, and adds the
 * index entry only once the data is complete. A crash halts the node's clock (sim/simClock.ts), so a crashed
 * incarnation's upload never wakes up again: its partial data stays behind, unlisted, as a real crash would leave it.
 *
 * Each upload is also recorded for the checkers (sim/checkers/snapshotUploads.ts): the node's checkpointed tip when
 * it started and when its data was complete (no checkpoint may be synced meanwhile), and the entries of the node's
 * database as a second iterator, opened beside the upload's own, saw them.
 */
import type { ClockPort, SnapshotPort, SnapshotUpload, StoragePort } from '../core/ports.js';
import { isSnapshotKey, snapshotDataFileName, type SnapshotIndexEntry } from '../spec/snapshots/snapshotFormat.js';

/** Entries read between two sleeps of an upload. */
export const SIM_SNAPSHOT_ENTRIES_PER_SLEEP = 50;
/** Simulated time one batch of SIM_SNAPSHOT_ENTRIES_PER_SLEEP entries takes to upload. */
export const SIM_SNAPSHOT_SLEEP_MS = 250;
/** Snapshots a location's index keeps (the oldest go first), as a real store's retention would. */
export const SIM_SNAPSHOT_INDEX_ENTRIES_MAX = 64;

const LOCATION_RE = /^sim:\/\/([a-z0-9-]+)$/;

/** One complete snapshot as a location's index lists it. */
export interface SimSnapshotIndexEntry {
  readonly name: string;
  readonly node: string;
  readonly entryCount: number;
  readonly checksum: string;
  readonly completedAtMs: number;
}

/** One upload as the checkers see it. */
export interface SimSnapshotUpload {
  readonly node: string;
  readonly location: string;
  readonly name: string;
  readonly startedAtMs: number;
  /** The node's checkpointed tip (`checkpoint@block`) when the upload started reading. */
  readonly checkpointAtStart: string;
  /** What a second iterator over the node's database, opened with the upload's, read: the consistent view. */
  expected?: { readonly entryCount: number; readonly checksum: string };
  /** Set once the data is complete, just before the index lists it. */
  checkpointAtEnd?: string;
  completedAtMs?: number;
}

/** What a node's port reads of the node beside its database (the node is built after its ports). */
export interface SimSnapshotObserver {
  /** The node's checkpointed tip as `checkpoint@block`. */
  checkpointedTip(): string;
}

interface SimLocation {
  readonly data: Map<string, (readonly [string, string])[]>;
  index: readonly SimSnapshotIndexEntry[];
}

export class SimSnapshots {
  private readonly locations = new Map<string, SimLocation>();
  private readonly records: SimSnapshotUpload[] = [];
  private uploadCount = 0;
  private sleepMs = SIM_SNAPSHOT_SLEEP_MS;

  constructor(private readonly now: () => number) {}

  /** How long each batch of entries takes from now on (a scenario slows uploads down to act in the middle of one). */
  setSleepMs(sleepMs: number): void {
    this.sleepMs = sleepMs;
  }

  /** The index of `location` (empty when nothing was ever completed there). */
  index(location: string): readonly SimSnapshotIndexEntry[] {
    return this.locations.get(location)?.index ?? [];
  }

  /** The entries written under `name` at `location` so far (partial for an unfinished upload). */
  dataOf(location: string, name: string): readonly (readonly [string, string])[] | undefined {
    return this.locations.get(location)?.data.get(name);
  }

  /** Every location anything was uploaded to. */
  locationNames(): readonly string[] {
    return [...this.locations.keys()];
  }

  /** Every upload started in the run, in start order. */
  uploads(): readonly SimSnapshotUpload[] {
    return this.records;
  }

  /** One node incarnation's port: its sleeps go through `clock`, so they die with the incarnation. */
  portFor(label: string, clock: ClockPort, storage: StoragePort, observer: SimSnapshotObserver): SnapshotPort {
    trackExplicitSnapshots(storage);
    return {
      locationProblem: (location) =>
        LOCATION_RE.test(location) ? undefined : 'the simulator stores snapshots at sim://<name> only',
      upload: (location, snapshot) => this.upload({ label, clock, storage, observer }, location, snapshot),
    };
  }

  private locationOf(location: string): SimLocation {
    let found = this.locations.get(location);
    if (found === undefined) {
      found = { data: new Map(), index: [] };
      this.locations.set(location, found);
    }
    return found;
  }

  private async upload(
    node: { label: string; clock: ClockPort; storage: StoragePort; observer: SimSnapshotObserver },
    location: string,
    snapshot: SnapshotUpload,
  ): Promise<SnapshotIndexEntry> {
    const { entries } = snapshot;
    const target = this.locationOf(location);
    const name = `${node.label}-${++this.uploadCount}`;
    const record: SimSnapshotUpload = {
      node: node.label,
      location,
      name,
      startedAtMs: this.now(),
      checkpointAtStart: node.observer.checkpointedTip(),
    };
    this.records.push(record);
    // The node's own view: what the database held when the node took its snapshot (it reads its metadata first, and
    // the pool may write meanwhile, so the live database may already differ).
    const source = entries[Symbol.asyncIterator]();
    const first = source.next();
    const expected = readAll(node.storage, lastExplicitSnapshot.get(node.storage));
    const written: (readonly [string, string])[] = [];
    target.data.set(name, written);
    let checksum = CHECKSUM_SEED;
    for (let next = await first; next.done !== true; next = await source.next()) {
      written.push(next.value);
      checksum = checksumStep(checksum, next.value);
      if (written.length % SIM_SNAPSHOT_ENTRIES_PER_SLEEP === 0) await sleepOn(node.clock, this.sleepMs);
    }
    await sleepOn(node.clock, this.sleepMs);
    record.expected = await expected;
    record.checkpointAtEnd = node.observer.checkpointedTip();
    record.completedAtMs = this.now();
    const entry = { name, node: node.label, entryCount: written.length, checksum: hexOf(checksum) };
    target.index = [...target.index, { ...entry, completedAtMs: record.completedAtMs }].slice(
      -SIM_SNAPSHOT_INDEX_ENTRIES_MAX,
    );
    return {
      ...snapshot.chain,
      ...snapshot.point,
      dataFile: snapshotDataFileName(snapshot.point),
      sha256: `0x${entry.checksum.padStart(64, '0')}`,
      sizeBytes: 0,
      entries: written.length,
    };
  }
}

/** A promise settled by a timer of the node's clock: a halted clock never fires it, so the upload stops there. */
function sleepOn(clock: ClockPort, delayMs: number): Promise<void> {
  return new Promise((resolve) => void clock.setTimeout(resolve, delayMs));
}

type StorageSnapshot = ReturnType<StoragePort['snapshot']>;

/** Each store's most recent explicit snapshot (the node takes one only to upload it: core/node/snapshotUpload.ts). */
const lastExplicitSnapshot = new WeakMap<StoragePort, StorageSnapshot>();
const tracked = new WeakSet<StoragePort>();

/** Remembers every explicit snapshot `storage` hands out from now on (once per store). */
function trackExplicitSnapshots(storage: StoragePort): void {
  if (tracked.has(storage) || !storage.supports.explicitSnapshots) return;
  tracked.add(storage);
  const take = storage.snapshot.bind(storage);
  storage.snapshot = (options) => {
    const view = take(options);
    lastExplicitSnapshot.set(storage, view);
    return view;
  };
}

async function readAll(
  storage: StoragePort,
  view: StorageSnapshot | undefined,
): Promise<{ entryCount: number; checksum: string }> {
  let entryCount = 0;
  let checksum = CHECKSUM_SEED;
  for await (const [key, value] of storage.iterator(view === undefined ? {} : { snapshot: view })) {
    if (!isSnapshotKey(String(key))) continue;
    entryCount++;
    checksum = checksumStep(checksum, [String(key), value]);
  }
  return { entryCount, checksum: hexOf(checksum) };
}

// FNV-1a over every entry's key and value (a stand-in: the simulator needs equality, not collision resistance).
const CHECKSUM_SEED = 0x811c9dc5;

function checksumStep(checksum: number, [key, value]: readonly [string, string]): number {
  let hash = checksum;
  for (const text of [key, '\u0000', value, '\n'])
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function hexOf(checksum: number): string {
  return checksum.toString(16).padStart(8, '0');
}

/** Recomputes the checksum of stored data (the index check: a listed snapshot's data is whole). */
export function simSnapshotChecksum(data: readonly (readonly [string, string])[]): string {
  return hexOf(data.reduce(checksumStep, CHECKSUM_SEED));
}
