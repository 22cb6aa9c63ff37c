import {
  AbstractIterator,
  AbstractKeyIterator,
  AbstractLevel,
  AbstractSnapshot,
  AbstractValueIterator,
} from 'abstract-level';
import type { StoragePort } from '../core/ports.js';
import type { PlainOperation } from '../adapters/storage/plainBatch.js';
import { isPlainBatch } from '../adapters/storage/plainBatch.js';
import { SortedStringTable, type KeyRange, type TableEntry } from './sortedStringTable.js';

/**
 * Simulated storage: an abstract-level store in memory whose every operation settles through microtasks only (no
 * real I/O), which is what the scheduler's run loop needs to stay deterministic. It keeps memory-level's behaviour
 * (which it replaced, for speed: sim/sortedStringTable.ts) down to the microtasks each operation takes, so runs and
 * their trace hashes are unchanged.
 *
 * Crashes: a `batch()` applies in one step, so a crash (which the simulator only injects between events, when every
 * continuation has drained) sees each batch either whole or not at all; a batch the node had not yet issued is simply
 * never written. That is the same promise classic-level makes on disk, so the node's recovery code is tested against
 * the durability it gets in production.
 *
 * Iterators and snapshots read the data as it was when they were made, as classic-level's do: an iterator reads its
 * whole range when created (the node's range reads are bounded, or read to the end), a snapshot copies the table.
 */

/**
 * Keys and values are kept as strings, ordered by UTF-16 code units; classic-level orders keys by their UTF-8 bytes.
 * The two orders agree on ASCII, and every key the node writes is ASCII (fixed prefixes, decimal numbers, hex), so
 * this store refuses any other key rather than let the simulator order keys unlike production. (Strings rather than
 * bytes: encoding each key and value to a buffer and comparing keys byte by byte in JavaScript was a tenth of a
 * simulated node's time.)
 */
type WriteOp = { type: 'put' | 'del'; key: string; value?: string };

/** Keys a clear() deletes between two macrotask turns, as memory-level did (it lets I/O run in between). */
const CLEAR_KEYS_PER_TURN = 500;

const RANGE_OPTIONS = ['gt', 'gte', 'lt', 'lte'];

interface ReadOptions {
  readonly snapshot?: SimSnapshot | null;
}

type RangeOptions = ReadOptions & {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  limit?: number;
};

// abstract-level's snapshot takes the options it was made with; its types leave them out.
const AbstractSnapshotWithOptions = AbstractSnapshot as unknown as new (options: object) => AbstractSnapshot;

class SimSnapshot extends AbstractSnapshotWithOptions {
  constructor(
    readonly table: SortedStringTable,
    options: object,
  ) {
    super(options);
  }
}

function keyRange(options: RangeOptions, limit: number): KeyRange {
  const range: { -readonly [K in keyof KeyRange]: KeyRange[K] } = { limit, reverse: options.reverse === true };
  if (options.gte !== undefined) range.gte = options.gte;
  else if (options.gt !== undefined) range.gt = options.gt;
  if (options.lte !== undefined) range.lte = options.lte;
  else if (options.lt !== undefined) range.lt = options.lt;
  return range;
}

function limitOf(options: RangeOptions): number {
  const { limit } = options;
  return limit !== undefined && Number.isInteger(limit) && limit >= 0 ? limit : Infinity;
}

/** Where an iterator stands in the entries it read when created. */
class Cursor {
  private at = 0;

  constructor(private readonly entries: readonly TableEntry[]) {}

  take(size: number): TableEntry[] {
    const out = this.entries.slice(this.at, this.at + size);
    this.at += out.length;
    return out;
  }

  next(): TableEntry | undefined {
    return this.at < this.entries.length ? this.entries[this.at++] : undefined;
  }

  /** To the first entry at or past `target` in the iterator's direction. */
  seek(target: string, reverse: boolean): void {
    const i = this.entries.findIndex(([key]) => (reverse ? key <= target : key >= target));
    this.at = i === -1 ? this.entries.length : i;
  }
}

type StoreIteratorOptions = RangeOptions & Record<string, unknown>;

