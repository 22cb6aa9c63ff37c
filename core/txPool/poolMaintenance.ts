/**
 * Maintenance after blocks were added to the chain: what leaves the pool, and why. The caller reads the chain and
 * world state and passes what changed; the pool reads nothing itself. A tx leaves for the first reason that holds,
 * checked in this order:
 *
 * 1. `mined`: its hash is among the added blocks' txs;
 * 2. `nullifierMined`: one of its nullifiers is now in the nullifier tree;
 * 3. `anchorPruned`: its anchor block is no longer kept;
 * 4. `expired`: its expiration timestamp is below the next slot's timestamp;
 * 5. `feeBelowMinimum`: its max fee per gas is below the minimum fee per gas, per DA gas or per L2 gas;
 * 6. `feePayerBalance`: for each payer with a new balance, the walk over its remaining txs (feePayerWalk.ts), skipped
 *    when all its pooled txs together fit the balance.
 */
import type { GasFees, Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { coversAll, walkFeePayerTxs } from './feePayerWalk.js';
import type { TxPool, TxPoolChange } from './txPool.js';
import { TX_POOL_MAINTENANCE_TXS_MAX } from '../../spec/constants.js';
import type { PooledTx } from './txPriority.js';
import type { TxRemoval } from './txRemoval.js';

/** What the chain and world state say about pooled txs now. */
export interface PoolConditions {
  /** Timestamp (Unix seconds) of the next slot: a tx expiring before it can no longer be included. */
  readonly nextSlotTimestamp: bigint;
  /** The current minimum fee per gas. */
  readonly minFeesPerGas: GasFees;
  /** Hashes of blocks no longer kept (pruned from history or removed from the chain) that txs may anchor to. */
  readonly unavailableAnchorBlockHashes: ReadonlySet<Hex>;
  /** Current balances of the fee payers whose balance may have changed; their txs are walked again. */
  readonly feePayerBalances: ReadonlyMap<Hex, bigint>;
}

export interface BlocksAddedInput extends PoolConditions {
  /** Hashes of the txs in the added blocks. */
  readonly minedTxHashes: readonly Hex[];
  /** Nullifiers the added blocks put in the tree (a view of the whole tree does as well). */
  readonly minedNullifiers: ReadonlySet<Hex>;
}

export interface MaintenanceOutcome {
  readonly change: TxPoolChange;
  readonly removed: readonly TxRemoval[];
}

export function decideAfterBlocksAdded(pool: TxPool, input: BlocksAddedInput): MaintenanceOutcome {
  assert(
    input.minedTxHashes.length <= TX_POOL_MAINTENANCE_TXS_MAX,
    `one call names at most ${TX_POOL_MAINTENANCE_TXS_MAX} mined txs`,
  );
  const removals = new Map<Hex, TxRemoval>();
  for (const txHash of input.minedTxHashes) {
    if (pool.has(txHash)) removals.set(txHash, { txHash, reason: 'mined' });
  }
  for (const pooled of pool.ordered()) {
    if (removals.has(pooled.txHash)) continue;
    const removal = staleRemoval(pooled, input, input.minedNullifiers);
    if (removal !== undefined) removals.set(pooled.txHash, removal);
  }
  for (const removal of feePayerBalanceRemovals(pool, new Set(removals.keys()), input.feePayerBalances))
    removals.set(removal.txHash, removal);
  const removed = [...removals.values()];
  const change: TxPoolChange = {
    baseRevision: pool.revision,
    removedTxHashes: removed.map((removal) => removal.txHash),
    addedTxs: [],
    nextArrivalSequence: pool.nextArrivalSequence,
  };
  return { change, removed };
}

/** Why a tx can no longer be included regardless of other txs, if it cannot (reasons 2 to 5 above). */
export function staleRemoval(
  pooled: PooledTx,
  conditions: PoolConditions,
  minedNullifiers: ReadonlySet<Hex>,
): TxRemoval | undefined {
  const { tx, txHash } = pooled;
  const nullifier = tx.sideEffects.nullifiers.find((n) => minedNullifiers.has(n));
  if (nullifier !== undefined) return { txHash, reason: 'nullifierMined', nullifier };
  if (conditions.unavailableAnchorBlockHashes.has(tx.anchorBlockHash))
    return { txHash, reason: 'anchorPruned', anchorBlockHash: tx.anchorBlockHash };
  if (tx.expirationTimestamp < conditions.nextSlotTimestamp) {
    return {
      txHash,
      reason: 'expired',
      expirationTimestamp: tx.expirationTimestamp,
      nextSlotTimestamp: conditions.nextSlotTimestamp,
    };
  }
  const { maxFeesPerGas } = tx.gasSettings;
  const minFeesPerGas = conditions.minFeesPerGas;
  if (maxFeesPerGas.feePerDaGas < minFeesPerGas.feePerDaGas || maxFeesPerGas.feePerL2Gas < minFeesPerGas.feePerL2Gas) {
    return { txHash, reason: 'feeBelowMinimum', maxFeesPerGas, minFeesPerGas };
  }
  return undefined;
}

/** The walk, for every pooled payer with a balance in `balances`, over its txs not in `excluded`. */
export function feePayerBalanceRemovals(
  pool: TxPool,
  excluded: ReadonlySet<Hex>,
  balances: ReadonlyMap<Hex, bigint>,
): TxRemoval[] {
  const removals: TxRemoval[] = [];
  for (const feePayer of pool.feePayers()) {
    const balance = balances.get(feePayer);
    // Leaving txs out only lowers every running sum, so a payer whose whole total fits keeps all the others.
    if (balance === undefined || coversAll(pool.feePayerMaxCostTotal(feePayer), balance)) continue;
    for (const { pooled, needed } of walkFeePayerTxs(feePayer, pool.feePayerTxsView(feePayer), balance, { excluded })
      .uncovered) {
      removals.push({ txHash: pooled.txHash, reason: 'feePayerBalance', feePayer, balance, needed });
    }
  }
  return removals;
}
