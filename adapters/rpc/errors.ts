/**
 * Errors of the JSON-RPC layer, and the one place where the stable string codes of coded errors (spec/errors.ts)
 * become JSON-RPC numbers. An error the layer does not recognise is a fault of the node: it is logged and answered as
 * -32603 with no detail.
 */
import { match, P } from 'ts-pattern';
import { NodeError } from '../../core/errors.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { LoggerPort } from '../../core/ports.js';
import { TxRejectedError } from '../../core/txPool/txRejection.js';
import { BlsError } from '../../core/validators/bls.js';
import { SigningGuardError } from '../../core/validators/signingGuardError.js';
import { WorldStateError } from '../../core/worldState/worldStateError.js';
import { CodecError } from '../../spec/codec/bytes.js';
import { AllowListError } from '../../spec/config/allowList.js';
import { ConfigError } from '../../spec/config/configError.js';
import { RpcErrorCode, TX_REJECTION_CODES, type RpcErrorName } from '../../spec/rpc/errorCodes.js';
import type { JsonRpcErrorObject } from '../../spec/rpc/jsonRpc.js';

/**
 * An error to be answered as is: code, message, and optional data (wire JSON, bigints become decimal strings). Not a
 * CodedError: its code is already the JSON-RPC number, the outcome of the mapping below rather than an input to it.
 */
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
 * The coded errors a handler may see: every one that the core, the spec and the core's ports throw. The list is both
 * the run-time check and, through its type, the set of codes `clientErrorNameOf` must decide. The adapters' other
 * coded errors (the CLI's, anvil's, opening the database) never run under a handler: like any error, they are faults.
 */
const HANDLER_ERRORS = [
  NodeError,
  TxRejectedError,
  ConfigError,
  WorldStateError,
  L1Error,
  SigningGuardError,
  BlsError,
  CodecError,
  AllowListError,
] as const;
export type HandlerError = InstanceType<(typeof HANDLER_ERRORS)[number]>;
export type HandlerErrorCode = HandlerError['code'];

function isHandlerError(error: unknown): error is HandlerError {
  return HANDLER_ERRORS.some((errorClass) => error instanceof errorClass);
}

const fault = (): undefined => undefined;

/**
 * How clients see a code: the JSON-RPC error it answers, or undefined for a fault (-32603, logged, no detail). The
 * error's details become `error.data` with the code added: a LIMIT_EXCEEDED from a handler (methodHandler.ts,
 * assertWithinLimit) answers -32005 with `{ limit, value, requested, code }`, a SUBSYSTEM_DISABLED -32004 with
 * `{ subsystem, reason, code }`, a pool rejection -32003 with its figures. The match is exhaustive, so a new code is a
 * type error here until someone decides how clients see it; a code unknown at run time (a cast) is a fault.
 */
export function clientErrorNameOf(code: HandlerErrorCode): RpcErrorName | undefined {
  return (
    match<HandlerErrorCode, RpcErrorName | undefined>(code)
      .with(
        'STATE_NOT_AVAILABLE',
        'SUBSYSTEM_DISABLED',
        'OPERATION_REFUSED',
        'LIMIT_EXCEEDED',
        'INVALID_PARAMS',
        (name) => name,
      )
      .with(P.union(...TX_REJECTION_CODES), () => 'TX_REJECTED')
      // Startup and sync failures: they stop the node (or refuse its start), they never answer a call.
      .with(
        'DATA_DIRECTORY_CHAIN_MISMATCH',
        'GENESIS_MISMATCH',
        'CHECKPOINT_INVALID',
        'SYNC_FAILED',
        'CONFIG_INVALID',
        fault,
      )
      // The world state's own codes: the lead answers the ones a client may cause (pruned or unknown block) as
      // NodeError('STATE_NOT_AVAILABLE'); one that escapes is a fault.
      .with(
        'WORLD_STATE_BLOCK_PRUNED',
        'WORLD_STATE_BLOCK_UNKNOWN',
        'WORLD_STATE_BLOCK_OUT_OF_ORDER',
        'WORLD_STATE_DUPLICATE_NULLIFIER',
        'WORLD_STATE_EFFECTS_INVALID',
        'WORLD_STATE_TREE_FULL',
        'WORLD_STATE_DRAFT_STALE',
        'WORLD_STATE_GENESIS_MISMATCH',
        'WORLD_STATE_STORAGE_MISMATCH',
        'WORLD_STATE_LOOKUP_TOO_LARGE',
        'WORLD_STATE_QUERY_INVALID',
        'WORLD_STATE_READ_INTERRUPTED',
        fault,
      )
      // L1 and the signing guard fail the node's own work, not the call.
      .with(
        'L1_UNREACHABLE',
        'L1_BLOCK_NOT_FOUND',
        'L1_BLOBS_UNAVAILABLE',
        'L1_NO_ROLLUP_CONTRACT',
        'L1_TX_REJECTED',
        'L1_TX_UNDERPRICED',
        'L1_TX_KIND_CONFLICT',
        'L1_FEE_CAP_EXCEEDED',
        fault,
      )
      .with('SIGNING_GUARD_UNAVAILABLE', 'SIGNING_GUARD_SCHEMA_MISSING', 'SIGNING_GUARD_SCHEMA_UNSUPPORTED', fault)
      // Keys, codecs and allow lists read from the node's own inputs (keystore, blobs and L1 logs, configuration).
      .with('BLS_SECRET_KEY_INVALID', 'CODEC_INVALID', 'ALLOW_LIST_INVALID', fault)
      .exhaustive(fault)
  );
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

/**
 * What the log says of a fault. A thrown non-Error need not print: String() throws for an object without a callable
 * toString or valueOf (a null prototype, or an own `toString` that is not a function), and the call must still be
 * answered.
 */
function faultText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  try {
    return String(error);
  } catch {
    return `a thrown ${typeof error} that cannot be printed`;
  }
}

/** The error object answering a failed call; faults are logged (with their stack) and answered without detail. */
export function toRpcErrorObject(error: unknown, logger: LoggerPort, method: string): JsonRpcErrorObject {
  if (error instanceof RpcError) return errorObject(error.code, error.message, error.data);
  if (isHandlerError(error)) {
    const name = clientErrorNameOf(error.code);
    if (name !== undefined)
      return errorObject(RpcErrorCode[name], error.message, { ...error.details, code: error.code });
  }
  logger.error('rpc call failed', { method, error: faultText(error) });
  return { code: RpcErrorCode.INTERNAL_ERROR, message: 'Internal error' };
}
