/**
 * The simulator's store: an abstract-level database over a mutable B+ tree (sorted-btree), keys and values utf8
 * strings. It replaces memory-level, whose persistent red-black tree allocates a new path of nodes for every write:
 * that tree was the largest allocator of a simulated run, and its long-lived nodes made every young-generation
 * collection copy them. Here a write changes the tree in place.
 *
 * Readers still see one version, as abstract-level promises: an iterator (an implicit snapshot) or an explicit
 * snapshot holds the tree as it was when it was made. While any reader holds the current tree, the next write first
 * moves the store to a copy-on-write clone of it (`BTree.clone`, which shares every node until one is written), so
 * a held version is never changed. A write with no reader open pays nothing for this.
 *
 * Every hook has the shape of memory-level's (async, the same awaits), so a write or a read settles after the same
 * microtasks as it did there: the order in which a simulated node's concurrent continuations run, and so every trace
 * hash, does not depend on which of the two stores is underneath.
 */
import {
  AbstractIterator,
  AbstractKeyIterator,
  AbstractLevel,
  AbstractSnapshot,
  AbstractValueIterator,
  type AbstractIteratorOptions,
} from 'abstract-level';
import sortedBtree from 'sorted-btree';
import { isPlainBatch, type PlainOperation } from '../adapters/storage/plainBatch.js';

// sorted-btree is CommonJS with `exports.default`: Node's ESM loader hands its default import the whole exports
// object, a bundler's (vitest) the class itself.
const BTree: typeof sortedBtree.default =
  (sortedBtree as unknown as { default?: typeof sortedBtree.default }).default ??
  (sortedBtree as unknown as typeof sortedBtree.default);
type Tree = InstanceType<typeof BTree<string, string>>;
type Entry = [key: string, value: string];

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const emptyTree = (): Tree => new BTree<string, string>(undefined, compareStrings);

/** The range options of a read, as abstract-level hands them to an implementation (already encoded). */
interface RangeOptions {
  readonly gt?: string;
  readonly gte?: string;
  readonly lt?: string;
  readonly lte?: string;
  readonly reverse?: boolean;
  readonly limit?: number;
  readonly snapshot?: unknown;
}

type WriteOperation = PlainOperation;

/**
 * Keys are compared as JavaScript strings (UTF-16 code units); classic-level orders keys by their UTF-8 bytes. The two
 * orders agree on ASCII, and every key the node writes is ASCII (fixed prefixes, decimal numbers, hex), so this store
 * refuses any other key rather than let the simulator order keys unlike production. (Strings rather than bytes:
 * encoding each key to a buffer and comparing keys byte by byte in JavaScript was a tenth of a simulated node's time.)
 */
const ASCII_RE = /^[\x00-\x7f]*$/;

function assertAsciiKey(key: string): void {
  if (!ASCII_RE.test(key))
    throw new Error(
      `simulated storage keeps ASCII keys only (production orders keys by UTF-8 bytes): ${JSON.stringify(key.slice(0, 80))}`,
    );
}

/**
 * Walks one version of the tree over a range, in key order or reversed. The near bound is where the walk starts
 * (gte/gt forwards, lte/lt in reverse); the far bound ends it.
 */
class Cursor {
  readonly #tree: Tree;
  readonly #options: RangeOptions;
  #source: Iterator<Entry>;
  /** A key equal to the exclusive near bound (gt) to pass over at the start of a forward walk. */
  #skip: string | undefined;
  #ended = false;

  constructor(tree: Tree, options: RangeOptions) {
    this.#tree = tree;
    this.#options = options;
    if (options.reverse === true) {
      const high = 'lte' in options ? options.lte : options.lt;
      this.#source = tree.entriesReversed(high, undefined, !('lte' in options) && 'lt' in options);
      this.#skip = undefined;
    } else {
      this.#source = tree.entries('gte' in options ? options.gte : options.gt);
      this.#skip = 'gte' in options ? undefined : options.gt;
    }
  }

