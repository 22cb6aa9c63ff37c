/**
 * The pending-transaction pool's data structure: txs by hash, by nullifier and by fee payer, and the priority order
 * (txPriority.ts). The order is kept twice, as sorted lists (priorityList.ts): over the whole pool, and per fee payer
 * with the sum of the payer's max costs, so the fee payer balance walk (feePayerWalk.ts) reads a payer's txs in order
 * without sorting them, and skips the walk when the sum is covered. Its state changes only through `apply(change)`; the decisions that compute a change (admitTx.ts,
 * poolMaintenance.ts, pruneReturn.ts) are pure functions of the pool and their inputs.
 *
 * Invariants (checked by `verify()`, and by assertions on every change):
 * - no two pooled txs share a nullifier;
 * - the pool holds at most `capacity` txs;
 * - the order lists every pooled tx once, strictly sorted by `comparePooledTxs`;
 * - each fee payer's list holds exactly the payer's pooled txs, in the same order, and its total is their max costs'
 *   sum; a payer with no pooled tx has no entry;
 * - arrival sequences are unique and below `nextArrivalSequence`.
 *
 * A change carries the revision it was computed against; applying a stale change is a bug and fails an assertion,
 * so a caller must decide, write the change's storage ops, then apply, one change at a time.
 */
import type { Hex } from '../../spec/chain.js';
import { P2P_PENDING_TX_COUNT_MAX_DEFAULT } from '../../spec/config/schema.js';
import { assert } from '../assert.js';
import { NULLIFIERS_PER_TX_MAX, TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import { PriorityList } from './priorityList.js';
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
  /** Fee payer -> its pooled txs, in pool order, with what they may cost together. */
  private readonly byFeePayer = new Map<Hex, PriorityList>();
  /** Every pooled tx, highest priority first. */
  private order = PriorityList.empty();
  private revisionValue = 0;

  private constructor(
    /** The most txs the pool holds. */
    readonly capacity: number,
    private nextSequence: number,
  ) {
    assert(
      Number.isSafeInteger(capacity) && capacity >= 1 && capacity <= TX_POOL_CAPACITY_MAX,
      `pool capacity ${capacity} is within 1..${TX_POOL_CAPACITY_MAX}`,
    );
    assert(
      Number.isSafeInteger(nextSequence) && nextSequence >= 0,
      `next arrival sequence ${nextSequence} is a safe non-negative integer`,
    );
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
    assert(
      nullifiers.length <= NULLIFIERS_PER_TX_MAX,
      `a tx emits at most ${NULLIFIERS_PER_TX_MAX} nullifiers, got ${nullifiers.length}`,
    );
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

  /** A fee payer's pooled txs, in pool order (a copy; no sorting, the payer's list is kept in order). */
  feePayerTxs(feePayer: Hex): PooledTx[] {
    return this.byFeePayer.get(feePayer)?.slice() ?? [];
  }

  /** A fee payer's pooled txs, in pool order, without a copy: read it before the pool's next change. */
  feePayerTxsView(feePayer: Hex): readonly PooledTx[] {
    return this.byFeePayer.get(feePayer)?.view() ?? [];
  }

  /** What a fee payer's pooled txs may cost together (the sum of their max costs; 0 without any). */
  feePayerMaxCostTotal(feePayer: Hex): bigint {
    return this.byFeePayer.get(feePayer)?.maxCostTotal ?? 0n;
  }

  /** The lowest-ranked pooled tx not in `excluded`, if any. */
  lowest(excluded: ReadonlySet<Hex> = new Set()): PooledTx | undefined {
    return this.order.lowest(excluded);
  }

  /** Position of a pooled tx in the order (0 = highest priority). */
  rankOf(txHash: Hex): number | undefined {
    const pooled = this.byHash.get(txHash);
    if (pooled === undefined) return undefined;
    const index = this.order.indexOf(pooled);
    assert(index !== undefined, `pooled tx ${txHash} is in the order`);
    return index;
  }

  /** Txs of the order in [start, end), highest priority first. */
  slice(start: number, end: number): readonly PooledTx[] {
    return this.order.slice(start, end);
  }

  /** Every pooled tx, highest priority first (a copy). */
  ordered(): readonly PooledTx[] {
    return this.order.slice();
  }

  /** Applies a change computed against this revision. */
  apply(change: TxPoolChange): void {
    assert(
      change.baseRevision === this.revisionValue,
      `change computed against revision ${change.baseRevision}, pool is at ${this.revisionValue}`,
    );
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
    for (const [key, value] of this.byFeePayer) copy.byFeePayer.set(key, value.clone());
    copy.order = this.order.clone();
    copy.revisionValue = this.revisionValue;
    return copy;
  }

  /** Checks every index against the others; throws an AssertionError at the first inconsistency. */
  verify(): void {
    assert(this.byHash.size === this.order.length, 'the order lists every pooled tx once');
    assert(this.order.length <= this.capacity, 'the pool is within its capacity');
    assert(this.order.isStrictlyOrdered(), 'the order is strictly sorted');
    let nullifierCount = 0;
    const sequences = new Set<number>();
    const payerLists = new Map<Hex, PooledTx[]>();
    for (const pooled of this.order.slice()) {
      assert(this.byHash.get(pooled.txHash) === pooled, `tx ${pooled.txHash} is indexed by hash`);
      const payerList = payerLists.get(pooled.tx.feePayer) ?? [];
      payerList.push(pooled);
      payerLists.set(pooled.tx.feePayer, payerList);
      for (const nullifier of new Set(pooled.tx.sideEffects.nullifiers)) {
        assert(this.byNullifier.get(nullifier) === pooled.txHash, `nullifier ${nullifier} belongs to one pooled tx`);
        nullifierCount += 1;
      }
      assert(
        pooled.arrivalSequence < this.nextSequence && !sequences.has(pooled.arrivalSequence),
        'arrival sequences are unique and issued',
      );
      sequences.add(pooled.arrivalSequence);
    }
    assert(this.byNullifier.size === nullifierCount, 'the nullifier index holds only pooled txs');
    assert(this.byFeePayer.size === payerLists.size, 'the fee payer index has an entry for exactly the pooled payers');
    for (const [feePayer, expected] of payerLists) this.verifyFeePayer(feePayer, expected);
  }

  /** The payer's entry lists `expected` (its pooled txs, in pool order) and totals their max costs. */
  private verifyFeePayer(feePayer: Hex, expected: readonly PooledTx[]): void {
    const payerTxs = this.byFeePayer.get(feePayer);
    assert(payerTxs !== undefined, `fee payer ${feePayer} is indexed`);
    const listed = payerTxs.slice();
    assert(
      listed.length === expected.length && listed.every((pooled, index) => pooled === expected[index]),
      `fee payer ${feePayer} lists its pooled txs in pool order`,
    );
    assert(payerTxs.isTotalExact(), `fee payer ${feePayer}'s total ${payerTxs.maxCostTotal} is its txs' max cost sum`);
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
    assert(
      tx.sideEffects.nullifiers.length <= NULLIFIERS_PER_TX_MAX,
      `a tx emits at most ${NULLIFIERS_PER_TX_MAX} nullifiers`,
    );
    for (const nullifier of tx.sideEffects.nullifiers) {
      const holder = this.byNullifier.get(nullifier);
      assert(
        holder === undefined || holder === txHash,
        `nullifier ${nullifier} of ${txHash} is not held by pooled tx ${holder}`,
      );
      this.byNullifier.set(nullifier, txHash);
    }
    const payerTxs = this.byFeePayer.get(tx.feePayer);
    // Most payers have one pooled tx: its list starts with an array of exactly one entry.
    if (payerTxs === undefined) this.byFeePayer.set(tx.feePayer, PriorityList.fromOrdered([pooled]));
    else payerTxs.insert(pooled);
    this.byHash.set(txHash, pooled);
    this.order.insert(pooled);
  }

  private remove(txHash: Hex): void {
    const pooled = this.getKnown(txHash);
    this.order.remove(pooled);
    this.byHash.delete(txHash);
    for (const nullifier of pooled.tx.sideEffects.nullifiers) this.byNullifier.delete(nullifier);
    const payerTxs = this.byFeePayer.get(pooled.tx.feePayer);
    assert(payerTxs !== undefined, `the fee payer of pooled tx ${txHash} is indexed`);
    payerTxs.remove(pooled);
    if (payerTxs.length === 0) this.byFeePayer.delete(pooled.tx.feePayer);
  }
}
