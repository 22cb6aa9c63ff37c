/**
 * The errors of the typed client, one class per way a call can fail, all of them `SvcClientError`:
 * - `SvcRpcError`: the node answered the call with a JSON-RPC error object (`code`, `message`, `data` as sent);
 * - `SvcHttpError`: no JSON-RPC answer to read: HTTP 401/413/415 or another status, a transport failure, the
 *   client's timeout, or a body that is not a JSON-RPC reply;
 * - `SvcDecodeError`: the node answered a result that does not fit the method's result codec.
 * In the manner of viem's BaseError, each carries a `shortMessage`, optional `details` and the `cause`.
 */
import type { z } from 'zod';
import { RpcErrorCode, type RpcErrorName } from '../../spec/rpc/errorCodes.js';
import type { JsonRpcErrorObject } from '../../spec/rpc/jsonRpc.js';

export abstract class SvcClientError extends Error {
  /** The message without details. */
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(shortMessage: string, options: { readonly details?: string; readonly cause?: unknown } = {}) {
    super(options.details === undefined ? shortMessage : `${shortMessage}: ${options.details}`, {
      cause: options.cause,
    });
    this.shortMessage = shortMessage;
    this.details = options.details;
  }
}

const ERROR_NAME_BY_CODE: ReadonlyMap<number, RpcErrorName> = new Map(
  (Object.entries(RpcErrorCode) as [RpcErrorName, number][]).map(([name, code]) => [code, name]),
);

/** The name of a JSON-RPC error code in spec/rpc/errorCodes.ts (`-32004` is 'SUBSYSTEM_DISABLED'), if it has one. */
export function rpcErrorNameOf(code: number): RpcErrorName | undefined {
  return ERROR_NAME_BY_CODE.get(code);
}

/** The node answered a call with a JSON-RPC error. `message` is the node's message, unchanged. */
export class SvcRpcError extends SvcClientError {
  override readonly name = 'SvcRpcError';
  readonly code: number;
  /** `error.data` as the node sent it (wire JSON), `undefined` when absent. */
  readonly data: unknown;
  /** The code's name in spec/rpc/errorCodes.ts, e.g. 'INVALID_PARAMS' for -32602. */
  readonly errorName: RpcErrorName | undefined;
  /** The method called; undefined when the error answered a whole batch (e.g. -32005, too many calls). */
  readonly method: string | undefined;

  constructor(error: JsonRpcErrorObject, method: string | undefined) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
    this.errorName = rpcErrorNameOf(error.code);
    this.method = method;
  }
}

/**
 * Why no JSON-RPC answer could be read: 'unauthorized' (HTTP 401, admin key missing or wrong), 'bodyTooLarge' (413),
 * 'unsupportedMediaType' (415), 'unexpectedStatus' (any other status but 200), 'invalidResponse' (a 200 whose body
 * is not the JSON-RPC reply to what was sent), 'timeout' (the client's `timeoutMs` elapsed), 'transport' (no HTTP
 * answer at all: connection refused or reset, DNS...).
 */
export type SvcHttpErrorReason =
  | 'unauthorized'
  | 'bodyTooLarge'
  | 'unsupportedMediaType'
  | 'unexpectedStatus'
  | 'invalidResponse'
  | 'timeout'
  | 'transport';

export class SvcHttpError extends SvcClientError {
  override readonly name = 'SvcHttpError';
  readonly reason: SvcHttpErrorReason;
  /** The HTTP status, undefined when there was no HTTP answer ('timeout', 'transport'). */
  readonly status: number | undefined;
  /** The JSON-RPC error object the body carried, if any (a 401 carries -32001, a 413 carries -32005). */
  readonly rpcError: JsonRpcErrorObject | undefined;

  constructor(
    reason: SvcHttpErrorReason,
    shortMessage: string,
    options: {
      readonly status?: number;
      readonly rpcError?: JsonRpcErrorObject;
      readonly details?: string;
      readonly cause?: unknown;
    } = {},
  ) {
    super(shortMessage, options);
    this.reason = reason;
    this.status = options.status;
    this.rpcError = options.rpcError;
  }
}

/** A result that does not fit the method's result codec: the node and this client disagree on the wire shape. */
export class SvcDecodeError extends SvcClientError {
  override readonly name = 'SvcDecodeError';
  readonly method: string;
  /** The result as received (wire JSON). */
  readonly result: unknown;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(method: string, result: unknown, issues: readonly z.core.$ZodIssue[]) {
    const first = issues[0];
    const where = first === undefined || first.path.length === 0 ? '' : ` at ${first.path.map(String).join('.')}`;
    super(`The result of ${method} does not fit its wire schema`, {
      details: first === undefined ? undefined : `${first.message}${where}`,
    });
    this.method = method;
    this.result = result;
    this.issues = issues;
  }
}
