import type { AbstractLevel } from 'abstract-level';

/**
 * abstract-level's array batch copies every operation with the call's options and runs it through the store's
 * encodings. On a store whose keys and values are utf8 strings, a batch of plain string operations comes out of
 * that unchanged, so the stores send such a batch straight to their `_batch`: one object less per operation, for
 * world-state blocks of thousands of pages.
 */
export interface PlainOperation {
  readonly type: 'put' | 'del';
  readonly key: string;
  readonly value?: string;
}

/** Whether `db.batch(operations, options)` may skip abstract-level's copy: see above. */
export function isPlainBatch(
  db: AbstractLevel<string | Uint8Array, string, string>,
  operations: unknown,
  options: unknown,
): operations is PlainOperation[] {
  const prewrite = db.hooks.prewrite as unknown as { readonly noop: boolean };
  if (db.status !== 'open' || !prewrite.noop || db.listenerCount('write') > 0) return false;
  if (!Array.isArray(operations) || !isPlainOptions(options)) return false;
  for (const op of operations as unknown[]) if (!isPlainOperation(op)) return false;
  return true;
}

/** No options, or none that change an encoding (`sync` is classic-level's, memory-level ignores it). */
function isPlainOptions(options: unknown): boolean {
  if (options === undefined || options === null) return true;
  if (typeof options !== 'object') return false;
  const { keyEncoding, valueEncoding } = options as { keyEncoding?: unknown; valueEncoding?: unknown };
  return (
    (keyEncoding === undefined || keyEncoding === 'utf8') && (valueEncoding === undefined || valueEncoding === 'utf8')
  );
}

/** A put of a string value or a del, at a string key, with no encoding or sublevel of its own. */
function isPlainOperation(op: unknown): op is PlainOperation {
  if (typeof op !== 'object' || op === null) return false;
  const { type, key, value, keyEncoding, valueEncoding, sublevel } = op as Record<string, unknown>;
  if (typeof key !== 'string' || keyEncoding !== undefined || valueEncoding !== undefined || sublevel !== undefined)
    return false;
  return type === 'del' || (type === 'put' && typeof value === 'string');
}
