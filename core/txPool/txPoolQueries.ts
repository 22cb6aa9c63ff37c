/**
 * Read-only answers about the pool, for svc_getPendingTxs, svc_getPendingTxCount (`pool.count`), svc_getTxByHash,
 * svc_getTxsByHash (`pool.get`) and svc_getMaxPriorityFees.
 */
import type { GasFees, Hex } from '../../spec/chain.js';
import { RPC_TXS_PER_CALL_MAX } from '../../spec/rpc/limits.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { assert } from '../assert.js';
import { NodeError } from '../errors.js';
import type { TxPool } from './txPool.js';
import { TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import type { PooledTx } from './txPriority.js';

export interface PendingTxPageRequest {
  /** At most this many txs; default `pageSizeMax`. */
  readonly limit?: number;
  /** The last tx of the previous page; without it the page starts at the highest-priority tx. */
  readonly after?: Hex;
  /** The bound on `limit`: the listener's `txsPerCallMax`, default RPC_TXS_PER_CALL_MAX (100). */
  readonly pageSizeMax?: number;
}

export interface PendingTxPage {
  /** Highest priority first. */
  readonly txs: readonly PooledTx[];
  /** False when `after` is not pooled (mined or evicted since it was seen): the page is then empty. */
  readonly afterFound: boolean;
}

/** The payload of the LIMIT_EXCEEDED error (the shape adapters/rpc uses for every list bound). */
export interface PageLimitExceededDetails extends Record<string, unknown> {
  readonly limit: 'txsPerCallMax';
  readonly value: number;
  readonly requested: number;
}

/**
 * The page of pending txs following `after`, in pool order. Paging with the last tx of each page as `after` visits
 * every tx pooled throughout once; a limit above `pageSizeMax` is refused (LIMIT_EXCEEDED), never cut.
 */
export function pendingTxPage(pool: TxPool, request: PendingTxPageRequest = {}): PendingTxPage {
  const pageSizeMax = request.pageSizeMax ?? RPC_TXS_PER_CALL_MAX;
  assert(
    Number.isSafeInteger(pageSizeMax) && pageSizeMax >= 1 && pageSizeMax <= TX_POOL_CAPACITY_MAX,
    `page size bound ${pageSizeMax} is within 1..${TX_POOL_CAPACITY_MAX}`,
  );
  const limit = request.limit ?? pageSizeMax;
  assert(Number.isSafeInteger(limit) && limit >= 0, `page limit ${limit} is a non-negative safe integer`);
  if (limit > pageSizeMax) {
    throw new NodeError<PageLimitExceededDetails>(
      'LIMIT_EXCEEDED',
      `${limit} exceeds the limit txsPerCallMax of ${pageSizeMax}`,
      {
        limit: 'txsPerCallMax',
        value: pageSizeMax,
        requested: limit,
      },
    );
  }
  if (request.after === undefined) return { txs: pool.slice(0, limit), afterFound: true };
  const rank = pool.rankOf(request.after);
  if (rank === undefined) return { txs: [], afterFound: false };
  return { txs: pool.slice(rank + 1, rank + 1 + limit), afterFound: true };
}

/**
 * Per dimension, the highest priority fee per gas any pooled tx offers: max over pooled txs of
 * min(maxFeesPerGas, maxPriorityFeesPerGas), so a tx capped by its max fee counts for what it can pay. Zero for an
 * empty pool.
 */
export function maxPriorityFees(pool: TxPool): GasFees {
  let feePerDaGas = 0n;
  let feePerL2Gas = 0n;
  for (const { tx } of pool.slice(0, pool.count)) {
    const { maxFeesPerGas, maxPriorityFeesPerGas } = tx.gasSettings;
    feePerDaGas = maxBigint(feePerDaGas, minBigint(maxFeesPerGas.feePerDaGas, maxPriorityFeesPerGas.feePerDaGas));
    feePerL2Gas = maxBigint(feePerL2Gas, minBigint(maxFeesPerGas.feePerL2Gas, maxPriorityFeesPerGas.feePerL2Gas));
  }
  return { feePerDaGas, feePerL2Gas };
}

/** A pooled tx as answered without its proof (`proof: "0x"`), unless `includeProof`. */
export function answeredTx(tx: TxValue, includeProof: boolean): TxValue {
  return includeProof ? tx : { ...tx, proof: '0x' };
}

function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function maxBigint(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
