/** Invariant check. A failed assertion is a bug in the node, never an expected condition: it is never caught. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

/**
 * Not a CodedError (spec/errors.ts), on purpose: a code is there for a caller to branch on, and nothing may branch on
 * a broken invariant. Left as a plain Error, it can match no code, so adapters/rpc answers it as a fault (-32603).
 */
export class AssertionError extends Error {
  constructor(message: string) {
    super(`assertion failed: ${message}`);
    this.name = 'AssertionError';
  }
}
