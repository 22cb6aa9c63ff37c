/**
 * JSON-RPC error codes (docs/protocol.md, Error codes). The method table documents a method's errors by these names;
 * `adapters/rpc/errors.ts` is the only place that maps the core's string codes onto them.
 */
export const RpcErrorCode = {
  /** The body is not valid JSON (or not UTF-8). */
  PARSE_ERROR: -32700,
  /** Not a JSON-RPC 2.0 request object, or an empty batch. */
  INVALID_REQUEST: -32600,
  /** No such method on this listener. */
  METHOD_NOT_FOUND: -32601,
  /** A parameter is missing or malformed; the message names it by position and name. */
  INVALID_PARAMS: -32602,
  /** A fault of the node; the answer carries no detail of it. */
  INTERNAL_ERROR: -32603,
  /** Admin API key missing or wrong (HTTP 401). */
  UNAUTHORIZED: -32001,
  /** The call took longer than the listener's `requestTimeoutMs`. */
  REQUEST_TIMED_OUT: -32002,
  /** The transaction was rejected; `error.data.code` says why. */
  TX_REJECTED: -32003,
  /** The subsystem the method needs (validator, p2p, sequencer...) is not enabled on this node. */
  SUBSYSTEM_DISABLED: -32004,
  /** A named limit was exceeded; `error.data` names the limit and its value. */
  LIMIT_EXCEEDED: -32005,
  /** The state asked about is not available (pruned from history, or unknown). */
  STATE_NOT_AVAILABLE: -32006,
  /** The operation is refused in the node's current state. */
  OPERATION_REFUSED: -32007,
} as const;

export type RpcErrorName = keyof typeof RpcErrorCode;
export type RpcErrorCodeNumber = (typeof RpcErrorCode)[RpcErrorName];

/** Rejection codes a -32003 answer carries in `error.data.code` (spec: Errors). */
export const TX_REJECTION_CODES = ['LOW_PRIORITY_FEE', 'INSUFFICIENT_FEE_PAYER_BALANCE', 'NULLIFIER_CONFLICT'] as const;
export type TxRejectionCode = (typeof TX_REJECTION_CODES)[number];
