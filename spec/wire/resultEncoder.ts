/**
 * Result encoders compiled once per method from its zod result schema. A result comes from the core, whose values are
 * typed and checked where they are made, so encoding it needs only each codec's encode step (a bigint to its decimal
 * string, a number to its string) and the object shapes' key selection: zod's `safeEncode` also re-checks every field
 * (a regular expression per hex string, the field modulus per Fr), which took about a seventh of a syncing node's main
 * thread under read load (bench/README.md, Read load). Schema kinds the compiler does not know are left to zod's
 * `encode` for their subtree, so an unusual schema costs speed, never correctness. A compiled encoder that throws
 * (a value of the wrong shape) tells the caller to fall back to zod, whose error names the field.
 *
 * `checkedResultEncoder` runs both and throws when they differ: the RPC suites run every answer through it
 * (SVC_RPC_CHECK_RESULT_ENCODING), which holds the compiled encoders to zod's on every method the tests call.
 */
import { z } from 'zod';
import { isDeepStrictEqual } from 'node:util';

/** Turns a core value into its wire JSON; may throw on a value that does not fit the schema. */
export type ResultEncoder = (value: unknown) => unknown;

/** Schema nesting past which the compiler hands the subtree to zod (a bound on the walk; real schemas are shallow). */
const SCHEMA_DEPTH_MAX = 64;

interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly items?: readonly z.ZodType[];
  readonly rest?: z.ZodType | null;
  readonly valueType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly reverseTransform?: (value: unknown, payload: unknown) => unknown;
  readonly getter?: () => z.ZodType;
}

interface SchemaInternals {
  readonly def: SchemaDef;
  readonly propValues?: Record<string, Set<unknown>>;
}

const internalsOf = (schema: z.ZodType): SchemaInternals => (schema as unknown as { _zod: SchemaInternals })._zod;

const identity: ResultEncoder = (value) => value;

/** Kinds whose encoding is the value itself. */
const PLAIN_KINDS = new Set(['string', 'number', 'boolean', 'null', 'undefined', 'literal', 'enum', 'custom']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's own encoding of a subtree, throwing its error. */
const byZod =
  (schema: z.ZodType): ResultEncoder =>
  (value) =>
    z.encode(schema, value);

/** The compiler's state: encoders made so far (a lazy schema may refer to itself). */
type Cache = Map<z.ZodType, ResultEncoder>;

function compileObject(schema: z.ZodType, def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  if (def.catchall !== undefined) return byZod(schema);
  const fields = Object.entries(def.shape ?? {}).map(([key, schema]) => [key, compile(schema, cache, depth)] as const);
  return (value) => {
    if (!isRecord(value)) throw new TypeError('expected an object');
    const out: Record<string, unknown> = {};
    for (const [key, encode] of fields) {
      const field = value[key];
      if (field !== undefined) out[key] = encode(field);
      else if (Object.hasOwn(value, key)) out[key] = undefined;
    }
    return out;
  };
}

function compileArray(def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  const element = compile(def.element as z.ZodType, cache, depth);
  if (element === identity) return (value) => (Array.isArray(value) ? value : fail('expected an array'));
  return (value) => (Array.isArray(value) ? value.map((item) => element(item)) : fail('expected an array'));
}

function compileTuple(def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  const items = (def.items ?? []).map((item) => compile(item, cache, depth));
  const rest = def.rest ? compile(def.rest, cache, depth) : undefined;
  return (value) => {
    if (!Array.isArray(value)) return fail('expected a tuple');
    return value.map((item, index) => (items[index] ?? rest ?? fail('tuple longer than its schema'))(item));
  };
}

function compileRecord(def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  const entry = compile(def.valueType as z.ZodType, cache, depth);
  return (value) => {
    if (!isRecord(value)) return fail('expected a record');
    if (entry === identity) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, entry(item)]));
  };
}

/** A union whose options all encode as themselves is the identity; a discriminated one picks its option by tag. */
function compileUnion(schema: z.ZodType, def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  const options = (def.options ?? []).map((option) => [option, compile(option, cache, depth)] as const);
  if (options.every(([, encode]) => encode === identity)) return identity;
  const key = def.discriminator;
  if (key === undefined) return byZod(schema);
  const byTag = new Map<unknown, ResultEncoder>();
  for (const [option, encode] of options) {
    for (const tag of internalsOf(option).propValues?.[key] ?? []) byTag.set(tag, encode);
  }
  return (value) => {
    const encode = isRecord(value) ? byTag.get(value[key]) : undefined;
    return encode === undefined ? fail(`no union option for ${key}`) : encode(value);
  };
}

function compileCodec(schema: z.ZodType, def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  const reverse = def.reverseTransform;
  if (reverse === undefined) return byZod(schema); // a plain pipe: zod knows how it runs backward
  const wire = compile(def.in as z.ZodType, cache, depth);
  return (value) => wire(reverse(value, { value, issues: [] }));
}

function compileLazy(schema: z.ZodType, def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  let inner: ResultEncoder | undefined;
  const encoder: ResultEncoder = (value) => {
    inner ??= compile((def.getter as () => z.ZodType)(), cache, depth);
    return inner(value);
  };
  cache.set(schema, encoder);
  return encoder;
}

const fail = (why: string): never => {
  throw new TypeError(why);
};

function compileWrapper(def: SchemaDef, cache: Cache, depth: number): ResultEncoder {
  const inner = compile(def.innerType as z.ZodType, cache, depth);
  if (inner === identity) return identity;
  switch (def.type) {
    case 'optional':
      return (value) => (value === undefined ? value : inner(value));
    case 'nullable':
      return (value) => (value === null ? value : inner(value));
    default:
      return inner;
  }
}

function compile(schema: z.ZodType, cache: Cache, depth: number): ResultEncoder {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  if (depth > SCHEMA_DEPTH_MAX) return byZod(schema);
  const def = internalsOf(schema).def;
  const next = depth + 1;
  if (PLAIN_KINDS.has(def.type)) return identity;
  switch (def.type) {
    case 'object':
      return compileObject(schema, def, cache, next);
    case 'array':
      return compileArray(def, cache, next);
    case 'tuple':
      return compileTuple(def, cache, next);
    case 'record':
      return compileRecord(def, cache, next);
    case 'union':
      return compileUnion(schema, def, cache, next);
    case 'pipe':
      return compileCodec(schema, def, cache, next);
    case 'lazy':
      return compileLazy(schema, def, cache, next);
    case 'optional':
    case 'nullable':
    case 'readonly':
      return compileWrapper(def, cache, next);
    default:
      return byZod(schema);
  }
}

/** The encoder of one result schema, made once when the dispatcher builds its routes. */
export function compileResultEncoder(schema: z.ZodType): ResultEncoder {
  return compile(schema, new Map(), 0);
}

/** Runs the compiled encoder and zod's, and throws when their outputs differ (tests only: it costs zod's time). */
export function checkedResultEncoder(schema: z.ZodType, compiled: ResultEncoder): ResultEncoder {
  return (value) => {
    const fromZod = z.encode(schema, value);
    const fast = compiled(value);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(fast) ?? 'null'), JSON.parse(JSON.stringify(fromZod) ?? 'null'))) {
      throw new Error(`compiled result encoding differs from zod's: ${JSON.stringify(fast)?.slice(0, 200)}`);
    }
    return fast;
  };
}
