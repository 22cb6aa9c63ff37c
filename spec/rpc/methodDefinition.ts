/**
 * The shape of one entry of the method table (spec/rpc/methods.ts) and the types derived from it: the wire params
 * tuple a client sends, the decoded params tuple a handler receives, and the same for results.
 */
import type { z } from 'zod';
import type { RpcErrorName } from './errorCodes.js';

export type RpcNamespace = 'public' | 'admin';

/** Every method name starts with its namespace's prefix; each listener serves one namespace. */
export const NAMESPACE_PREFIX = { public: 'svc_', admin: 'svcAdmin_' } as const satisfies Record<RpcNamespace, string>;

/**
 * One positional parameter. Optional parameters come last; `null` in their place means "not given", and a param not
 * given takes its schema's default when the schema has one (`.default(...)`), else stays undefined.
 */
export interface ParamDefinition<
  Name extends string = string,
  Schema extends z.ZodType = z.ZodType,
  Optional extends boolean = boolean,
> {
  readonly name: Name;
  readonly schema: Schema;
  readonly optional: Optional;
}

export function requiredParam<Name extends string, Schema extends z.ZodType>(
  name: Name,
  schema: Schema,
): ParamDefinition<Name, Schema, false> {
  return { name, schema, optional: false };
}

export function optionalParam<Name extends string, Schema extends z.ZodType>(
  name: Name,
  schema: Schema,
): ParamDefinition<Name, Schema, true> {
  return { name, schema, optional: true };
}

export interface MethodDefinition {
  readonly namespace: RpcNamespace;
  readonly params: readonly ParamDefinition[];
  /** Codec of the result: its output side is what the handler returns, its input side is the wire JSON. */
  readonly result: z.ZodType;
  /** Errors specific to this method; every method may also answer the envelope's errors (-32600...-32603, -32002). */
  readonly errors: readonly RpcErrorName[];
  readonly deprecated: boolean;
  /** One line, shown in generated documentation. */
  readonly description: string;
}

/** The params tuple on the wire: optional trailing params may be left out or sent as `null`. */
export type WireParamsOf<Params extends readonly ParamDefinition[]> = Params extends readonly [
  infer Head extends ParamDefinition,
  ...infer Rest extends readonly ParamDefinition[],
]
  ? Head['optional'] extends true
    ? [(z.input<Head['schema']> | null)?, ...WireParamsOf<Rest>]
    : [z.input<Head['schema']>, ...WireParamsOf<Rest>]
  : [];

/** The decoded params tuple a handler receives: an optional param not given is `undefined`. */
export type DecodedParamsOf<Params extends readonly ParamDefinition[]> = Params extends readonly [
  infer Head extends ParamDefinition,
  ...infer Rest extends readonly ParamDefinition[],
]
  ? Head['optional'] extends true
    ? [z.output<Head['schema']>?, ...DecodedParamsOf<Rest>]
    : [z.output<Head['schema']>, ...DecodedParamsOf<Rest>]
  : [];
