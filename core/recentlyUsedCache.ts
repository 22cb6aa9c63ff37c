/**
 * A bounded map that keeps the most recently used entries: reading or writing an entry makes it the newest, and the
 * oldest leaves when a write would exceed the bound. For memos of pure functions and decoded copies of stored values;
 * an entry may hold `undefined` (a remembered "none").
 */
import { assert } from './assert.js';

export class RecentlyUsedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {
    assert(Number.isSafeInteger(max) && max > 0, `a cache holds at least one entry (${max})`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The entry, made the newest; undefined when absent (or when it holds undefined). */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** The entry for `key`, computed and kept when absent. */
  getOrCompute(key: K, compute: () => V): V {
    if (this.entries.has(key)) return this.get(key) as V;
    const value = compute();
    this.set(key, value);
    return value;
  }
}
