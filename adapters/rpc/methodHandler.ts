import { NodeError } from '../../core/errors.js';
import type { NodeService } from '../../core/nodeService.js';
import type { RpcListLimitName, RpcListLimits } from '../../spec/rpc/limits.js';
import type { RpcMethodName, RpcParams, RpcResult } from '../../spec/rpc/methods.js';

/**
 * What a handler may return: its result, or undefined where the result is nullable ("not found", or a `void`
 * method, whose node call may return nothing).
 */
export type HandlerResult<Name extends RpcMethodName> =
  RpcResult<Name> | (null extends RpcResult<Name> ? undefined | void : never);

/** What the listener tells every handler besides its params: the effective list bounds of this listener. */
export interface HandlerContext {
  readonly limits: RpcListLimits;
}

/**
 * One JSON-RPC method: decoded params in, the node's answer out. Decoding, encoding, errors and timeouts are the
 * dispatcher's; a handler only calls the node, enforces its list bounds, and shapes the answer.
 */
export type MethodHandler<Name extends RpcMethodName> = (
  node: NodeService,
  params: RpcParams<Name>,
  context: HandlerContext,
) => HandlerResult<Name> | Promise<HandlerResult<Name>>;

/** The payload of a LIMIT_EXCEEDED error: which bound, its value, and what the call asked for. */
export interface LimitExceededDetails extends Record<string, unknown> {
  readonly limit: RpcListLimitName;
  readonly value: number;
  readonly requested: number;
}

/**
 * Refuses a list longer than its bound (-32005, never a silent cut): `requested` is the length the call asks for or
 * would be answered with.
 */
export function assertWithinLimit(limits: RpcListLimits, limit: RpcListLimitName, requested: number): void {
  const value = limits[limit];
  if (requested <= value) return;
  throw new NodeError<LimitExceededDetails>('LIMIT_EXCEEDED', `${requested} exceeds the limit ${limit} of ${value}`, {
    limit,
    value,
    requested,
  });
}
