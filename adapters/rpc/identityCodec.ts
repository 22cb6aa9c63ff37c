/**
 * Whether encoding a value with a schema can only validate it (no codec or transform anywhere inside), in which case
 * the dispatcher checks results with `safeParse`, about fifteen times cheaper than zod's `safeEncode` on the hot
 * path (svc_getBlockNumber). Conservative: any schema kind not known to be plain counts as a codec.
 */
import type { z } from 'zod';

/** Schema kinds that hold no transformation of their own. */
const PLAIN_LEAVES = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'undefined',
  'literal',
  'enum',
  'any',
  'unknown',
  'never',
]);
/** Nesting depth past which a schema is treated as a codec (a bound on the walk, not a real schema's depth). */
const SCHEMA_DEPTH_MAX = 64;

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly keyType?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly catchall?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function childrenOf(def: Def): readonly z.ZodType[] | undefined {
  switch (def.type) {
    case 'object':
      return [...Object.values(def.shape ?? {}), ...(def.catchall ? [def.catchall] : [])];
    case 'array':
      return def.element ? [def.element] : [];
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? [def.innerType] : [];
    case 'union':
      return def.options ?? [];
    case 'tuple':
      return [...(def.items ?? []), ...(def.rest ? [def.rest] : [])];
    case 'record':
      return [def.keyType, def.valueType].filter((s): s is z.ZodType => s !== undefined);
    default:
      return undefined;
  }
}

export function encodesAsIdentity(schema: z.ZodType, depth = 0): boolean {
  if (depth > SCHEMA_DEPTH_MAX) return false;
  const def = defOf(schema);
  if (PLAIN_LEAVES.has(def.type)) return true;
  const children = childrenOf(def);
  return children !== undefined && children.every((child) => encodesAsIdentity(child, depth + 1));
}
