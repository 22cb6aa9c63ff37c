/**
 * A typed JSON-RPC client derived from the method table: `requestWire` sends and returns wire JSON, `request`
 * encodes params from and decodes results into the node's types (bigints, BlockQuery...) with the same codecs the
 * server uses.
 */
import { z } from 'zod';
import type { JsonRpcResponse } from '../../spec/rpc/jsonRpc.js';
import { JSON_RPC_VERSION } from '../../spec/rpc/jsonRpc.js';
import {
  rpcMethods,
  type RpcMethodName,
  type RpcParams,
  type RpcResult,
  type RpcWireParams,
  type RpcWireResult,
} from '../../spec/rpc/methods.js';

export class RpcClientError extends Error {
  constructor(
    /** JSON-RPC error code, or the HTTP status when the answer was not a JSON-RPC response. */
    readonly code: number,
    message: string,
    readonly data: unknown,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'RpcClientError';
  }
}

export interface RpcClientOptions {
  readonly url: string;
  /** Admin API key, sent as `x-api-key`. */
  readonly apiKey?: string;
}

export interface RpcClient {
  requestWire<Name extends RpcMethodName>(method: Name, ...params: RpcWireParams<Name>): Promise<RpcWireResult<Name>>;
  request<Name extends RpcMethodName>(method: Name, ...params: RpcParams<Name>): Promise<RpcResult<Name>>;
}

/** Wire params: trailing params not given are left out, others not given are sent as null. */
function encodeParams(method: RpcMethodName, params: readonly unknown[]): unknown[] {
  const definitions = rpcMethods[method].params as readonly { readonly schema: z.ZodType }[];
  const given = params.slice(0, params.findLastIndex((value) => value !== undefined) + 1);
  return given.map((value, position) => {
    const definition = definitions[position];
    if (definition === undefined) throw new Error(`${method} takes ${definitions.length} params`);
    return value === undefined ? null : z.encode(definition.schema, value);
  });
}

export function createRpcClient(options: RpcClientOptions): RpcClient {
  let nextId = 1;

  async function send(method: string, params: readonly unknown[]): Promise<unknown> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
    const body = JSON.stringify({ jsonrpc: JSON_RPC_VERSION, id: nextId++, method, params });
    const response = await fetch(options.url, { method: 'POST', headers, body });
    const text = await response.text();
    let reply: JsonRpcResponse;
    try {
      reply = JSON.parse(text) as JsonRpcResponse;
    } catch {
      throw new RpcClientError(
        response.status,
        `HTTP ${response.status}: not a JSON-RPC response`,
        text,
        response.status,
      );
    }
    if ('error' in reply) {
      throw new RpcClientError(reply.error.code, reply.error.message, reply.error.data, response.status);
    }
    return reply.result;
  }

  return {
    requestWire: async (method, ...params) => (await send(method, params)) as RpcWireResult<typeof method>,
    request: async (method, ...params) => {
      const wire = await send(method, encodeParams(method, params));
      return rpcMethods[method].result.parse(wire) as RpcResult<typeof method>;
    },
  };
}
