/**
 * Bounds and key widths of the log index (core/logs). The widths are part of the stored key layout: changing one
 * changes the order of keys already written, so they are fixed here rather than derived from the protocol bounds
 * (the key builders assert that every number fits its width).
 */

/** Decimal digits of a block number in a log key (the chain store pads block numbers to the same width). */
export const LOG_KEY_BLOCK_NUMBER_DIGITS = 12;
/** Decimal digits of a tx's index in its block in a log key (TXS_PER_BLOCK_MAX is far below 10^6). */
export const LOG_KEY_TX_INDEX_DIGITS = 6;
/** Decimal digits of a log's index in its tx in a log key (PRIVATE_ and PUBLIC_LOGS_PER_TX_MAX are far below 10^6). */
export const LOG_KEY_LOG_INDEX_DIGITS = 6;

/**
 * Tags one log query may carry, and logs one tag may be answered with: the largest list bound an operator may
 * configure (spec/config/schema.ts, LIST_BOUND_MAX). The RPC layer enforces the configured bounds; these are the
 * invariants the core asserts.
 */
export const LOG_QUERY_TAGS_MAX = 10_000;
export const LOG_QUERY_LOGS_PER_TAG_MAX = 10_000;

/**
 * Times a log query is read again when the chain was pruned while it was being read (a block it names left the
 * chain). Prunes are rare and the chain's writes are serialized, so a second read almost always succeeds.
 */
export const LOG_QUERY_ATTEMPTS_MAX = 3;

/**
 * Store reads one log query keeps in flight at once (index scans of its tags, then the blocks they name). Each read
 * waits on storage (a thread-pool round trip in production); reading a query's tags and blocks one after another made
 * `svc_getPublicLogsByTags` the slowest read under load. The bound keeps a query of thousands of tags from holding
 * thousands of reads, and their blocks, at once.
 */
export const LOG_QUERY_READS_IN_FLIGHT_MAX = 16;
