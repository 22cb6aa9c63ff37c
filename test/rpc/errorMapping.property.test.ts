/**
 * The JSON-RPC view of coded errors (adapters/rpc/errors.ts) is total over their codes, stable, and answers every
 * error exactly as the mapping did before coded errors had a base: `legacyToRpcErrorObject` below is that mapping,
 * kept verbatim as the oracle (it looked up any Error whose `code` was a string).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../adapters/cli/usageError.js';
import { AnvilPortInUseError, AnvilStartError } from '../../adapters/l1/anvil.js';
import { AdminApiKeyError } from '../../adapters/rpc/adminApiKey.js';
import {
  clientErrorNameOf,
  RpcError,
  toRpcErrorObject,
  wireJsonReplacer,
  type HandlerErrorCode,
} from '../../adapters/rpc/errors.js';
import { StorageError } from '../../adapters/storage/storageError.js';
import { AssertionError } from '../../core/assert.js';
import { NodeError, type NodeErrorCode } from '../../core/errors.js';
import { L1Error, type L1ErrorCode } from '../../core/l1/l1Error.js';
import type { LoggerPort } from '../../core/ports.js';
import { TxRejectedError, type TxRejection } from '../../core/txPool/txRejection.js';
import { BlsError } from '../../core/validators/bls.js';
import { SigningGuardError, type SigningGuardErrorCode } from '../../core/validators/signingGuardError.js';
import { WorldStateError, type WorldStateErrorCode } from '../../core/worldState/worldStateError.js';
import { CodecError } from '../../spec/codec/bytes.js';
import { AllowListError } from '../../spec/config/allowList.js';
import { ConfigError, type ConfigErrorCode, type ConfigProblemKind } from '../../spec/config/configError.js';
import { RpcErrorCode, TX_REJECTION_CODES, type TxRejectionCode } from '../../spec/rpc/errorCodes.js';
import type { JsonRpcErrorObject } from '../../spec/rpc/jsonRpc.js';

// ---------------------------------------------------------------------------------------------------------------
// The oracle: adapters/rpc/errors.ts as it was (commit b81a0e7), with its NodeErrorCode table as plain strings.

const LEGACY_NODE_ERROR_TO_RPC: Readonly<Record<string, keyof typeof RpcErrorCode | undefined>> = {
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
const LEGACY_TX_REJECTIONS: ReadonlySet<string> = new Set(TX_REJECTION_CODES);

function legacyRpcCodeOfNodeErrorCode(code: string): number | undefined {
  if (LEGACY_TX_REJECTIONS.has(code)) return RpcErrorCode.TX_REJECTED;
  if (!Object.hasOwn(LEGACY_NODE_ERROR_TO_RPC, code)) return undefined;
  const name = LEGACY_NODE_ERROR_TO_RPC[code];
  return name === undefined ? undefined : RpcErrorCode[name];
}

function legacyJsonSafe(data: unknown): unknown {
  try {
    const text = JSON.stringify(data, wireJsonReplacer);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function legacyErrorObject(code: number, message: string, data: unknown): JsonRpcErrorObject {
  const safeData = data === undefined ? undefined : legacyJsonSafe(data);
  return safeData === undefined ? { code, message } : { code, message, data: safeData };
}

const legacyHasStringCode = (error: unknown): error is Error & { code: string; details?: unknown } =>
  error instanceof Error && typeof (error as { code?: unknown }).code === 'string';

function legacyToRpcErrorObject(error: unknown, logger: LoggerPort, method: string): JsonRpcErrorObject {
  if (error instanceof RpcError) return legacyErrorObject(error.code, error.message, error.data);
  if (legacyHasStringCode(error)) {
    const code = legacyRpcCodeOfNodeErrorCode(error.code);
    if (code !== undefined) {
      const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
      return legacyErrorObject(code, error.message, { ...details, code: error.code });
    }
  }
  logger.error('rpc call failed', {
    method,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return { code: RpcErrorCode.INTERNAL_ERROR, message: 'Internal error' };
}

// ---------------------------------------------------------------------------------------------------------------
// Every code, listed per class. `satisfies Record<Code, ...>` makes a new code a type error here too.

const codesOf = <Code extends string>(table: Record<Code, true>): Code[] => Object.keys(table) as Code[];
const NODE_CODES = codesOf<NodeErrorCode>({
  STATE_NOT_AVAILABLE: true,
  SUBSYSTEM_DISABLED: true,
  OPERATION_REFUSED: true,
  LIMIT_EXCEEDED: true,
  INVALID_PARAMS: true,
  DATA_DIRECTORY_CHAIN_MISMATCH: true,
  GENESIS_MISMATCH: true,
  CHECKPOINT_INVALID: true,
  SYNC_FAILED: true,
});
const WORLD_STATE_CODES = codesOf<WorldStateErrorCode>({
  WORLD_STATE_BLOCK_PRUNED: true,
  WORLD_STATE_BLOCK_UNKNOWN: true,
  WORLD_STATE_BLOCK_OUT_OF_ORDER: true,
  WORLD_STATE_DUPLICATE_NULLIFIER: true,
  WORLD_STATE_EFFECTS_INVALID: true,
  WORLD_STATE_TREE_FULL: true,
  WORLD_STATE_DRAFT_STALE: true,
  WORLD_STATE_GENESIS_MISMATCH: true,
  WORLD_STATE_STORAGE_MISMATCH: true,
  WORLD_STATE_LOOKUP_TOO_LARGE: true,
  WORLD_STATE_QUERY_INVALID: true,
  WORLD_STATE_READ_INTERRUPTED: true,
});
const L1_CODES = codesOf<L1ErrorCode>({
  L1_UNREACHABLE: true,
  L1_BLOCK_NOT_FOUND: true,
  L1_BLOBS_UNAVAILABLE: true,
  L1_NO_ROLLUP_CONTRACT: true,
  L1_TX_REJECTED: true,
  L1_TX_UNDERPRICED: true,
  L1_TX_KIND_CONFLICT: true,
  L1_FEE_CAP_EXCEEDED: true,
});
const SIGNING_GUARD_CODES = codesOf<SigningGuardErrorCode>({
  SIGNING_GUARD_UNAVAILABLE: true,
  SIGNING_GUARD_SCHEMA_MISSING: true,
  SIGNING_GUARD_SCHEMA_UNSUPPORTED: true,
});
const CONFIG_CODES = codesOf<ConfigErrorCode>({ CONFIG_INVALID: true, INVALID_PARAMS: true });
const PROBLEM_KINDS = codesOf<ConfigProblemKind>({
  retired: true,
  invalidValue: true,
  unknownName: true,
  restartRequired: true,
  localOnly: true,
  missing: true,
  conflict: true,
});

/**
 * How clients see each code, as decided before the base existed: a JSON-RPC number, or undefined for a fault. Its
 * keys must be exactly the codes of the errors a handler may see.
 */
