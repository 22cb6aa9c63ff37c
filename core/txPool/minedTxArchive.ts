/**
 * The full txs this node mined or saw mined from its pool, kept until their block is finalized: a prune sends them
 * back to the pool (a block holds only effects, not the txs). Keys: `minedTx:<block, 12 digits>:<hash>` -> the tx.
 */
import type { Hex } from '../../spec/chain.js';
import { TX_POOL_MAINTENANCE_TXS_MAX } from '../../spec/constants.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { fromStoredJson, toStoredJson } from '../chain/serde.js';
import type { StoragePort } from '../ports.js';

export type ArchiveOp =
  | { readonly type: 'put'; readonly key: string; readonly value: string }
  | { readonly type: 'del'; readonly key: string };

const PREFIX = 'minedTx:';
const END = 'minedTx;';
const pad = (n: number): string => n.toString().padStart(12, '0');
const keyOf = (blockNumber: number, txHash: Hex): string => `${PREFIX}${pad(blockNumber)}:${txHash.toLowerCase()}`;

export function archiveOps(blockNumber: number, txs: readonly TxValue[]): ArchiveOp[] {
  return txs.map((tx) => ({ type: 'put', key: keyOf(blockNumber, tx.txHash), value: toStoredJson(tx) }));
}

/** The archived txs of blocks above `blockNumber`, in chain order, and the ops removing them. */
export async function archivedAbove(
  storage: StoragePort,
  blockNumber: number,
): Promise<{ txs: TxValue[]; ops: ArchiveOp[] }> {
  const entries = await storage.iterator({ ...minedAboveRange(blockNumber), limit: TX_POOL_MAINTENANCE_TXS_MAX }).all();
  return {
    txs: entries.map(([, value]) => fromStoredJson<TxValue>(value)),
    ops: entries.map(([key]) => ({ type: 'del', key })),
  };
}

/** The key range of the archived txs of blocks above `blockNumber`. */
export function minedAboveRange(blockNumber: number): { readonly gt: string; readonly lt: string } {
  return { gt: `${PREFIX}${pad(blockNumber)};`, lt: END };
}

/** Ops dropping the archive of blocks at or below `blockNumber` (finalized: they can no longer be pruned). */
export async function archiveReleaseOps(storage: StoragePort, blockNumber: number): Promise<ArchiveOp[]> {
  const keys = await storage
    .keys({ gte: PREFIX, lt: `${PREFIX}${pad(blockNumber)};`, limit: TX_POOL_MAINTENANCE_TXS_MAX })
    .all();
  return keys.map((key) => ({ type: 'del', key }));
}
