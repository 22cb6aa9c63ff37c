/**
 * Txs of blocks removed by a prune return to the pool. They were admitted once and mined, so no RPC price bump
 * applies; they are re-admitted highest priority first (the pool order, arrival sequences issued in chain order):
 *
 * 1. Pooled txs that can no longer be included leave first (`anchorPruned` for txs anchored to a removed block,
 *    `expired`, `feeBelowMinimum`; poolMaintenance.ts, `staleRemoval`).
 * 2. A returning tx already pooled stays as it is; one that can no longer be included stays out, for the same reasons.
 * 3. A returning tx sharing a nullifier with pooled txs: whichever ranks higher in the pool order stays, the others
 *    go (`nullifierConflict`, naming the one kept).
 * 4. In a full pool a returning tx enters only if it ranks above the lowest tx, which leaves (`poolFull`); else it
 *    stays out (`overCapacity`).
 * 5. Every payer with a balance given is walked again (feePayerWalk.ts); the caller must give the balance of every
 *    payer of a returning tx, as of the chain after the prune.
 *
 * Processing highest first means a returning tx, once in, is not pushed out by a later (lower) one except through
 * its payer's balance.
 */
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { assert } from '../assert.js';
import {
  feePayerBalanceRemovals,
  staleRemoval,
  type MaintenanceOutcome,
  type PoolConditions,
} from './poolMaintenance.js';
import type { TxPool, TxPoolChange } from './txPool.js';
import { TX_POOL_MAINTENANCE_TXS_MAX } from '../../spec/constants.js';
import { comparePooledTxs, ranksAbove, toPooledTx, type PooledTx } from './txPriority.js';
import type { TxRemoval } from './txRemoval.js';

export interface ChainPrunedInput extends PoolConditions {
  /** Txs of the removed blocks, in chain order. `unavailableAnchorBlockHashes` should list the removed blocks. */
  readonly returningTxs: readonly TxValue[];
}

export interface PruneReturnOutcome extends MaintenanceOutcome {
  /** Returning txs now pending that were not pooled before, highest priority first. */
  readonly returnedTxHashes: readonly Hex[];
  /** Returning txs left out, and why. */
  readonly notReturned: readonly TxRemoval[];
}

const NO_MINED_NULLIFIERS: ReadonlySet<Hex> = new Set();

export function decideAfterChainPruned(pool: TxPool, input: ChainPrunedInput): PruneReturnOutcome {
  assert(
    input.returningTxs.length <= TX_POOL_MAINTENANCE_TXS_MAX,
    `one call returns at most ${TX_POOL_MAINTENANCE_TXS_MAX} txs`,
  );
  const scratch = pool.clone();
  const reasons = new Map<Hex, TxRemoval>();
  const stale = scratch.ordered().flatMap((pooled) => staleRemoval(pooled, input, NO_MINED_NULLIFIERS) ?? []);
  removeFromScratch(scratch, stale, reasons);
  const candidates = returningCandidates(scratch, input, reasons);
  const nextArrivalSequence = scratch.nextArrivalSequence + input.returningTxs.length;
  for (const candidate of candidates) readmit(scratch, candidate, nextArrivalSequence, reasons);
  for (const candidate of candidates) {
    assert(
      !scratch.has(candidate.txHash) || input.feePayerBalances.has(candidate.tx.feePayer),
      `the balance of fee payer ${candidate.tx.feePayer} of a returning tx is given`,
    );
  }
  removeFromScratch(scratch, feePayerBalanceRemovals(scratch, new Set(), input.feePayerBalances), reasons);
  return pruneOutcome(pool, scratch, candidates, reasons);
}

/** Returning txs not pooled, not repeated and still includable, as pooled txs in pool order. */
function returningCandidates(scratch: TxPool, input: ChainPrunedInput, reasons: Map<Hex, TxRemoval>): PooledTx[] {
  const candidates = new Map<Hex, PooledTx>();
  input.returningTxs.forEach((tx, index) => {
    if (scratch.has(tx.txHash) || candidates.has(tx.txHash)) return;
    const pooled = toPooledTx(tx, scratch.nextArrivalSequence + index);
    const removal = staleRemoval(pooled, input, NO_MINED_NULLIFIERS);
    if (removal === undefined) candidates.set(tx.txHash, pooled);
    else reasons.set(tx.txHash, removal);
  });
  return [...candidates.values()].sort(comparePooledTxs);
}

