/**
 * Limits of the JSON-RPC envelope (docs/protocol.md, Request and list limits). The defaults live in
 * `spec/constants.ts`; this file names them as one configurable record and adds the bounds that only the RPC layer
 * needs.
 */
import {
  ADMIN_BODY_BYTES_MAX,
  BATCH_CALLS_MAX,
  PUBLIC_BODY_BYTES_MAX,
  RPC_REQUEST_TIMEOUT_MS_DEFAULT,
} from '../constants.js';

export { ADMIN_BODY_BYTES_MAX, BATCH_CALLS_MAX, PUBLIC_BODY_BYTES_MAX, RPC_REQUEST_TIMEOUT_MS_DEFAULT };

/** Blocks one call may ask for (svc_getBlocks). */
export const RPC_BLOCKS_PER_CALL_MAX = 100;
/** Checkpoints one call may ask for (svc_getCheckpoints). */
export const RPC_CHECKPOINTS_PER_CALL_MAX = 100;
/** Checkpoint-data entries one call may answer (svc_getCheckpointsData, a range or a whole epoch). */
export const RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX = 200;
/** Transactions one call may ask for (svc_getPendingTxs). */
export const RPC_TXS_PER_CALL_MAX = 100;
/** Transaction hashes one call may carry (svc_getTxsByHash). */
export const RPC_TX_HASHES_PER_CALL_MAX = 100;
/** Leaf values one query may carry (svc_findLeavesIndexes). */
export const RPC_LEAVES_PER_QUERY_MAX = 100;
/** Tags one log query may carry (svc_getPrivateLogsByTags, svc_getPublicLogsByTags). */
export const RPC_TAGS_PER_QUERY_MAX = 100;
/** Logs answered for one tag of a log query; a tag matching more is refused, never cut. */
export const RPC_LOGS_PER_TAG_MAX = 20;

/**
 * Bounds on the lists a call asks for or is answered with (docs/protocol.md, Request and list limits: list results are
 * bounded, and exceeding a bound is -32005, never a silent truncation). Handlers receive them through their context.
 */
export interface RpcListLimits {
  readonly blocksPerCallMax: number;
  readonly checkpointsPerCallMax: number;
  readonly checkpointDataEntriesPerCallMax: number;
  readonly txsPerCallMax: number;
  readonly txHashesPerCallMax: number;
  readonly leavesPerQueryMax: number;
  readonly tagsPerQueryMax: number;
  readonly logsPerTagMax: number;
}

export type RpcListLimitName = keyof RpcListLimits;

export const RPC_LIST_LIMITS_DEFAULT: RpcListLimits = {
  blocksPerCallMax: RPC_BLOCKS_PER_CALL_MAX,
  checkpointsPerCallMax: RPC_CHECKPOINTS_PER_CALL_MAX,
  checkpointDataEntriesPerCallMax: RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX,
  txsPerCallMax: RPC_TXS_PER_CALL_MAX,
  txHashesPerCallMax: RPC_TX_HASHES_PER_CALL_MAX,
  leavesPerQueryMax: RPC_LEAVES_PER_QUERY_MAX,
  tagsPerQueryMax: RPC_TAGS_PER_QUERY_MAX,
  logsPerTagMax: RPC_LOGS_PER_TAG_MAX,
};

/**
 * The named, configurable limits of one listener. Exceeding one answers -32005 with `error.data` =
 * `{ limit: <key of this record>, value: <the limit>, requested: <what the request asked for> }` (the body size
 * carries no `requested`: the body is not read past the limit).
 */
export interface RpcLimits extends RpcListLimits {
  /** Request body size, after any Content-Encoding is undone; above it the answer is HTTP 413. */
  readonly bodyBytesMax: number;
  /** JSON-RPC calls in one batch. */
  readonly batchCallsMax: number;
  /** Time one call may take before it is answered with -32002. */
  readonly requestTimeoutMs: number;
}

export type RpcLimitName = keyof RpcLimits;

export const PUBLIC_RPC_LIMITS_DEFAULT: RpcLimits = {
  bodyBytesMax: PUBLIC_BODY_BYTES_MAX,
  batchCallsMax: BATCH_CALLS_MAX,
  requestTimeoutMs: RPC_REQUEST_TIMEOUT_MS_DEFAULT,
  ...RPC_LIST_LIMITS_DEFAULT,
};

export const ADMIN_RPC_LIMITS_DEFAULT: RpcLimits = {
  bodyBytesMax: ADMIN_BODY_BYTES_MAX,
  batchCallsMax: BATCH_CALLS_MAX,
  requestTimeoutMs: RPC_REQUEST_TIMEOUT_MS_DEFAULT,
  ...RPC_LIST_LIMITS_DEFAULT,
};

/** Responses smaller than this are sent uncompressed even when the client accepts gzip. */
export const RPC_GZIP_RESPONSE_BYTES_MIN = 1024;

/** Characters of an unknown method name echoed back in a -32601 message. */
export const RPC_METHOD_NAME_ECHO_CHARS_MAX = 100;

/** Issues listed in the `error.data` of a -32602 answer. */
export const RPC_PARAM_ISSUES_MAX = 10;

/** Digits of a decimal `bigint` or `SlotNumber` on the wire: 78 digits hold any 256-bit value. */
export const WIRE_DECIMAL_DIGITS_MAX = 78;

/** Largest `bigint` the wire accepts: every protocol integer fits in 256 bits. */
export const WIRE_BIGINT_MAX = 2n ** 256n - 1n;

/** Bytes of randomness in a generated admin API key (sent as 64 hex characters). */
export const ADMIN_API_KEY_BYTES = 32;

/** On close, in-flight requests get this long to finish before their connections are cut. */
export const RPC_SHUTDOWN_GRACE_MS = 5_000;