const CLIENT_VIEW = {
  STATE_NOT_AVAILABLE: -32006,
  SUBSYSTEM_DISABLED: -32004,
  OPERATION_REFUSED: -32007,
  LIMIT_EXCEEDED: -32005,
  INVALID_PARAMS: -32602,
  LOW_PRIORITY_FEE: -32003,
  INSUFFICIENT_FEE_PAYER_BALANCE: -32003,
  NULLIFIER_CONFLICT: -32003,
  DATA_DIRECTORY_CHAIN_MISMATCH: undefined,
  GENESIS_MISMATCH: undefined,
  CHECKPOINT_INVALID: undefined,
  SYNC_FAILED: undefined,
  CONFIG_INVALID: undefined,
  WORLD_STATE_BLOCK_PRUNED: undefined,
  WORLD_STATE_BLOCK_UNKNOWN: undefined,
  WORLD_STATE_BLOCK_OUT_OF_ORDER: undefined,
  WORLD_STATE_DUPLICATE_NULLIFIER: undefined,
  WORLD_STATE_EFFECTS_INVALID: undefined,
  WORLD_STATE_TREE_FULL: undefined,
  WORLD_STATE_DRAFT_STALE: undefined,
  WORLD_STATE_GENESIS_MISMATCH: undefined,
  WORLD_STATE_STORAGE_MISMATCH: undefined,
  WORLD_STATE_LOOKUP_TOO_LARGE: undefined,
  WORLD_STATE_QUERY_INVALID: undefined,
  WORLD_STATE_READ_INTERRUPTED: undefined,
  L1_UNREACHABLE: undefined,
  L1_BLOCK_NOT_FOUND: undefined,
  L1_BLOBS_UNAVAILABLE: undefined,
  L1_NO_ROLLUP_CONTRACT: undefined,
  L1_TX_REJECTED: undefined,
  L1_TX_UNDERPRICED: undefined,
  L1_TX_KIND_CONFLICT: undefined,
  L1_FEE_CAP_EXCEEDED: undefined,
  SIGNING_GUARD_UNAVAILABLE: undefined,
  SIGNING_GUARD_SCHEMA_MISSING: undefined,
  SIGNING_GUARD_SCHEMA_UNSUPPORTED: undefined,
  BLS_SECRET_KEY_INVALID: undefined,
  CODEC_INVALID: undefined,
  ALLOW_LIST_INVALID: undefined,
} satisfies Record<HandlerErrorCode, number | undefined>;

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries

const wireValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.bigInt(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 3 }),
);
const details = fc.dictionary(fc.string({ maxLength: 12 }), wireValue, { maxKeys: 5 });
const message = fc.string({ maxLength: 40 });
const cause = fc.option(
  fc.string().map((text) => new Error(text)),
  { nil: undefined },
);
const withCause = (error: unknown) => (error === undefined ? undefined : { cause: error });

const nodeError = fc
  .tuple(fc.constantFrom(...NODE_CODES), message, details, cause)
  .map(([code, text, payload, why]) => new NodeError(code, text, payload, withCause(why)));
const txRejectedError = fc
  .tuple(fc.constantFrom<TxRejectionCode>(...TX_REJECTION_CODES), message, details)
  .map(([code, text, payload]) => new TxRejectedError({ code, details: payload } as unknown as TxRejection, text));
const configError = fc
  .tuple(
    fc.constantFrom(...CONFIG_CODES),
    fc.array(fc.record({ kind: fc.constantFrom(...PROBLEM_KINDS), name: fc.string(), message }), {
      minLength: 1,
      maxLength: 12,
    }),
  )
  .map(([code, problems]) => new ConfigError(code, problems));
const worldStateError = fc
  .tuple(fc.constantFrom(...WORLD_STATE_CODES), message, details)
  .map(([code, text, payload]) => new WorldStateError(code, text, payload));
const portError = fc.oneof(
  fc
    .tuple(fc.constantFrom(...L1_CODES), message, cause)
    .map(([code, text, why]) => new L1Error(code, text, withCause(why))),
  fc.tuple(fc.constantFrom(...SIGNING_GUARD_CODES), message).map(([code, text]) => new SigningGuardError(code, text)),
  message.map((text) => new BlsError('BLS_SECRET_KEY_INVALID', text)),
  message.map((text) => new CodecError(text)),
  fc.tuple(fc.nat(), fc.string(), message).map(([index, entry, reason]) => new AllowListError(index, entry, reason)),
);
/** Coded errors no handler is meant to see, and errors with no code of ours: all faults, before and now. */
const otherError = fc.oneof(
  fc
    .tuple(fc.constantFrom('STORAGE_LOCKED', 'STORAGE_OPEN_FAILED' as const), message)
    .map(([code, text]) => new StorageError(code, text, { dataDirectory: '/d', location: '/d/db' })),
  message.map((text) => new AdminApiKeyError(text)),
  message.map((text) => new AnvilStartError(text)),
  message.map((text) => new AnvilPortInUseError(text)),
  message.map((text) => new UsageError(text)),
  message.map((text) => new AssertionError(text)),
  fc
    .tuple(
      message,
      fc.string().filter((code) => !Object.hasOwn(CLIENT_VIEW, code)),
    )
    .map(([text, code]) => Object.assign(new Error(text), { code, details: { secret: 'x' } })),
  fc
    .tuple(fc.integer({ min: -32768, max: -32000 }), message, fc.option(details, { nil: undefined }))
    .map(([code, text, data]) => new RpcError(code, text, data)),
  // A thrown non-Error, printable or not (the old mapping threw on one it could not print).
  fc.oneof(
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.constant(undefined),
    details.map((payload) => ({ ...payload })),
    details.map((payload) => Object.assign(Object.create(null) as object, payload)),
    fc.constant({ toString: 0n }),
  ),
);
const anyError = fc.oneof(nodeError, txRejectedError, configError, worldStateError, portError, otherError);

