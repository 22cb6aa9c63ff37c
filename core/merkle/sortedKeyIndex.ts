import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { SORTED_INDEX_CHUNK_KEYS_MAX } from '../../spec/constants.js';

/** Where a key of an indexed tree sits and which block inserted it. */
export interface KeyPlacement {
  readonly leafIndex: number;
  readonly blockNumber: number;
}

/**
 * The keys of an indexed tree in sorted order, in memory: exact lookups through a Map, neighbours through a list of
 * sorted chunks (each at most SORTED_INDEX_CHUNK_KEYS_MAX keys), so an insert moves at most one chunk. Keys are
 * 32-byte lowercase hex, whose string order is their numeric order.
 */
export class SortedKeyIndex {
  private readonly placements = new Map<Hex, KeyPlacement>();
  private chunks: Hex[][] = [[]];

  get size(): number {
    return this.placements.size;
  }

  get(key: Hex): KeyPlacement | undefined {
    return this.placements.get(key);
  }

  insert(key: Hex, placement: KeyPlacement): void {
    assert(!this.placements.has(key), `key ${key} is not in the index yet`);
    this.placements.set(key, placement);
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    chunk.splice(lowerBound(chunk, key), 0, key);
    if (chunk.length > SORTED_INDEX_CHUNK_KEYS_MAX) {
      this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1));
    }
  }

  delete(key: Hex): void {
    if (!this.placements.delete(key)) return;
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    const at = lowerBound(chunk, key);
    assert(chunk[at] === key, 'a placed key is in its chunk');
    chunk.splice(at, 1);
    if (chunk.length === 0 && this.chunks.length > 1) this.chunks.splice(c, 1);
  }

  /**
   * The largest key below `key` whose placement `accept` takes (all when omitted), walking down at most
   * `stepsMax` keys.
   */
  predecessor(
    key: Hex,
    accept?: (placement: KeyPlacement) => boolean,
    stepsMax = Number.POSITIVE_INFINITY,
  ): [Hex, KeyPlacement] | undefined {
    let c = this.chunkFor(key);
    let at = lowerBound(this.chunks[c]!, key) - 1;
    for (let steps = 0; steps < stepsMax; steps++) {
      while (at < 0) {
        if (c === 0) return undefined;
        c--;
        at = this.chunks[c]!.length - 1;
      }
      const candidate = this.chunks[c]![at]!;
      const placement = this.placements.get(candidate)!;
      if (accept === undefined || accept(placement)) return [candidate, placement];
      at--;
    }
    return undefined;
  }

  /** The smallest key above `key` whose placement `accept` takes (all when omitted). */
  successor(key: Hex, accept?: (placement: KeyPlacement) => boolean): [Hex, KeyPlacement] | undefined {
    let c = this.chunkFor(key);
    let at = upperBound(this.chunks[c]!, key);
    for (;;) {
      while (at >= this.chunks[c]!.length) {
        if (c === this.chunks.length - 1) return undefined;
        c++;
        at = 0;
      }
      const candidate = this.chunks[c]![at]!;
      const placement = this.placements.get(candidate)!;
      if (accept === undefined || accept(placement)) return [candidate, placement];
      at++;
    }
  }

  /** Every key with its placement, in key order. */
  *entries(): IterableIterator<[Hex, KeyPlacement]> {
    for (const chunk of this.chunks) for (const key of chunk) yield [key, this.placements.get(key)!];
  }

  /** The chunk that holds `key` or would: the last one whose first key is not above it. */
  private chunkFor(key: Hex): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      const first = this.chunks[mid]![0];
      if (first !== undefined && first <= key) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

/** First position whose key is not below `key`. */
function lowerBound(keys: readonly Hex[], key: Hex): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (keys[mid]! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** First position whose key is above `key`. */
function upperBound(keys: readonly Hex[], key: Hex): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (keys[mid]! <= key) low = mid + 1;
    else high = mid;
  }
  return low;
}
