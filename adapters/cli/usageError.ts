import { CodedError, type NoDetails } from '../../spec/errors.js';

/**
 * A mistake in how svc was called: exit code 2. Its `name` stays the default 'Error', as before it had a code: the
 * CLI prints only the message, and a stack under SVC_DEBUG reads as it did.
 */
export class UsageError extends CodedError<'USAGE_INVALID', NoDetails> {
  constructor(message: string) {
    super('USAGE_INVALID', message, {});
  }
}
