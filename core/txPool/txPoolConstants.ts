/**
 * Bounds of the transaction pool that spec/ does not hold yet. Each is meant to move to spec/constants.ts (the
 * operator-tunable defaults already live in spec/config/schema.ts and spec/rpc/limits.ts).
 */

/**
 * Nullifiers one tx may emit (the protocol's per-tx limit). The pool walks a tx's nullifiers when it indexes it, so
 * validation must refuse a tx above this bound before it reaches the pool.
 */
export const TX_NULLIFIERS_MAX = 64;

/**
 * The largest pool capacity, in txs: the upper bound of the `p2pPendingTxCountMax` setting (spec/config/schema.ts).
 * Every walk over the whole pool, and the loader's read of stored txs, is bounded by it.
 */
export const TX_POOL_CAPACITY_MAX = 1_000_000;

/**
 * Txs one maintenance call may name: mined tx hashes after blocks were added, or txs returning after a prune. A
 * caller with more splits them over several calls.
 */
export const TX_POOL_MAINTENANCE_TXS_MAX = 65_536;
