/** Invariant check. A failed assertion is a bug in the node, never an expected condition: it is never caught. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

export class AssertionError extends Error {
  constructor(message: string) {
    super(`assertion failed: ${message}`);
    this.name = 'AssertionError';
  }
}