function readmit(
  scratch: TxPool,
  candidate: PooledTx,
  nextArrivalSequence: number,
  reasons: Map<Hex, TxRemoval>,
): void {
  const conflicts = scratch.conflictingTxs(candidate.tx.sideEffects.nullifiers);
  const keeper = conflicts[0];
  if (keeper !== undefined && ranksAbove(keeper, candidate)) {
    reasons.set(candidate.txHash, {
      txHash: candidate.txHash,
      reason: 'nullifierConflict',
      keptTxHash: keeper.txHash,
      nullifier: sharedNullifier(candidate, keeper),
    });
    return;
  }
  const removals: TxRemoval[] = conflicts.map((pooled) => ({
    txHash: pooled.txHash,
    reason: 'nullifierConflict',
    keptTxHash: candidate.txHash,
    nullifier: sharedNullifier(candidate, pooled),
  }));
  if (scratch.count - removals.length >= scratch.capacity) {
    const lowest = scratch.lowest();
    assert(lowest !== undefined, 'a full pool has a lowest tx');
    if (!ranksAbove(candidate, lowest)) {
      reasons.set(candidate.txHash, { txHash: candidate.txHash, reason: 'overCapacity', capacity: scratch.capacity });
      return;
    }
    removals.push({
      txHash: lowest.txHash,
      reason: 'poolFull',
      byTxHash: candidate.txHash,
      priorityFee: lowest.priorityFee,
      newcomerPriorityFee: candidate.priorityFee,
    });
  }
  for (const removal of removals) reasons.set(removal.txHash, removal);
  scratch.apply({
    baseRevision: scratch.revision,
    removedTxHashes: removals.map((r) => r.txHash),
    addedTxs: [candidate],
    nextArrivalSequence,
  });
}

function removeFromScratch(scratch: TxPool, removals: readonly TxRemoval[], reasons: Map<Hex, TxRemoval>): void {
  if (removals.length === 0) return;
  for (const removal of removals) reasons.set(removal.txHash, removal);
  const change = {
    baseRevision: scratch.revision,
    removedTxHashes: removals.map((r) => r.txHash),
    addedTxs: [],
    nextArrivalSequence: scratch.nextArrivalSequence,
  };
  scratch.apply(change);
}

function sharedNullifier(a: PooledTx, b: PooledTx): Hex {
  const theirs = new Set(b.tx.sideEffects.nullifiers);
  const nullifier = a.tx.sideEffects.nullifiers.find((n) => theirs.has(n));
  assert(nullifier !== undefined, `txs ${a.txHash} and ${b.txHash} share a nullifier`);
  return nullifier;
}

/** The net change from `pool` to `scratch`, with the reason for every tx that left or stayed out. */
function pruneOutcome(
  pool: TxPool,
  scratch: TxPool,
  candidates: readonly PooledTx[],
  reasons: ReadonlyMap<Hex, TxRemoval>,
): PruneReturnOutcome {
  const reasonOf = (txHash: Hex): TxRemoval => {
    const reason = reasons.get(txHash);
    assert(reason !== undefined, `tx ${txHash} left the pool for a recorded reason`);
    return reason;
  };
  const removed = pool
    .ordered()
    .filter((pooled) => !scratch.has(pooled.txHash))
    .map((pooled) => reasonOf(pooled.txHash));
  const added = scratch.ordered().filter((pooled) => !pool.has(pooled.txHash));
  const notReturnedHashes = [...reasons.keys()].filter((txHash) => !pool.has(txHash) && !scratch.has(txHash));
  const change: TxPoolChange = {
    baseRevision: pool.revision,
    removedTxHashes: removed.map((removal) => removal.txHash),
    addedTxs: added,
    nextArrivalSequence: scratch.nextArrivalSequence,
  };
  const candidateHashes = new Set(candidates.map((pooled) => pooled.txHash));
  assert(
    added.every((pooled) => candidateHashes.has(pooled.txHash)),
    'only returning txs are added',
  );
  return {
    change,
    removed,
    returnedTxHashes: added.map((pooled) => pooled.txHash),
    notReturned: notReturnedHashes.map(reasonOf),
  };
}
