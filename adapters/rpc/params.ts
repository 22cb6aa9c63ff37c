/** Decoding of positional params against a method's definition; every failure is -32602 naming the parameter. */
import type { z } from 'zod';
import { RpcErrorCode } from '../../spec/rpc/errorCodes.js';
import { RPC_PARAM_ISSUES_MAX } from '../../spec/rpc/limits.js';
import type { MethodDefinition, ParamDefinition } from '../../spec/rpc/methodDefinition.js';
import { RpcError } from './errors.js';

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
}

function invalidParam(position: number, param: ParamDefinition, issues: readonly z.core.$ZodIssue[]): RpcError {
  const first = issues[0];
  const where = first && first.path.length > 0 ? ` at ${formatPath(first.path)}` : '';
  const detail = first?.message ?? 'invalid value';
  return new RpcError(
    RpcErrorCode.INVALID_PARAMS,
    `Invalid params: params[${position}] (${param.name})${where}: ${detail}`,
    {
      position,
      name: param.name,
      issues: issues
        .slice(0, RPC_PARAM_ISSUES_MAX)
        .map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    },
  );
}

function decodeParam(position: number, param: ParamDefinition, value: unknown): unknown {
  const absent = value === undefined || (param.optional && value === null);
  if (absent) {
    // A schema with a default (`.default(...)`) supplies it; any other schema leaves the param undefined.
    if (param.optional) {
      const defaulted = param.schema.safeParse(undefined);
      return defaulted.success ? defaulted.data : undefined;
    }
    throw new RpcError(RpcErrorCode.INVALID_PARAMS, `Invalid params: params[${position}] (${param.name}) is required`, {
      position,
      name: param.name,
    });
  }
  const decoded = param.schema.safeParse(value);
  if (!decoded.success) throw invalidParam(position, param, decoded.error.issues);
  return decoded.data;
}

/** The decoded params tuple (one entry per defined param, `undefined` where an optional one is not given). */
export function decodeParams(method: string, definition: MethodDefinition, params: unknown): unknown[] {
  const given = params ?? [];
  if (!Array.isArray(given)) {
    throw new RpcError(RpcErrorCode.INVALID_PARAMS, `Invalid params: ${method} takes positional params (a JSON array)`);
  }
  const defined = definition.params;
  if (given.length > defined.length) {
    throw new RpcError(
      RpcErrorCode.INVALID_PARAMS,
      `Invalid params: ${method} takes at most ${defined.length} params, got ${given.length}`,
      { expected: defined.length, actual: given.length },
    );
  }
  return defined.map((param, position) => decodeParam(position, param, given[position]));
}
