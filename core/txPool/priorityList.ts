/**
 * Pooled txs kept in pool order (txPriority.ts, `comparePooledTxs`), highest priority first, in a plain array. A tx's
 * place is found by binary search, so finding one costs O(log n) comparisons; inserting or removing one shifts the
 * entries after it (a memory move, which at the pool's sizes costs less than any tree's allocations; see
 * `npm run bench -- txpool`). The pool keeps one list for all its txs and one per fee payer. A list also keeps the
 * sum of its txs' max costs (a payer's list: what its pending txs may cost it together).
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { comparePooledTxs, type PooledTx } from './txPriority.js';

export class PriorityList {
  private constructor(
    private readonly entries: PooledTx[],
    private maxCostTotalValue: bigint,
  ) {}

  static empty(): PriorityList {
    return new PriorityList([], 0n);
  }

  /** A list holding `ordered` (copied, so its array is exactly as long), which must be strictly in pool order. */
  static fromOrdered(ordered: readonly PooledTx[]): PriorityList {
    const list = new PriorityList(ordered.slice(), 0n);
    assert(list.isStrictlyOrdered(), 'a list is built from txs in strict pool order');
    for (const pooled of ordered) list.addCost(pooled);
    return list;
  }

  get length(): number {
    return this.entries.length;
  }

  /** The sum of the listed txs' max costs. */
  get maxCostTotal(): bigint {
    return this.maxCostTotalValue;
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
    this.addCost(pooled);
  }

  /** Takes `pooled` out; it must be listed. */
  remove(pooled: PooledTx): void {
    const index = this.indexOf(pooled);
    assert(index !== undefined, `tx ${pooled.txHash} is listed`);
    this.entries.splice(index, 1);
    this.maxCostTotalValue -= pooled.maxCost;
  }

  /** The listed txs without a copy: valid until the list next changes, and never to be modified. */
  view(): readonly PooledTx[] {
    return this.entries;
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
    return new PriorityList(this.entries.slice(), this.maxCostTotalValue);
  }

  /** Whether the total is the sum of the listed txs' max costs. */
  isTotalExact(): boolean {
    return this.entries.reduce((sum, pooled) => sum + pooled.maxCost, 0n) === this.maxCostTotalValue;
  }

  /** Every adjacent pair in strict pool order (what `verify()` of the pool checks). */
  isStrictlyOrdered(): boolean {
    for (let index = 1; index < this.entries.length; index++) {
      if (comparePooledTxs(this.entries[index - 1]!, this.entries[index]!) >= 0) return false;
    }
    return true;
  }

  private addCost(pooled: PooledTx): void {
    // A negative cost would break the walk's shortcut (feePayerWalk.ts): a covered total covers every running sum.
    assert(pooled.maxCost >= 0n, `tx ${pooled.txHash} has a non-negative max cost`);
    this.maxCostTotalValue += pooled.maxCost;
  }

  private lowerBound(pooled: PooledTx): number {
    return placeInOrder(this.entries, pooled);
  }
}

/** The first position in `ordered` (strictly in pool order) whose tx does not rank above `pooled` (binary search). */
export function placeInOrder(ordered: readonly PooledTx[], pooled: PooledTx): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (comparePooledTxs(ordered[middle]!, pooled) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
