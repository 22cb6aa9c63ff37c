/**
 * Errors of the JSON-RPC layer, and the one place where the core's stable string codes become JSON-RPC numbers.
 * An error the layer does not recognise is a fault of the node: it is logged and answered as -32603 with no detail.
 */
import type { NodeErrorCode } from '../../core/errors.js';
import type { LoggerPort } from '../../core/ports.js';
import { RpcErrorCode, TX_REJECTION_CODES, type RpcErrorName } from '../../spec/rpc/errorCodes.js';
import type { JsonRpcErrorObject } from '../../spec/rpc/jsonRpc.js';

/** An error to be answered as is: code, message, and optional data (wire JSON, bigints become decimal strings). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/**
 * Core codes that a client may see, and their JSON-RPC codes. The error's details become `error.data`, with the core
 * code added: a LIMIT_EXCEEDED from a handler (methodHandler.ts, assertWithinLimit) thus answers -32005 with
 * `{ limit, value, requested, code }`, a SUBSYSTEM_DISABLED -32004 with `{ subsystem, reason, code }`. `undefined` marks codes that never answer a request
 * (startup and sync failures): if one reaches a handler it is a fault, answered as -32603. Listing every
 * NodeErrorCode makes a new core code a type error here until someone decides how clients see it.
 */
const NODE_ERROR_TO_RPC: Readonly<Record<NodeErrorCode, RpcErrorName | undefined>> = {
  STATE_NOT_AVAILABLE: 'STATE_NOT_AVAILABLE',
  SUBSYSTEM_DISABLED: 'SUBSYSTEM_DISABLED',
  OPERATION_REFUSED: 'OPERATION_REFUSED',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  INVALID_PARAMS: 'INVALID_PARAMS',
  DATA_DIRECTORY_CHAIN_MISMATCH: undefined,
  GENESIS_MISMATCH: undefined,
  CHECKPOINT_INVALID: undefined,
  SYNC_FAILED: undefined,
};

/** The pool's rejection codes (core/txPool/txRejection.ts): a -32003 whose `error.data.code` says which. */
const TX_REJECTIONS: ReadonlySet<string> = new Set(TX_REJECTION_CODES);

/** The JSON-RPC code of a core error code, or undefined when clients never see it. */
export function rpcCodeOfNodeErrorCode(code: string): number | undefined {
  if (TX_REJECTIONS.has(code)) return RpcErrorCode.TX_REJECTED;
  if (!Object.hasOwn(NODE_ERROR_TO_RPC, code)) return undefined;
  const name = NODE_ERROR_TO_RPC[code as NodeErrorCode];
  return name === undefined ? undefined : RpcErrorCode[name];
}

/** JSON.stringify replacer of the wire: bigints become decimal strings. */
export function wireJsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** A JSON-safe copy of error data, or undefined if it cannot be serialised (cycles, functions only). */
function jsonSafe(data: unknown): unknown {
  try {
    const text = JSON.stringify(data, wireJsonReplacer);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function errorObject(code: number, message: string, data: unknown): JsonRpcErrorObject {
  const safeData = data === undefined ? undefined : jsonSafe(data);
  return safeData === undefined ? { code, message } : { code, message, data: safeData };
}

const hasStringCode = (error: unknown): error is Error & { code: string; details?: unknown } =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string';

/** The error object answering a failed call; faults are logged (with their stack) and answered without detail. */
export function toRpcErrorObject(error: unknown, logger: LoggerPort, method: string): JsonRpcErrorObject {
  if (error instanceof RpcError) return errorObject(error.code, error.message, error.data);
  if (hasStringCode(error)) {
    const code = rpcCodeOfNodeErrorCode(error.code);
    if (code !== undefined) {
      const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
      return errorObject(code, error.message, { ...details, code: error.code });
    }
  }
  logger.error('rpc call failed', {
    method,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return { code: RpcErrorCode.INTERNAL_ERROR, message: 'Internal error' };
}
