/** The expected failures of the signing guard (SigningGuardPort in core/ports.ts): the node does not sign. */
import { CodedError, type CodedErrorOptions, type NoDetails } from '../../spec/errors.js';

/** Stable codes of the signing guard's expected failures. */
export type SigningGuardErrorCode =
  /** The shared database did not answer (or answered with an error): the node must not sign. */
  | 'SIGNING_GUARD_UNAVAILABLE'
  /** The database has no schema, or an older one: the operator runs `svc migrate-ha-db up`. */
  | 'SIGNING_GUARD_SCHEMA_MISSING'
  /** The database's schema is newer than this node knows. */
  | 'SIGNING_GUARD_SCHEMA_UNSUPPORTED';

export class SigningGuardError extends CodedError<SigningGuardErrorCode, NoDetails> {
  constructor(code: SigningGuardErrorCode, message: string, options?: CodedErrorOptions) {
    super(code, message, {}, options);
    this.name = 'SigningGuardError';
  }
}