function cursorOf(db: SimLevel, options: StoreIteratorOptions): Cursor {
  return new Cursor(db.tableFor(options).entries(keyRange(options, limitOf(options))));
}

class SimEntryIterator extends AbstractIterator<SimLevel, string, string> {
  private readonly cursor: Cursor;

  constructor(
    db: SimLevel,
    private readonly options: StoreIteratorOptions,
  ) {
    super(db, options as never);
    this.cursor = cursorOf(db, options);
  }

  async _next(): Promise<[string, string] | undefined> {
    const entry = this.cursor.next();
    return entry === undefined ? undefined : [entry[0], entry[1]];
  }

  async _nextv(size: number): Promise<[string, string][]> {
    return this.cursor.take(size).map(([key, value]) => [key, value]);
  }

  async _all(): Promise<[string, string][]> {
    return this.cursor.take(this.limit - this.count).map(([key, value]) => [key, value]);
  }

  _seek(target: string): void {
    this.cursor.seek(target, this.options.reverse === true);
  }
}

class SimKeyIterator extends AbstractKeyIterator<SimLevel, string> {
  private readonly cursor: Cursor;

  /** clear()'s walk: every key, a macrotask turn after each full CLEAR_KEYS_PER_TURN (memory-level's timing). */
  async visit(visitor: (key: string) => void): Promise<void> {
    for (;;) {
      for (let i = 0; i < CLEAR_KEYS_PER_TURN; i++) {
        const entry = this.cursor.next();
        if (entry === undefined) return;
        visitor(entry[0]);
      }
      await breathe();
    }
  }

  constructor(
    db: SimLevel,
    private readonly options: StoreIteratorOptions,
  ) {
    super(db, options as never);
    this.cursor = cursorOf(db, options);
  }

  async _next(): Promise<string | undefined> {
    return this.cursor.next()?.[0];
  }

  async _nextv(size: number): Promise<string[]> {
    return this.cursor.take(size).map(([key]) => key);
  }

  async _all(): Promise<string[]> {
    return this.cursor.take(this.limit - this.count).map(([key]) => key);
  }

  _seek(target: string): void {
    this.cursor.seek(target, this.options.reverse === true);
  }
}

class SimValueIterator extends AbstractValueIterator<SimLevel, string, string> {
  private readonly cursor: Cursor;

  constructor(
    db: SimLevel,
    private readonly options: StoreIteratorOptions,
  ) {
    super(db, options as never);
    this.cursor = cursorOf(db, options);
  }

  async _next(): Promise<string | undefined> {
    return this.cursor.next()?.[1];
  }

  async _nextv(size: number): Promise<string[]> {
    return this.cursor.take(size).map(([, value]) => value);
  }

  async _all(): Promise<string[]> {
    return this.cursor.take(this.limit - this.count).map(([, value]) => value);
  }

  _seek(target: string): void {
    this.cursor.seek(target, this.options.reverse === true);
  }
}

function breathe(): Promise<void> {
  // A real macrotask turn, as memory-level's clear() took: the scheduler drains it (sim/scheduler.ts).
  // eslint-disable-next-line no-restricted-globals
  return new Promise((resolve) => setImmediate(resolve));
}

class SimLevel extends AbstractLevel<string | Uint8Array, string, string> {
  private table = new SortedStringTable();

  constructor() {
    super(
      {
        seek: true,
        explicitSnapshots: true,
        permanence: false,
        createIfMissing: false,
        errorIfExists: false,
        has: true,
        getSync: true,
        encodings: { utf8: true },
        signals: { iterators: false },
      } as ConstructorParameters<typeof AbstractLevel>[0],
      { keyEncoding: 'utf8', valueEncoding: 'utf8' },
    );
  }

  /** The table a read looks at: its snapshot's, or the live one. */
  tableFor(options: ReadOptions): SortedStringTable {
    return options.snapshot?.table ?? this.table;
  }

  async _get(key: string, options: ReadOptions): Promise<string | undefined> {
    return this.tableFor(options).get(key);
  }

  _getSync(key: string, options: ReadOptions): string | undefined {
    return this.tableFor(options).get(key);
  }

