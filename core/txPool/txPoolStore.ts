/**
 * The pool through the storage port, so that pending txs survive a restart. Each change becomes a list of batch
 * operations that the caller writes in one `batch()` together with whatever else the same event changes, then
 * applies to the pool; the loader rebuilds the pool, indexes and order included, from what was written.
 *
 * Keys (beside the chain store's, in the same database):
 * - `txPool:tx:<txHash>` -> stored JSON (core/chain/serde.ts) of `{ arrivalSequence, tx }`;
 * - `txPool:nextArrivalSequence` -> decimal, so a reloaded pool issues the same sequences as the one written.
 */
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { assert } from '../assert.js';
import { fromStoredJson, toStoredJson } from '../chain/serde.js';
import type { StoragePort } from '../ports.js';
import { TxPool, type TxPoolChange } from './txPool.js';
import { TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import { comparePooledTxs, toPooledTx, type PooledTx } from './txPriority.js';
import type { TxRemoval } from './txRemoval.js';

export type TxPoolBatchOp =
  | { readonly type: 'put'; readonly key: string; readonly value: string }
  | { readonly type: 'del'; readonly key: string };

const TX_KEY_PREFIX = 'txPool:tx:';
/** The first key after every `txPool:tx:` key (';' follows ':'). */
const TX_KEY_END = 'txPool:tx;';
const NEXT_ARRIVAL_SEQUENCE_KEY = 'txPool:nextArrivalSequence';

const txKey = (txHash: Hex): string => `${TX_KEY_PREFIX}${txHash}`;

interface StoredPooledTx {
  readonly arrivalSequence: number;
  readonly tx: TxValue;
}

/** The writes that persist `change`: removed txs deleted, added txs put, the next arrival sequence put. */
export function txPoolBatchOps(change: TxPoolChange): TxPoolBatchOp[] {
  const removals = change.removedTxHashes.map((txHash): TxPoolBatchOp => ({ type: 'del', key: txKey(txHash) }));
  const additions = change.addedTxs.map((pooled): TxPoolBatchOp => {
    const stored: StoredPooledTx = { arrivalSequence: pooled.arrivalSequence, tx: pooled.tx };
    return { type: 'put', key: txKey(pooled.txHash), value: toStoredJson(stored) };
  });
  const sequence: TxPoolBatchOp = {
    type: 'put',
    key: NEXT_ARRIVAL_SEQUENCE_KEY,
    value: String(change.nextArrivalSequence),
  };
  return [...removals, ...additions, sequence];
}

/**
 * The writes that persist several changes made one after another (a group of admissions, core/txPool/nodeTxPool.ts):
 * each change's deletes and puts in order, then the next arrival sequence once, the last change's.
 */
export function txPoolGroupBatchOps(changes: readonly TxPoolChange[]): TxPoolBatchOp[] {
  const last = changes[changes.length - 1];
  if (last === undefined) return [];
  const ops = changes.flatMap((change) => txPoolBatchOps(change).filter((op) => op.key !== NEXT_ARRIVAL_SEQUENCE_KEY));
  return [...ops, { type: 'put', key: NEXT_ARRIVAL_SEQUENCE_KEY, value: String(last.nextArrivalSequence) }];
}

export interface LoadedTxPool {
  readonly pool: TxPool;
  /** Stored txs that did not fit `capacity` (the lowest-ranked ones, `overCapacity`). */
  readonly removed: readonly TxRemoval[];
  /** Deletes the removed txs; the caller writes them (nothing to write when `removed` is empty). */
  readonly ops: readonly TxPoolBatchOp[];
}

/** Rebuilds the pool from storage. A store holding more txs than `capacity` keeps the highest-ranked ones. */
export async function loadTxPool(storage: StoragePort, capacity: number): Promise<LoadedTxPool> {
  const texts = await storage.values({ gte: TX_KEY_PREFIX, lt: TX_KEY_END, limit: TX_POOL_CAPACITY_MAX + 1 }).all();
  assert(texts.length <= TX_POOL_CAPACITY_MAX, `storage holds at most ${TX_POOL_CAPACITY_MAX} pooled txs`);
  const stored = texts.map((text) => readStoredPooledTx(text)).sort(comparePooledTxs);
  const nextArrivalSequence = await readNextArrivalSequence(storage, stored);
  const kept = stored.slice(0, capacity);
  const removed = stored
    .slice(capacity)
    .map((pooled): TxRemoval => ({ txHash: pooled.txHash, reason: 'overCapacity', capacity }));
  const ops = removed.map((removal): TxPoolBatchOp => ({ type: 'del', key: txKey(removal.txHash) }));
  return { pool: TxPool.restore(capacity, kept, nextArrivalSequence), removed, ops };
}

function readStoredPooledTx(text: string): PooledTx {
  const stored = fromStoredJson<StoredPooledTx>(text);
  assert(
    typeof stored.arrivalSequence === 'number' && typeof stored.tx?.txHash === 'string',
    'a stored pooled tx has an arrival sequence and a tx',
  );
  return toPooledTx(stored.tx, stored.arrivalSequence);
}

async function readNextArrivalSequence(storage: StoragePort, stored: readonly PooledTx[]): Promise<number> {
  const text = await storage.get(NEXT_ARRIVAL_SEQUENCE_KEY);
  const issuedMax = stored.reduce((max, pooled) => Math.max(max, pooled.arrivalSequence), -1);
  if (text === undefined) {
    assert(stored.length === 0, 'a store with pooled txs has a next arrival sequence');
    return 0;
  }
  const next = Number(text);
  assert(
    Number.isSafeInteger(next) && next > issuedMax,
    `stored next arrival sequence ${text} follows every stored tx`,
  );
  return next;
}
