import { assert } from '../core/assert.js';

/**
 * The simulated store's table: string keys to string values, with the keys also kept sorted for range reads.
 *
 * Values are in a Map, so a point read is one hash lookup. The sorted keys are a list of short sorted chunks (as in
 * Python's sortedcontainers): a new key is spliced into one chunk, found by binary search over the chunks' last keys,
 * and a chunk that grows past SORTED_TABLE_CHUNK_KEYS_MAX splits in two. A write costs O(log n) comparisons and a
 * short copy, and allocates nothing per write (the persistent red-black tree this replaced allocated a path of tree
 * nodes per write and compared strings down the tree per read).
 */

/** Keys a chunk of the sorted list holds at most before it splits in two. */
export const SORTED_TABLE_CHUNK_KEYS_MAX = 512;

export type TableEntry = readonly [key: string, value: string];

/** Which keys a range read covers, in the store's options (abstract-level's names). */
export interface KeyRange {
  readonly gt?: string;
  readonly gte?: string;
  readonly lt?: string;
  readonly lte?: string;
  readonly reverse?: boolean;
  /** Entries at most; Infinity for all. */
  readonly limit: number;
}

/** A position in the sorted list: a chunk, and a key in it. */
interface Position {
  chunk: number;
  index: number;
}

export class SortedStringTable {
  private readonly values: Map<string, string>;
  /** Sorted, non-empty chunks, each sorted, every key of one below every key of the next. */
  private readonly chunks: string[][];

  constructor(values = new Map<string, string>(), chunks: string[][] = []) {
    this.values = values;
    this.chunks = chunks;
  }

  get size(): number {
    return this.values.size;
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  put(key: string, value: string): void {
    if (!this.values.has(key)) this.insertKey(key);
    this.values.set(key, value);
  }

  del(key: string): void {
    if (this.values.delete(key)) this.removeKey(key);
  }

  /** A frozen copy: later writes to this table do not show in it. */
  copy(): SortedStringTable {
    return new SortedStringTable(
      new Map(this.values),
      this.chunks.map((chunk) => chunk.slice()),
    );
  }

  /** The entries in `range`, in its order, read now: later writes do not change what was returned. */
  entries(range: KeyRange): TableEntry[] {
    const out: TableEntry[] = [];
    if (range.limit <= 0) return out;
    const start = this.lowerBound(range);
    const stop = this.upperBound(range);
    if (range.reverse === true) {
      const at = { ...stop };
      while (out.length < range.limit && this.stepBack(at) && !before(at, start)) out.push(this.entryAt(at));
    } else {
      const at = { ...start };
      while (out.length < range.limit && before(at, stop)) {
        out.push(this.entryAt(at));
        this.stepForward(at);
      }
    }
    return out;
  }

  /** Every key, sorted by UTF-16 code units (the same order as UTF-8 bytes for the ASCII keys the store admits). */
  sortedKeys(): string[] {
    return this.chunks.flat();
  }

  private entryAt({ chunk, index }: Position): TableEntry {
    const key = this.chunks[chunk]![index]!;
    return [key, this.values.get(key)!];
  }

  private stepForward(at: Position): void {
    if (++at.index < this.chunks[at.chunk]!.length) return;
    at.chunk++;
    at.index = 0;
  }

  /** Moves one key back; false at the start of the list. */
  private stepBack(at: Position): boolean {
    if (at.index > 0) {
      at.index--;
      return true;
    }
    if (at.chunk === 0) return false;
    at.chunk--;
    at.index = this.chunks[at.chunk]!.length - 1;
    return true;
  }

  private insertKey(key: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      return;
    }
    const c = Math.min(this.chunkFor(key), this.chunks.length - 1);
    const chunk = this.chunks[c]!;
    chunk.splice(firstAtOrAbove(chunk, key), 0, key);
    if (chunk.length > SORTED_TABLE_CHUNK_KEYS_MAX) this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  private removeKey(key: string): void {
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    const at = firstAtOrAbove(chunk, key);
    assert(chunk[at] === key, 'a key in the map is in the sorted list');
    chunk.splice(at, 1);
    if (chunk.length === 0) this.chunks.splice(c, 1);
  }

  /** The first chunk whose last key is >= key (chunks.length when every key is below it). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid]!;
      if (chunk[chunk.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The position of the first key >= key (or > key when `strict`); past the end when none. */
  private seek(key: string, strict: boolean): Position {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const last = this.chunks[mid]![this.chunks[mid]!.length - 1]!;
      if (strict ? last <= key : last < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.chunks.length) return { chunk: lo, index: 0 };
    const chunk = this.chunks[lo]!;
    return { chunk: lo, index: strict ? firstAbove(chunk, key) : firstAtOrAbove(chunk, key) };
  }

  /** The first position inside the range's lower bound. */
  private lowerBound(range: KeyRange): Position {
    if (range.gte !== undefined) return this.seek(range.gte, false);
    if (range.gt !== undefined) return this.seek(range.gt, true);
    return { chunk: 0, index: 0 };
  }

  /** The first position past the range's upper bound. */
  private upperBound(range: KeyRange): Position {
    if (range.lte !== undefined) return this.seek(range.lte, true);
    if (range.lt !== undefined) return this.seek(range.lt, false);
    return { chunk: this.chunks.length, index: 0 };
  }
}

/** Whether position a comes before position b. */
function before(a: Position, b: Position): boolean {
  return a.chunk < b.chunk || (a.chunk === b.chunk && a.index < b.index);
}

/** The first index whose key is >= key. */
function firstAtOrAbove(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose key is > key. */
function firstAbove(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
