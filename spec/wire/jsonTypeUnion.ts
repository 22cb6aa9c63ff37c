/**
 * Error messages of the parameter unions whose branches differ by JSON type (a number, a string, an object): when
 * every branch fails, the message is the one of the branch the value's JSON type selects, so a client reads
 * "hash: ... got 31 bytes" rather than a list of every branch's complaint.
 */
import type { z } from 'zod';
import { describeInput } from './scalars.js';

export type JsonTypeName = 'number' | 'string' | 'object';

function jsonTypeOf(input: unknown): JsonTypeName | undefined {
  if (typeof input === 'number') return 'number';
  if (typeof input === 'string') return 'string';
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return 'object';
  return undefined;
}

interface UnionIssue {
  readonly input?: unknown;
  readonly errors?: readonly (readonly z.core.$ZodIssue[])[];
}

/**
 * The `error` option of a `z.union` whose branches are listed in `branches` order by JSON type; `shapes` describes
 * every accepted form, for values no branch takes.
 */
export function jsonTypeUnionError(branches: readonly JsonTypeName[], shapes: string) {
  return (issue: unknown): string => {
    const { input, errors } = issue as UnionIssue;
    const type = jsonTypeOf(input);
    const branch = type === undefined ? -1 : branches.indexOf(type);
    const first = branch < 0 ? undefined : errors?.[branch]?.[0];
    if (first === undefined) return `expected ${shapes}; got ${describeInput(input)}`;
    return first.path.length > 0 ? `${first.path.map(String).join('.')}: ${first.message}` : first.message;
  };
}