  async _getMany(keys: string[], options: ReadOptions): Promise<(string | undefined)[]> {
    const table = this.tableFor(options);
    return keys.map((key) => table.get(key));
  }

  async _has(key: string, options: ReadOptions): Promise<boolean> {
    return this.tableFor(options).get(key) !== undefined;
  }

  async _hasMany(keys: string[], options: ReadOptions): Promise<boolean[]> {
    const table = this.tableFor(options);
    return keys.map((key) => table.get(key) !== undefined);
  }

  // _put and _batch check keys, then return the write's own promise: the microtasks the simulator's runs were
  // recorded with (a check over memory-level's writes).
  async _put(key: string, value: string): Promise<void> {
    assertAsciiKey(key);
    return this.putChecked(key, value);
  }

  private async putChecked(key: string, value: string): Promise<void> {
    this.table.put(key, value);
  }

  async _del(key: string): Promise<void> {
    this.table.del(key);
  }

  async _batch(operations: WriteOp[]): Promise<void> {
    for (const op of operations) if (op.type === 'put') assertAsciiKey(op.key);
    return this.batchChecked(operations);
  }

  private async batchChecked(operations: WriteOp[]): Promise<void> {
    for (const op of operations) {
      if (op.type === 'put') this.table.put(op.key, op.value!);
      else this.table.del(op.key);
    }
  }

  /**
   * As memory-level did, to the microtask: the keys in range as they were at the call, deleted from the live table,
   * with a macrotask turn after each CLEAR_KEYS_PER_TURN of them.
   */
  async _clear(options: StoreIteratorOptions): Promise<void> {
    if (options.limit === -1 && !RANGE_OPTIONS.some((k) => k in options) && options.snapshot == null) {
      this.table = new SortedStringTable();
      return;
    }
    const iterator = new SimKeyIterator(this, options);
    try {
      await iterator.visit((key) => this.table.del(key));
    } finally {
      await iterator.close();
    }
  }

  _iterator(options: StoreIteratorOptions): SimEntryIterator {
    return new SimEntryIterator(this, options);
  }

  _keys(options: StoreIteratorOptions): SimKeyIterator {
    return new SimKeyIterator(this, options);
  }

  _values(options: StoreIteratorOptions): SimValueIterator {
    return new SimValueIterator(this, options);
  }

  _snapshot(options: object): SimSnapshot {
    return new SimSnapshot(this.table.copy(), options);
  }

  /**
   * Plain string batches go straight to `_batch` (adapters/storage/plainBatch.ts), with the same checks and the same
   * single await as abstract-level's, so every batch settles after the same microtasks as before.
   */
  // One signature over abstract-level's overloads (array form, or none for a chained batch); `never` fits each.
  override batch(...args: unknown[]): never {
    const [operations, options] = args;
    if (args.length > 0 && isPlainBatch(this as StoragePort, operations, options))
      return this.plainBatch(operations) as never;
    return (super.batch as (...rest: unknown[]) => never)(...args);
  }

  private async plainBatch(operations: readonly PlainOperation[]): Promise<void> {
    if (operations.length === 0) return;
    await this._batch(operations as WriteOp[]);
  }
}

const ASCII_RE = /^[\x00-\x7f]*$/;

function assertAsciiKey(key: string): void {
  if (!ASCII_RE.test(key))
    throw new Error(
      `simulated storage keeps ASCII keys only (production orders keys by UTF-8 bytes): ${JSON.stringify(key.slice(0, 80))}`,
    );
}

export function createSimStorage(): StoragePort {
  return new SimLevel() as unknown as StoragePort;
}

/**
 * The storage a restarted node finds after a crash: a new store holding exactly what was committed. The crashed
 * incarnation keeps its old handle; anything its leftover promise chains still write there is lost, as it would be
 * on a real crash. Call it from outside the run loop (between `runUntil` calls).
 */
export async function crashAndRecover(storage: StoragePort): Promise<StoragePort> {
  const recovered = createSimStorage();
  await recovered.open();
  const operations: { type: 'put'; key: string; value: string }[] = [];
  for await (const [key, value] of storage.iterator({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) {
    operations.push({ type: 'put', key, value });
  }
  await recovered.batch(operations);
  return recovered;
}