const INTERNAL_ERROR_TEXT = '{"code":-32603,"message":"Internal error"}';

/** The answer, as bytes, and whether it was logged. */
function answer(map: typeof toRpcErrorObject, error: unknown): { text: string; logged: number } {
  let logged = 0;
  const logger: LoggerPort = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => void logged++,
    child: () => logger,
  };
  return { text: JSON.stringify(map(error, logger, 'svc_method')), logged };
}

/** The answer, or undefined when the mapping threw. */
function answerOrThrow(map: typeof toRpcErrorObject, error: unknown): ReturnType<typeof answer> | undefined {
  try {
    return answer(map, error);
  } catch {
    return undefined;
  }
}

describe('coded errors as JSON-RPC errors (properties)', () => {
  it('every error is answered byte for byte as before, and logged exactly when it is a fault', () => {
    fc.assert(
      fc.property(anyError, (error) => {
        const now = answer(toRpcErrorObject, error);
        const before = answerOrThrow(legacyToRpcErrorObject, error);
        // Where the old mapping threw (a thrown value it could not print), the call is now a logged fault.
        expect(now).toEqual(before ?? { text: INTERNAL_ERROR_TEXT, logged: 1 });
        expect(now.logged).toBe(now.text === INTERNAL_ERROR_TEXT ? 1 : 0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('the mapping is total over the codes of the errors a handler may see, and stable', () => {
    const codes = Object.keys(CLIENT_VIEW) as HandlerErrorCode[];
    fc.assert(
      fc.property(fc.constantFrom(...codes), (code) => {
        const name = clientErrorNameOf(code);
        expect(name === undefined ? undefined : RpcErrorCode[name]).toBe(CLIENT_VIEW[code]);
        expect(clientErrorNameOf(code)).toBe(name);
      }),
    );
  });

  it('a thrown value that cannot be printed is answered as a fault and logged, not a throw', () => {
    const unprintable = [{ toString: 0n }, Object.create(null) as object, { toString: null, valueOf: () => ({}) }];
    for (const error of unprintable) {
      let logged: unknown;
      const logger: LoggerPort = {
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: (_message, fields) => void (logged = fields?.error),
        child: () => logger,
      };
      expect(JSON.stringify(toRpcErrorObject(error, logger, 'svc_method'))).toBe(INTERNAL_ERROR_TEXT);
      expect(logged).toBe('a thrown object that cannot be printed');
    }
  });

  it('a code unknown at run time (a cast) is a fault, not a throw', () => {
    fc.assert(
      fc.property(
        fc.string().filter((code) => !Object.hasOwn(CLIENT_VIEW, code)),
        (code) => {
          expect(clientErrorNameOf(code as HandlerErrorCode)).toBeUndefined();
          const forged = new NodeError(code as NodeErrorCode, 'forged');
          expect(answer(toRpcErrorObject, forged)).toEqual({ text: INTERNAL_ERROR_TEXT, logged: 1 });
        },
      ),
    );
  });
});
