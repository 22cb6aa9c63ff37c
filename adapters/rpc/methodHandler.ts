import type { NodeService } from '../../core/nodeService.js';
import type { RpcMethodName, RpcParams, RpcResult } from '../../spec/rpc/methods.js';

/** What a handler may return: its result, or undefined where the result is nullable ("not found"). */
export type HandlerResult<Name extends RpcMethodName> = RpcResult<Name> | (null extends RpcResult<Name> ? undefined : never);

/**
 * One JSON-RPC method: decoded params in, the node's answer out. Decoding, encoding, errors and timeouts are the
 * dispatcher's; a handler only calls the node and shapes the answer.
 */
export type MethodHandler<Name extends RpcMethodName> = (
  node: NodeService,
  params: RpcParams<Name>,
) => HandlerResult<Name> | Promise<HandlerResult<Name>>;
