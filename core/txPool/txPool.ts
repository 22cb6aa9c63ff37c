/**
 * The pending-transaction pool's data structure: txs by hash, by nullifier and by fee payer, and the priority order
 * (txPriority.ts). Its state changes only through `apply(change)`; the decisions that compute a change (admitTx.ts,
 * poolMaintenance.ts, pruneReturn.ts) are pure functions of the pool and their inputs.
 *
 * Invariants (checked by `verify()`, and by assertions on every change):
 * - no two pooled txs share a nullifier;
 * - the pool holds at most `capacity` txs;
 * - the order lists every pooled tx once, strictly sorted by `comparePooledTxs`;
 * - arrival sequences are unique and below `nextArrivalSequence`.
 *
 * A change carries the revision it was computed against; applying a stale change is a bug and fails an assertion,
 * so a caller must decide, write the change's storage ops, then apply, one change at a time.
 */
import type { Hex } from '../../spec/chain.js';
import { P2P_PENDING_TX_COUNT_MAX_DEFAULT } from '../../spec/config/schema.js';
import { assert } from '../assert.js';
import { NULLIFIERS_PER_TX_MAX, TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import { comparePooledTxs, type PooledTx } from './txPriority.js';

/** What one decision changes: txs removed (first), then txs added. */
export interface TxPoolChange {
  /** The pool revision the change was computed against. */
  readonly baseRevision: number;
  readonly removedTxHashes: readonly Hex[];
  readonly addedTxs: readonly PooledTx[];
  /** The arrival sequence the next newcomer takes once the change is applied. */
  readonly nextArrivalSequence: number;
}

export class TxPool {
  private readonly byHash = new Map<Hex, PooledTx>();
  /** Nullifier -> the one pooled tx emitting it. */
  private readonly byNullifier = new Map<Hex, Hex>();
  private readonly byFeePayer = new Map<Hex, Set<Hex>>();
  /** Every pooled tx, highest priority first. */
  private readonly order: PooledTx[] = [];
  private revisionValue = 0;

  private constructor(
    /** The most txs the pool holds. */
    readonly capacity: number,
    private nextSequence: number,
  ) {
    assert(Number.isSafeInteger(capacity) && capacity >= 1 && capacity <= TX_POOL_CAPACITY_MAX, `pool capacity ${capacity} is within 1..${TX_POOL_CAPACITY_MAX}`);
    assert(Number.isSafeInteger(nextSequence) && nextSequence >= 0, `next arrival sequence ${nextSequence} is a safe non-negative integer`);
  }

  static empty(capacity: number = P2P_PENDING_TX_COUNT_MAX_DEFAULT): TxPool {
    return new TxPool(capacity, 0);
  }

  /** A pool holding exactly `txs` (the loader's path); they must fit the capacity and the invariants. */
  static restore(capacity: number, txs: readonly PooledTx[], nextArrivalSequence: number): TxPool {
    const pool = new TxPool(capacity, nextArrivalSequence);
    pool.apply({ baseRevision: 0, removedTxHashes: [], addedTxs: txs, nextArrivalSequence });
    return pool;
  }

  /** Counts applied changes; a change computed against another revision is refused. */
  get revision(): number {
    return this.revisionValue;
  }

  get count(): number {
    return this.order.length;
  }

  get nextArrivalSequence(): number {
    return this.nextSequence;
  }

  get isFull(): boolean {
    return this.order.length >= this.capacity;
  }

  has(txHash: Hex): boolean {
    return this.byHash.has(txHash);
  }

  get(txHash: Hex): PooledTx | undefined {
    return this.byHash.get(txHash);
  }

  /** The pooled tx emitting `nullifier`, if any. */
  txHashOfNullifier(nullifier: Hex): Hex | undefined {
    return this.byNullifier.get(nullifier);
  }

  /** Pooled txs sharing a nullifier with `nullifiers`, each once, in pool order. */
  conflictingTxs(nullifiers: readonly Hex[]): PooledTx[] {
    assert(nullifiers.length <= NULLIFIERS_PER_TX_MAX, `a tx emits at most ${NULLIFIERS_PER_TX_MAX} nullifiers, got ${nullifiers.length}`);
    const found = new Map<Hex, PooledTx>();
    for (const nullifier of nullifiers) {
      const txHash = this.byNullifier.get(nullifier);
      if (txHash !== undefined) found.set(txHash, this.getKnown(txHash));
    }
    return [...found.values()].sort(comparePooledTxs);
  }

  /** Fee payers with at least one pooled tx, in ascending order (the same however the pool was built). */
  feePayers(): Hex[] {
    return [...this.byFeePayer.keys()].sort();
  }

  /** A fee payer's pooled txs, in pool order. */
  feePayerTxs(feePayer: Hex): PooledTx[] {
    const hashes = this.byFeePayer.get(feePayer);
    if (hashes === undefined) return [];
    return [...hashes].map((txHash) => this.getKnown(txHash)).sort(comparePooledTxs);
  }

  /** The lowest-ranked pooled tx not in `excluded`, if any. */
  lowest(excluded: ReadonlySet<Hex> = new Set()): PooledTx | undefined {
    for (let index = this.order.length - 1; index >= 0; index--) {
      const pooled = this.order[index]!;
      if (!excluded.has(pooled.txHash)) return pooled;
    }
    return undefined;
  }

  /** Position of a pooled tx in the order (0 = highest priority). */
  rankOf(txHash: Hex): number | undefined {
    const pooled = this.byHash.get(txHash);
    if (pooled === undefined) return undefined;
    const index = this.lowerBound(pooled);
    assert(this.order[index]?.txHash === txHash, `pooled tx ${txHash} is in the order`);
    return index;
  }

  /** Txs of the order in [start, end), highest priority first. */
  slice(start: number, end: number): readonly PooledTx[] {
    return this.order.slice(start, end);
  }

  /** Every pooled tx, highest priority first (a copy). */
  ordered(): readonly PooledTx[] {
    return [...this.order];
  }

  /** Applies a change computed against this revision. */
  apply(change: TxPoolChange): void {
    assert(change.baseRevision === this.revisionValue, `change computed against revision ${change.baseRevision}, pool is at ${this.revisionValue}`);
    assert(change.nextArrivalSequence >= this.nextSequence, 'the arrival sequence never goes back');
    assert(change.removedTxHashes.length <= this.order.length, 'a change removes only pooled txs');
    assert(change.addedTxs.length <= this.capacity, 'a change adds at most the capacity');
    for (const txHash of change.removedTxHashes) this.remove(txHash);
    for (const pooled of change.addedTxs) this.insert(pooled, change.nextArrivalSequence);
    assert(this.order.length <= this.capacity, `the pool holds at most ${this.capacity} txs, got ${this.order.length}`);
    this.nextSequence = change.nextArrivalSequence;
    this.revisionValue += 1;
  }

  /** An independent copy at the same revision (decisions work on a scratch copy when they go step by step). */
  clone(): TxPool {
    const copy = new TxPool(this.capacity, this.nextSequence);
    for (const [key, value] of this.byHash) copy.byHash.set(key, value);
    for (const [key, value] of this.byNullifier) copy.byNullifier.set(key, value);
    for (const [key, value] of this.byFeePayer) copy.byFeePayer.set(key, new Set(value));
    copy.order.push(...this.order);
    copy.revisionValue = this.revisionValue;
    return copy;
  }

  /** Checks every index against the others; throws an AssertionError at the first inconsistency. */
  verify(): void {
    assert(this.byHash.size === this.order.length, 'the order lists every pooled tx once');
    assert(this.order.length <= this.capacity, 'the pool is within its capacity');
    let nullifierCount = 0;
    const sequences = new Set<number>();
    this.order.forEach((pooled, index) => {
      const previous = this.order[index - 1];
      assert(previous === undefined || comparePooledTxs(previous, pooled) < 0, `the order is strictly sorted at ${index}`);
      assert(this.byHash.get(pooled.txHash) === pooled, `tx ${pooled.txHash} is indexed by hash`);
      assert(this.byFeePayer.get(pooled.tx.feePayer)?.has(pooled.txHash) === true, `tx ${pooled.txHash} is indexed by fee payer`);
      for (const nullifier of new Set(pooled.tx.sideEffects.nullifiers)) {
        assert(this.byNullifier.get(nullifier) === pooled.txHash, `nullifier ${nullifier} belongs to one pooled tx`);
        nullifierCount += 1;
      }
      assert(pooled.arrivalSequence < this.nextSequence && !sequences.has(pooled.arrivalSequence), 'arrival sequences are unique and issued');
      sequences.add(pooled.arrivalSequence);
    });
    assert(this.byNullifier.size === nullifierCount, 'the nullifier index holds only pooled txs');
    let payerTxCount = 0;
    for (const hashes of this.byFeePayer.values()) {
      assert(hashes.size > 0, 'a fee payer entry lists at least one tx');
      payerTxCount += hashes.size;
    }
    assert(payerTxCount === this.order.length, 'the fee payer index holds only pooled txs');
  }

  private getKnown(txHash: Hex): PooledTx {
    const pooled = this.byHash.get(txHash);
    assert(pooled !== undefined, `indexed tx ${txHash} is pooled`);
    return pooled;
  }

  private insert(pooled: PooledTx, nextArrivalSequence: number): void {
    const { txHash, tx } = pooled;
    assert(!this.byHash.has(txHash), `tx ${txHash} is not pooled yet`);
    assert(pooled.arrivalSequence < nextArrivalSequence, `tx ${txHash} has an issued arrival sequence`);
    assert(tx.sideEffects.nullifiers.length <= NULLIFIERS_PER_TX_MAX, `a tx emits at most ${NULLIFIERS_PER_TX_MAX} nullifiers`);
    for (const nullifier of tx.sideEffects.nullifiers) {
      const holder = this.byNullifier.get(nullifier);
      assert(holder === undefined || holder === txHash, `nullifier ${nullifier} of ${txHash} is not held by pooled tx ${holder}`);
      this.byNullifier.set(nullifier, txHash);
    }
    const payerTxs = this.byFeePayer.get(tx.feePayer) ?? new Set<Hex>();
    payerTxs.add(txHash);
    this.byFeePayer.set(tx.feePayer, payerTxs);
    this.byHash.set(txHash, pooled);
    this.order.splice(this.lowerBound(pooled), 0, pooled);
  }

  private remove(txHash: Hex): void {
    const pooled = this.getKnown(txHash);
    const index = this.lowerBound(pooled);
    assert(this.order[index]?.txHash === txHash, `pooled tx ${txHash} is in the order`);
    this.order.splice(index, 1);
    this.byHash.delete(txHash);
    for (const nullifier of pooled.tx.sideEffects.nullifiers) this.byNullifier.delete(nullifier);
    const payerTxs = this.byFeePayer.get(pooled.tx.feePayer);
    payerTxs?.delete(txHash);
    if (payerTxs?.size === 0) this.byFeePayer.delete(pooled.tx.feePayer);
  }

  /** First position whose tx does not rank above `pooled` (binary search). */
  private lowerBound(pooled: PooledTx): number {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePooledTxs(this.order[middle]!, pooled) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
