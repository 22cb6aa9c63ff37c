import { assert } from '../../core/assert.js';

/** Asserts that a count (blocks, ms, a checkpoint number) is a non-negative integer, and returns it. */
export function checkedCount(value: number, what: string): number {
  assert(Number.isSafeInteger(value) && value >= 0, `${what} ${value} must be a non-negative integer`);
  return value;
}

/** Asserts that `p` is a probability, and returns it. */
export function checkedProbability(p: number, what: string): number {
  assert(p >= 0 && p <= 1, `${what} ${p} must be a probability in [0, 1]`);
  return p;
}
