/**
 * Admission of a tx submitted over RPC (docs/protocol.md, Pool; docs/protocol.md, Priority and replacement: the price
 * bump). The tx has passed validation; the pool decides, in this order:
 *
 * 1. Same tx hash already pooled: `alreadyPooled` (idempotent, nothing changes).
 * 2. Replacement: every pooled tx sharing a nullifier with it must be outbid by the bump rule (txPriority.ts), else
 *    NULLIFIER_CONFLICT naming the conflicting tx that demands the most and the least fee that outbids them all.
 *    Outbid txs are removed (`replaced`).
 * 3. Fee payer balance: the payer's pending txs with the newcomer and without the replaced ones are walked
 *    (feePayerWalk.ts) against the balance the caller read; when their max costs together fit the balance the walk
 *    would keep them all, and is skipped (the common case costs no work per pending tx). If the newcomer does not fit,
 *    INSUFFICIENT_FEE_PAYER_BALANCE; other txs of the payer that do not fit are removed (`feePayerBalance`); they
 *    rank below the newcomer, or did not fit the balance even without it.
 * 4. Capacity: if the pool would still exceed its capacity, the newcomer must outbid the lowest-ranked remaining tx
 *    by the bump rule, which is removed (`poolFull`); else LOW_PRIORITY_FEE with the least fee that would enter.
 *
 * A rejection changes nothing. An acceptance returns the change to write (txPoolStore.ts) and then apply.
 */
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { assert } from '../assert.js';
import { coversAll, walkFeePayerTxs } from './feePayerWalk.js';
import type { TxPool, TxPoolChange } from './txPool.js';
import { minimumOutbiddingFee, toPooledTx, type PooledTx } from './txPriority.js';
import type { TxRejection } from './txRejection.js';
import type { TxRemoval } from './txRemoval.js';

export interface AdmissionContext {
  /** The fee payer's balance in the fee asset, as of the state the tx was validated against. */
  readonly feePayerBalance: bigint;
  /** `P2P_RPC_PRICE_BUMP_PERCENTAGE` (a non-negative integer). */
  readonly priceBumpPercentage: number;
}

export type AdmissionDecision =
  | {
      readonly kind: 'accepted';
      readonly txHash: Hex;
      readonly change: TxPoolChange;
      readonly removed: readonly TxRemoval[];
    }
  | { readonly kind: 'alreadyPooled'; readonly txHash: Hex }
  | { readonly kind: 'rejected'; readonly txHash: Hex; readonly rejection: TxRejection };

type StepResult = { readonly rejection: TxRejection } | { readonly removed: readonly TxRemoval[] };

export function decideAdmission(pool: TxPool, tx: TxValue, context: AdmissionContext): AdmissionDecision {
  const { txHash } = tx;
  if (pool.has(txHash)) return { kind: 'alreadyPooled', txHash };
  const newcomer = toPooledTx(tx, pool.nextArrivalSequence);
  const removed: TxRemoval[] = [];
  const removedHashes = new Set<Hex>();
  const steps = [
    () => replacementStep(pool, newcomer, context.priceBumpPercentage),
    () => feePayerStep(pool, newcomer, removedHashes, context.feePayerBalance),
    () => capacityStep(pool, newcomer, removedHashes, context.priceBumpPercentage),
  ];
  for (const step of steps) {
    const result = step();
    if ('rejection' in result) return { kind: 'rejected', txHash, rejection: result.rejection };
    for (const removal of result.removed) {
      removed.push(removal);
      removedHashes.add(removal.txHash);
    }
  }
  assert(pool.count - removed.length + 1 <= pool.capacity, 'an accepted tx leaves the pool within its capacity');
  const change: TxPoolChange = {
    baseRevision: pool.revision,
    removedTxHashes: removed.map((removal) => removal.txHash),
    addedTxs: [newcomer],
    nextArrivalSequence: newcomer.arrivalSequence + 1,
  };
  return { kind: 'accepted', txHash, change, removed };
}

