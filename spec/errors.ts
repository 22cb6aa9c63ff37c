/**
 * The base of every expected failure of the node: a stable string code (`LOW_PRIORITY_FEE`, `SYNC_FAILED`), a
 * `shortMessage` a user can act on, typed `details`, and the `cause`. It follows viem's `BaseError`
 * (shortMessage, details, cause) and Lodestar's `LodestarError` (a code with a typed payload), but the message stays
 * the short message: callers, logs and tests read it as one sentence. It lives in spec/ because spec/ imports no other
 * layer and every layer throws coded errors (the codecs and the configuration in spec/ too).
 *
 * Callers branch on `code`, never on the message. Only adapters/rpc turns codes into JSON-RPC numbers.
 *
 * Not under this base, on purpose: `AssertionError` (core/assert.ts), which states a broken invariant and is never
 * caught, so it has no code to branch on; and errors whose `code` is a JSON-RPC number rather than a string (the RPC
 * layer's `RpcError`, the clients' errors), which are answers already mapped, not failures to map.
 */

/** Payload of an error that carries nothing beyond its code and message. */
export type NoDetails = Readonly<Record<string, never>>;

export interface CodedErrorOptions {
  readonly cause?: unknown;
}

/** `Details` is any object type, so that an interface (which has no index signature) can be one. */
export abstract class CodedError<Code extends string = string, Details extends object = object> extends Error {
  /** Stable across versions: what callers (and clients, through adapters/rpc) branch on. */
  readonly code: Code;
  /** One sentence a user can act on; also the `message`. */
  readonly shortMessage: string;
  /** The figures behind the failure; adapters/rpc answers them as `error.data` for the codes clients see. */
  readonly details: Details;

  /** `options` goes to `Error` as given, so an error without a cause has no `cause` property. */
  constructor(code: Code, shortMessage: string, details: Details, options?: CodedErrorOptions) {
    super(shortMessage, options);
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
  }
}
