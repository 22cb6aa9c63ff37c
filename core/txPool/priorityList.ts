/**
 * Pooled txs kept in pool order (txPriority.ts, `comparePooledTxs`), highest priority first, in a plain array. A tx's
 * place is found by binary search, so finding one costs O(log n) comparisons; inserting or removing one shifts the
 * entries after it (a memory move, which at the pool's sizes costs less than any tree's allocations; see
 * `npm run bench -- txpool`). The pool keeps one list for all its txs and one per fee payer.
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { comparePooledTxs, type PooledTx } from './txPriority.js';

export class PriorityList {
  private constructor(private readonly entries: PooledTx[]) {}

  static empty(): PriorityList {
    return new PriorityList([]);
  }

  /** A list holding `ordered` (copied), which must already be strictly in pool order. */
  static fromOrdered(ordered: readonly PooledTx[]): PriorityList {
    const list = new PriorityList(ordered.slice());
    assert(list.isStrictlyOrdered(), 'a list is built from txs in strict pool order');
    return list;
  }

  get length(): number {
    return this.entries.length;
  }

  /** The tx at `index` (0 = highest priority), if any. */
  at(index: number): PooledTx | undefined {
    return this.entries[index];
  }

  /** Where `pooled` is, or undefined when this list does not hold it. */
  indexOf(pooled: PooledTx): number | undefined {
    const index = this.lowerBound(pooled);
    return this.entries[index]?.txHash === pooled.txHash ? index : undefined;
  }

  /** Puts `pooled` at its place; it must not be listed yet. */
  insert(pooled: PooledTx): void {
    const index = this.lowerBound(pooled);
    assert(this.entries[index]?.txHash !== pooled.txHash, `tx ${pooled.txHash} is listed once`);
    this.entries.splice(index, 0, pooled);
  }

  /** Takes `pooled` out; it must be listed. */
  remove(pooled: PooledTx): void {
    const index = this.indexOf(pooled);
    assert(index !== undefined, `tx ${pooled.txHash} is listed`);
    this.entries.splice(index, 1);
  }

  /** Txs in [start, end), highest priority first (a copy). */
  slice(start?: number, end?: number): PooledTx[] {
    return this.entries.slice(start, end);
  }

  /** The lowest-ranked tx whose hash is not in `excluded`, if any. */
  lowest(excluded: ReadonlySet<Hex>): PooledTx | undefined {
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const pooled = this.entries[index]!;
      if (!excluded.has(pooled.txHash)) return pooled;
    }
    return undefined;
  }

  /** An independent copy. */
  clone(): PriorityList {
    return new PriorityList(this.entries.slice());
  }

  /** Every adjacent pair in strict pool order (what `verify()` of the pool checks). */
  isStrictlyOrdered(): boolean {
    for (let index = 1; index < this.entries.length; index++) {
      if (comparePooledTxs(this.entries[index - 1]!, this.entries[index]!) >= 0) return false;
    }
    return true;
  }

  /** First position whose tx does not rank above `pooled`. */
  private lowerBound(pooled: PooledTx): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePooledTxs(this.entries[middle]!, pooled) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