function replacementStep(pool: TxPool, newcomer: PooledTx, bumpPercentage: number): StepResult {
  const conflicts = pool.conflictingTxs(newcomer.tx.sideEffects.nullifiers);
  const decisive = conflicts[0];
  if (decisive === undefined) return { removed: [] };
  // Conflicts come highest priority first, and the fee to outbid grows with the pooled fee.
  const minimumPriorityFee = minimumOutbiddingFee(decisive.priorityFee, bumpPercentage);
  if (newcomer.priorityFee < minimumPriorityFee) {
    const nullifier = newcomer.tx.sideEffects.nullifiers.find((n) => pool.txHashOfNullifier(n) === decisive.txHash);
    assert(nullifier !== undefined, 'a conflicting tx shares a nullifier');
    const details = {
      txHash: newcomer.txHash,
      priorityFee: newcomer.priorityFee,
      nullifier,
      conflictingTxHash: decisive.txHash,
      conflictingPriorityFee: decisive.priorityFee,
      conflictingTxCount: conflicts.length,
      minimumPriorityFee,
      priceBumpPercentage: bumpPercentage,
    };
    return { rejection: { code: 'NULLIFIER_CONFLICT', details } };
  }
  const removed = conflicts.map((pooled): TxRemoval => ({
    txHash: pooled.txHash,
    reason: 'replaced',
    byTxHash: newcomer.txHash,
    priorityFee: pooled.priorityFee,
    replacementPriorityFee: newcomer.priorityFee,
  }));
  return { removed };
}

function feePayerStep(pool: TxPool, newcomer: PooledTx, removedHashes: ReadonlySet<Hex>, balance: bigint): StepResult {
  const { feePayer } = newcomer.tx;
  if (coversAll(payerTotalWith(pool, newcomer, removedHashes), balance)) return { removed: [] };
  const walk = walkFeePayerTxs(feePayer, pool.feePayerTxsView(feePayer), balance, {
    excluded: removedHashes,
    newcomer,
  });
  const newcomerUncovered = walk.uncovered.find((entry) => entry.pooled === newcomer);
  if (newcomerUncovered !== undefined) {
    const details = {
      txHash: newcomer.txHash,
      feePayer,
      balance,
      needed: newcomerUncovered.needed,
      txMaxCost: newcomer.maxCost,
    };
    return { rejection: { code: 'INSUFFICIENT_FEE_PAYER_BALANCE', details } };
  }
  const removed = walk.uncovered.map(({ pooled, needed }): TxRemoval => ({
    txHash: pooled.txHash,
    reason: 'feePayerBalance',
    feePayer,
    balance,
    needed,
  }));
  return { removed };
}

/** What the newcomer's payer's pending txs cost together with the newcomer and without the txs it removes. */
function payerTotalWith(pool: TxPool, newcomer: PooledTx, removedHashes: ReadonlySet<Hex>): bigint {
  let total = pool.feePayerMaxCostTotal(newcomer.tx.feePayer) + newcomer.maxCost;
  for (const txHash of removedHashes) {
    const removed = pool.get(txHash);
    assert(removed !== undefined, `removed tx ${txHash} is pooled`);
    if (removed.tx.feePayer === newcomer.tx.feePayer) total -= removed.maxCost;
  }
  return total;
}

function capacityStep(
  pool: TxPool,
  newcomer: PooledTx,
  removedHashes: ReadonlySet<Hex>,
  bumpPercentage: number,
): StepResult {
  if (pool.count - removedHashes.size < pool.capacity) return { removed: [] };
  const lowest = pool.lowest(removedHashes);
  assert(lowest !== undefined, 'a full pool has a lowest tx');
  const minimumPriorityFee = minimumOutbiddingFee(lowest.priorityFee, bumpPercentage);
  if (newcomer.priorityFee < minimumPriorityFee) {
    const details = {
      txHash: newcomer.txHash,
      priorityFee: newcomer.priorityFee,
      lowestTxHash: lowest.txHash,
      lowestPriorityFee: lowest.priorityFee,
      minimumPriorityFee,
      priceBumpPercentage: bumpPercentage,
      capacity: pool.capacity,
    };
    return { rejection: { code: 'LOW_PRIORITY_FEE', details } };
  }
  const removal: TxRemoval = {
    txHash: lowest.txHash,
    reason: 'poolFull',
    byTxHash: newcomer.txHash,
    priorityFee: lowest.priorityFee,
    newcomerPriorityFee: newcomer.priorityFee,
  };
  return { removed: [removal] };
}