  /** The next entry in range, or undefined once the walk is over. */
  take(): Entry | undefined {
    if (this.#ended) return undefined;
    for (;;) {
      const step = this.#source.next();
      if (step.done === true) break;
      const entry = step.value;
      if (this.#skip !== undefined && entry[0] === this.#skip) {
        this.#skip = undefined;
        continue;
      }
      this.#skip = undefined;
      if (this.#withinFarBound(entry[0])) return entry;
      break;
    }
    this.#ended = true;
    return undefined;
  }

  /** Moves to the first key at or after `target` in walk order; past the range's ends, the walk is over. */
  seek(target: string): void {
    this.#skip = undefined;
    this.#ended = !this.#withinFarBound(target) || !this.#withinNearBound(target);
    if (this.#ended) return;
    this.#source = this.#options.reverse === true ? this.#tree.entriesReversed(target) : this.#tree.entries(target);
  }

  #withinFarBound(key: string): boolean {
    const o = this.#options;
    if (o.reverse === true) {
      if ('gte' in o) return key >= o.gte!;
      return !('gt' in o) || key > o.gt!;
    }
    if ('lte' in o) return key <= o.lte!;
    return !('lt' in o) || key < o.lt!;
  }

  #withinNearBound(key: string): boolean {
    const o = this.#options;
    if (o.reverse === true) {
      if ('lte' in o) return key <= o.lte!;
      return !('lt' in o) || key < o.lt!;
    }
    if ('gte' in o) return key >= o.gte!;
    return !('gt' in o) || key > o.gt!;
  }
}

/** What every iterator of this store is given: its cursor, and how to tell the store it no longer holds the tree. */
interface IteratorSource {
  readonly cursor: Cursor;
  readonly release: () => void;
}

const noRelease = (): void => {};

/** A cursor over the store's current tree, which it holds until released (once). */
class HeldSource implements IteratorSource {
  #release: (() => void) | undefined;
  constructor(
    readonly cursor: Cursor,
    release: () => void,
  ) {
    this.#release = release;
  }
  release(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

/** Takes up to `size` items off `cursor`, each mapped by `pick`. */
function takeMany<T>(cursor: Cursor, size: number, pick: (entry: Entry) => T): T[] {
  const items: T[] = [];
  while (items.length < size) {
    const entry = cursor.take();
    if (entry === undefined) break;
    items.push(pick(entry));
  }
  return items;
}

const pickEntry = (entry: Entry): Entry => entry;
const pickKey = (entry: Entry): string => entry[0];
const pickValue = (entry: Entry): string => entry[1];

/** What a cursor-backed iterator needs of abstract-level's iterator classes (their protected hooks are untyped). */
type IteratorBase = new (
  db: SimLevel,
  options: AbstractIteratorOptions<string, string>,
) => {
  readonly limit: number;
  readonly count: number;
};

/**
 * An abstract-level iterator class over a cursor, yielding `pick` of each entry: the entry, key and value iterators
 * differ only in their base class and in what they take of an entry.
 */
function cursorIterator<T>(Base: IteratorBase, pick: (entry: Entry) => T) {
  return class extends Base {
    readonly #source: IteratorSource;
    constructor(db: SimLevel, options: AbstractIteratorOptions<string, string>, source: IteratorSource) {
      super(db, options);
      this.#source = source;
    }
    async _next(): Promise<T | undefined> {
      const entry = this.#source.cursor.take();
      return entry === undefined ? undefined : pick(entry);
    }
    async _nextv(size: number): Promise<T[]> {
      return takeMany(this.#source.cursor, size, pick);
    }
    async _all(): Promise<T[]> {
      return takeMany(this.#source.cursor, this.limit - this.count, pick);
    }
    _seek(target: string): void {
      this.#source.cursor.seek(target);
    }
    async _close(): Promise<void> {
      this.#source.release();
    }
  };
}

const SimEntryIterator = cursorIterator(AbstractIterator as unknown as IteratorBase, pickEntry);
const SimKeyIterator = cursorIterator(AbstractKeyIterator as unknown as IteratorBase, pickKey);
const SimValueIterator = cursorIterator(AbstractValueIterator as unknown as IteratorBase, pickValue);
type CursorIterator = InstanceType<ReturnType<typeof cursorIterator>>;

/** abstract-level's snapshot, whose constructor (it takes the options naming its owner) its types leave out. */
const SnapshotBase = AbstractSnapshot as unknown as new (options: object) => AbstractSnapshot;

/** An explicit snapshot: the tree as it was when the snapshot was taken. */
class SimSnapshot extends SnapshotBase {
  readonly tree: Tree;
  readonly #release: () => void;
  constructor(tree: Tree, release: () => void, options: object) {
    super(options);
    this.tree = tree;
    this.#release = release;
  }
  async _close(): Promise<void> {
    this.#release();
  }
}

export class SimLevel extends AbstractLevel<string | Uint8Array, string, string> {
  #tree: Tree;
  /** Readers (open iterators and snapshots) holding `#tree`: while there are any, a write clones it first. */
  #readers = 0;

  constructor(tree: Tree = emptyTree()) {
    super(
      // getSync is abstract-level 3's, missing from its manifest type.
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
    this.#tree = tree;
  }

  /** A new store holding exactly what this one holds now; later writes to either do not reach the other. */
  copy(): SimLevel {
    return new SimLevel(this.#tree.clone());
  }

  // _put and _batch check, then return the promise of the write: the extra promise is deliberate. The store this one
  // replaced settled every write after exactly these microtasks (a check wrapped around memory-level's write), and
  // a different count would reorder simulated nodes' continuations and so change trace hashes.
  async _put(key: string, value: string): Promise<void> {
    assertAsciiKey(key);
    return this.#put(key, value);
  }

  async #put(key: string, value: string): Promise<void> {
    this.#writable().set(key, value);
  }

  async _get(key: string, options: RangeOptions): Promise<string | undefined> {
    return this.#readable(options).get(key);
  }

  _getSync(key: string, options: RangeOptions): string | undefined {
    return this.#readable(options).get(key);
  }

  async _getMany(keys: string[], options: RangeOptions): Promise<(string | undefined)[]> {
    const tree = this.#readable(options);
    return keys.map((key) => tree.get(key));
  }

  async _has(key: string, options: RangeOptions): Promise<boolean> {
    return this.#readable(options).has(key);
  }

  async _hasMany(keys: string[], options: RangeOptions): Promise<boolean[]> {
    const tree = this.#readable(options);
    return keys.map((key) => tree.has(key));
  }

  async _del(key: string): Promise<void> {
    this.#writable().delete(key);
  }

  async _batch(operations: readonly WriteOperation[]): Promise<void> {
    for (const op of operations) if (op.type === 'put') assertAsciiKey(op.key);
    return this.#batch(operations);
  }

  async #batch(operations: readonly WriteOperation[]): Promise<void> {
    const tree = this.#writable();
    for (const op of operations) {
      if (op.type === 'put') tree.set(op.key, op.value!);
      else tree.delete(op.key);
    }
  }

  async _clear(options: RangeOptions): Promise<void> {
    const ranged = ['gt', 'gte', 'lt', 'lte'].some((name) => name in options);
    if (options.limit === -1 && !ranged && options.snapshot == null) {
      this.#tree = emptyTree();
      this.#readers = 0;
      return;
    }
    // In one go, unlike memory-level, which yields to the event loop every 500 keys: under the simulator nothing may
    // wait on a real macrotask (sim/scheduler.ts), or the work would outlive the event that started it.
    const source = this.#iteratorSource(options);
    const limit = options.limit === -1 || options.limit === undefined ? Infinity : options.limit;
    const doomed = takeMany(source.cursor, limit, pickKey);
    source.release();
    const tree = this.#writable();
    for (const key of doomed) tree.delete(key);
  }

  /**
   * Plain string batches go straight to `_batch` (adapters/storage/plainBatch.ts), with the same checks and the same
   * single await as abstract-level's, so every batch settles after the same microtasks as through abstract-level.
   */
  // One signature over abstract-level's overloads (array form, or none for a chained batch); `never` fits each.
  override batch(...args: unknown[]): never {
    const [operations, options] = args;
    if (args.length > 0 && isPlainBatch(this, operations, options)) return this.#plainBatch(operations) as never;
    return (super.batch as (...rest: unknown[]) => never)(...args);
  }

  async #plainBatch(operations: readonly PlainOperation[]): Promise<void> {
    if (operations.length === 0) return;
    await this._batch(operations);
  }

  _iterator(options: AbstractIteratorOptions<string, string>): CursorIterator {
    return new SimEntryIterator(this, options, this.#iteratorSource(options));
  }

  _keys(options: AbstractIteratorOptions<string, string>): CursorIterator {
    return new SimKeyIterator(this, options, this.#iteratorSource(options));
  }

  _values(options: AbstractIteratorOptions<string, string>): CursorIterator {
    return new SimValueIterator(this, options, this.#iteratorSource(options));
  }

  _snapshot(options: object): SimSnapshot {
    const tree = this.#hold();
    return new SimSnapshot(tree, () => this.#release(tree), options);
  }

  #iteratorSource(options: RangeOptions): IteratorSource {
    const snapshot = options.snapshot;
    if (snapshot instanceof SimSnapshot) return { cursor: new Cursor(snapshot.tree, options), release: noRelease };
    const tree = this.#hold();
    return new HeldSource(new Cursor(tree, options), () => this.#release(tree));
  }

  #readable(options: RangeOptions): Tree {
    return options.snapshot instanceof SimSnapshot ? options.snapshot.tree : this.#tree;
  }

  #hold(): Tree {
    this.#readers++;
    return this.#tree;
  }

  #release(tree: Tree): void {
    if (tree === this.#tree) this.#readers--;
  }

  /** The tree to write to: `#tree` itself, or, while a reader holds it, a copy-on-write clone that replaces it. */
  #writable(): Tree {
    if (this.#readers > 0) {
      this.#tree = this.#tree.clone();
      this.#readers = 0;
    }
    return this.#tree;
  }
}
