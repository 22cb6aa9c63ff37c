/**
 * Limits of the JSON-RPC envelope (PROTOCOL.md, Wire encoding). The defaults live in `spec/constants.ts`; this file
 * names them as one configurable record and adds the bounds that only the RPC layer needs.
 */
import {
  ADMIN_BODY_BYTES_MAX,
  BATCH_CALLS_MAX,
  PUBLIC_BODY_BYTES_MAX,
  RPC_REQUEST_TIMEOUT_MS_DEFAULT,
} from '../constants.js';

export { ADMIN_BODY_BYTES_MAX, BATCH_CALLS_MAX, PUBLIC_BODY_BYTES_MAX, RPC_REQUEST_TIMEOUT_MS_DEFAULT };

/**
 * The named, configurable limits of one listener. Exceeding one answers -32005 with `error.data` =
 * `{ limit: <key of this record>, value: <the limit>, actual: <what the request asked for> }`.
 */
export interface RpcLimits {
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
};

export const ADMIN_RPC_LIMITS_DEFAULT: RpcLimits = {
  bodyBytesMax: ADMIN_BODY_BYTES_MAX,
  batchCallsMax: BATCH_CALLS_MAX,
  requestTimeoutMs: RPC_REQUEST_TIMEOUT_MS_DEFAULT,
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
