/**
 * The typed JSON-RPC client of the service, derived from the method table (spec/rpc/methods.ts): a method added to
 * the table appears here, typed, with no change to this file.
 *
 *   const node = createSvcClient('http://127.0.0.1:8080');
 *   const block = await node.request('svc_getBlock', [12, { includeL1PublishInfo: true }]);
 *   const same = await node.svc.getBlock(12, { includeL1PublishInfo: true });
 *   const admin = createSvcClient('http://127.0.0.1:8880', { apiKey });
 *   await admin.admin.pauseSync();
 *   const [tips, missing] = await node.batch([{ method: 'svc_getChainTips' }, { method: 'svc_getBlock', params: [99] }]);
 *
 * Params go in as wire JSON (a block number, a tag, a decimal string or a safe integer for a bigint, hex for bytes);
 * results come out decoded by the method's result codec (bigints as `bigint`, `null` for a lookup that found
 * nothing), so a result that does not fit the codec fails as `SvcDecodeError` instead of reaching the caller.
 *
 * Shape: `request(method, params)` takes the full wire name and the params tuple; `svc.<name>(...params)` calls
 * `svc_<name>` and `admin.<name>(...params)` calls `svcAdmin_<name>`, params spread; `batch(calls)` sends one
 * JSON-RPC batch and resolves to one outcome per call, in the order of the calls. Each listener serves one
 * namespace, so a client for the public port uses `svc`, a client for the admin port (with `apiKey`) uses `admin`;
 * calling the other group answers -32601.
 *
 * Transport: global `fetch` (Node's undici keeps connections alive and reuses them by default; pass `fetch` to use
 * another dispatcher), POST with `Content-Type: application/json`, the API key in `x-api-key`.
 */
import type { z } from 'zod';
import { RPC_REQUEST_TIMEOUT_MS_DEFAULT } from '../../spec/constants.js';
import {
  JSON_RPC_VERSION,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcResponse,
} from '../../spec/rpc/jsonRpc.js';
import { NAMESPACE_PREFIX, type RpcNamespace } from '../../spec/rpc/methodDefinition.js';
import {
  rpcMethodList,
  rpcMethods,
  type RpcMethodName,
  type RpcMethodNameIn,
  type RpcResult,
  type RpcWireParams,
} from '../../spec/rpc/methods.js';
import { SvcDecodeError, SvcHttpError, SvcRpcError, type SvcHttpErrorReason } from './svcClientError.js';

/** Default of `timeoutMs`: a little over the server's own request timeout, so that its -32002 answer arrives first. */
export const SVC_CLIENT_TIMEOUT_MS_DEFAULT = RPC_REQUEST_TIMEOUT_MS_DEFAULT + 5_000;

export interface SvcClientOptions {
  /** The admin API key, sent as `x-api-key` on every request. */
  readonly apiKey?: string;
  /** Time one HTTP exchange (a call or a batch) may take, body included; then it fails as SvcHttpError 'timeout'. */
  readonly timeoutMs?: number;
  /** The fetch to use; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
}

/** The params tuple of a method as the caller passes it: wire JSON, trailing optional params may be left out. */
export type SvcParams<Name extends RpcMethodName> = Readonly<RpcWireParams<Name>>;

/** `request`'s params argument: optional when every param of the method is. */
type ParamsArgument<Name extends RpcMethodName> =
  [] extends RpcWireParams<Name> ? [params?: SvcParams<Name>] : [params: SvcParams<Name>];

/** One call of a batch; `params` may be left out when every param of the method is optional. */
export type SvcCall = {
  [Name in RpcMethodName]: [] extends RpcWireParams<Name>
    ? { readonly method: Name; readonly params?: SvcParams<Name> }
    : { readonly method: Name; readonly params: SvcParams<Name> };
}[RpcMethodName];

/** How one call of a batch ended: its decoded result, or the error that answered it. */
export type SvcCallOutcome<Name extends RpcMethodName = RpcMethodName> =
  | { readonly ok: true; readonly method: Name; readonly result: RpcResult<Name> }
  | { readonly ok: false; readonly method: Name; readonly error: SvcRpcError | SvcDecodeError };

/** The outcomes of a batch, one per call, in the order of the calls. */
export type SvcBatchOutcomes<Calls extends readonly SvcCall[]> = {
  -readonly [Index in keyof Calls]: SvcCallOutcome<Calls[Index]['method']>;
};

/** The property of the client that groups each namespace's methods. */
export const SVC_CLIENT_GROUP = { public: 'svc', admin: 'admin' } as const satisfies Record<RpcNamespace, string>;
type SvcClientGroupName = (typeof SVC_CLIENT_GROUP)[RpcNamespace];

type ShortName<Name extends string, Prefix extends string> = Name extends `${Prefix}${infer Short}` ? Short : never;

/** One namespace's methods under their names without the prefix: `getBlock` for `svc_getBlock`. */
export type SvcNamespaceMethods<Namespace extends RpcNamespace> = {
  readonly [Name in RpcMethodNameIn<Namespace> as ShortName<Name, (typeof NAMESPACE_PREFIX)[Namespace]>]: (
    ...params: RpcWireParams<Name>
  ) => Promise<RpcResult<Name>>;
};

export type SvcClientGroups = {
  readonly [Namespace in RpcNamespace as (typeof SVC_CLIENT_GROUP)[Namespace]]: SvcNamespaceMethods<Namespace>;
};

export interface SvcClientMethods {
  readonly url: string;
  /** One call of a table method; resolves to its decoded result, rejects with a SvcClientError. */
  request<Name extends RpcMethodName>(method: Name, ...params: ParamsArgument<Name>): Promise<RpcResult<Name>>;
  /**
   * One JSON-RPC batch. Resolves to one outcome per call, in order, whatever each call's fate; rejects only when the
   * batch as a whole got no answer (SvcHttpError) or was refused as a whole (SvcRpcError, e.g. -32005 over the
   * batch limit). An empty list resolves to an empty list without a request.
   */
  batch<const Calls extends readonly SvcCall[]>(calls: Calls): Promise<SvcBatchOutcomes<Calls>>;
  /** Any method, table or not (`rpc.discover`...): wire params in, the wire result out, nothing decoded. */
  requestWire(method: string, params?: readonly unknown[]): Promise<unknown>;
}

export type SvcClient = SvcClientMethods & SvcClientGroups;

interface Exchange {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly fetch: typeof globalThis.fetch;
}

/** JSON.stringify replacer: a bigint goes on the wire as its decimal string (docs/protocol.md, Wire encoding). */
const bigintAsDecimal = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? value.toString() : value;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === 'string' || typeof value === 'number';

function readErrorObject(value: unknown): JsonRpcErrorObject | undefined {
  if (!isRecord(value) || !Number.isInteger(value['code']) || typeof value['message'] !== 'string') return undefined;
  const base = { code: value['code'] as number, message: value['message'] };
  return Object.hasOwn(value, 'data') ? { ...base, data: value['data'] } : base;
}

/** A JSON-RPC 2.0 response object, or undefined when the value is not one. */
function readResponse(value: unknown): JsonRpcResponse | undefined {
  if (!isRecord(value) || value['jsonrpc'] !== JSON_RPC_VERSION || !isId(value['id'])) return undefined;
  const id = value['id'];
  if (Object.hasOwn(value, 'error')) {
    const error = readErrorObject(value['error']);
    return error === undefined ? undefined : { jsonrpc: JSON_RPC_VERSION, id, error };
  }
  return Object.hasOwn(value, 'result') ? { jsonrpc: JSON_RPC_VERSION, id, result: value['result'] } : undefined;
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function failedExchange(exchange: Exchange, error: unknown): SvcHttpError {
  if ((error as { name?: unknown } | null)?.name === 'TimeoutError') {
    return new SvcHttpError('timeout', `No answer from ${exchange.url} within ${exchange.timeoutMs} ms`, {
      cause: error,
    });
  }
  return new SvcHttpError('transport', `Request to ${exchange.url} failed`, {
    details: describeFailure(error),
    cause: error,
  });
}

const REASON_OF_STATUS: Readonly<Record<number, SvcHttpErrorReason>> = {
  401: 'unauthorized',
  413: 'bodyTooLarge',
  415: 'unsupportedMediaType',
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** POSTs a payload; resolves to the parsed body of a 200 answer, rejects with SvcHttpError otherwise. */
async function post(exchange: Exchange, payload: unknown): Promise<unknown> {
  let status: number;
  let text: string;
  try {
    const response = await exchange.fetch(exchange.url, {
      method: 'POST',
      headers: exchange.headers,
      body: JSON.stringify(payload, bigintAsDecimal),
      signal: AbortSignal.timeout(exchange.timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    throw failedExchange(exchange, error);
  }
  const body = parseJson(text);
  if (status !== 200) {
    const rpcError = readResponse(body);
    const error = rpcError !== undefined && 'error' in rpcError ? rpcError.error : undefined;
    throw new SvcHttpError(REASON_OF_STATUS[status] ?? 'unexpectedStatus', `HTTP ${status} from ${exchange.url}`, {
      status,
      ...(error === undefined ? {} : { rpcError: error, details: error.message }),
    });
  }
  if (body === undefined) throw invalidResponse(exchange, 'the body is not JSON');
  return body;
}

function invalidResponse(exchange: Exchange, details: string): SvcHttpError {
  return new SvcHttpError('invalidResponse', `Not a JSON-RPC answer from ${exchange.url}`, { status: 200, details });
}

/** Params on the wire: trailing params not given are left out, others not given are sent as null. */
function wireParamsOf(params: readonly unknown[]): unknown[] {
  const length = params.findLastIndex((value) => value !== undefined) + 1;
  return params.slice(0, length).map((value) => (value === undefined ? null : value));
}

function isTableMethod(method: string): method is RpcMethodName {
  return Object.hasOwn(rpcMethods, method);
}

/** The outcome one response gives a call: the decoded result, or the error. */
function outcomeOf(method: RpcMethodName, response: JsonRpcResponse): SvcCallOutcome {
  if ('error' in response) return { ok: false, method, error: new SvcRpcError(response.error, method) };
  const decoded = (rpcMethods[method].result as z.ZodType).safeParse(response.result);
  if (!decoded.success)
    return { ok: false, method, error: new SvcDecodeError(method, response.result, decoded.error.issues) };
  return { ok: true, method, result: decoded.data as RpcResult<RpcMethodName> };
}

/** The response answering request `id` alone; an error answered with id null (parse error...) answers it too. */
function singleResponseOf(exchange: Exchange, body: unknown, id: number): JsonRpcResponse {
  const response = readResponse(body);
  if (response === undefined) throw invalidResponse(exchange, 'expected one JSON-RPC response object');
  if (response.id !== id && !('error' in response && response.id === null)) {
    throw invalidResponse(exchange, `the response carries id ${JSON.stringify(response.id)}, the request ${id}`);
  }
  return response;
}

/** The responses of a batch matched to its calls by id, in the order of the calls. */
function batchResponsesOf(exchange: Exchange, body: unknown, ids: readonly number[]): JsonRpcResponse[] {
  if (!Array.isArray(body)) {
    const whole = readResponse(body);
    if (whole !== undefined && 'error' in whole) throw new SvcRpcError(whole.error, undefined);
    throw invalidResponse(exchange, 'expected an array of JSON-RPC responses');
  }
  const byId = new Map<JsonRpcId, JsonRpcResponse>();
  for (const item of body) {
    const response = readResponse(item);
    if (response === undefined) throw invalidResponse(exchange, 'a batch entry is not a JSON-RPC response');
    byId.set(response.id, response);
  }
  return ids.map((id) => {
    const response = byId.get(id);
    if (response === undefined) throw invalidResponse(exchange, `the batch has no response for id ${id}`);
    return response;
  });
}

function requestObject(id: number, method: string, params: readonly unknown[] | undefined) {
  return { jsonrpc: JSON_RPC_VERSION, id, method, params: wireParamsOf(params ?? []) };
}

/** Each namespace's methods, under the name without the prefix, built from the table. */
function groupsOf(call: (method: RpcMethodName, params: readonly unknown[]) => Promise<unknown>): SvcClientGroups {
  const groups = Object.fromEntries(
    (Object.keys(SVC_CLIENT_GROUP) as RpcNamespace[]).map((namespace) => {
      const prefix = NAMESPACE_PREFIX[namespace];
      const methods = rpcMethodList
        .filter((definition) => definition.namespace === namespace)
        .map((definition) => [
          definition.name.slice(prefix.length),
          (...params: unknown[]) => call(definition.name, params),
        ]);
      return [SVC_CLIENT_GROUP[namespace], Object.freeze(Object.fromEntries(methods))];
    }),
  ) as Record<SvcClientGroupName, unknown>;
  return groups as SvcClientGroups;
}

/** A client of one listener: `url` is the public or the admin port's base URL (requests go to `POST <url>`). */
export function createSvcClient(url: string, options: SvcClientOptions = {}): SvcClient {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  const exchange: Exchange = {
    url,
    headers,
    timeoutMs: options.timeoutMs ?? SVC_CLIENT_TIMEOUT_MS_DEFAULT,
    fetch: options.fetch ?? globalThis.fetch,
  };
  let nextId = 1;

  async function requestWire(method: string, params?: readonly unknown[]): Promise<unknown> {
    const id = nextId++;
    const response = singleResponseOf(exchange, await post(exchange, requestObject(id, method, params)), id);
    if ('error' in response) throw new SvcRpcError(response.error, method);
    return response.result;
  }

  async function request(method: RpcMethodName, params?: readonly unknown[]): Promise<unknown> {
    if (!isTableMethod(method)) throw new TypeError(`${String(method)} is not a method of the table`);
    const id = nextId++;
    const response = singleResponseOf(exchange, await post(exchange, requestObject(id, method, params)), id);
    const outcome = outcomeOf(method, response);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  async function batch(calls: readonly SvcCall[]): Promise<SvcCallOutcome[]> {
    if (calls.length === 0) return [];
    for (const call of calls) {
      if (!isTableMethod(call.method)) throw new TypeError(`${String(call.method)} is not a method of the table`);
    }
    const ids = calls.map(() => nextId++);
    const payload = calls.map((call, index) => requestObject(ids[index] as number, call.method, call.params));
    const responses = batchResponsesOf(exchange, await post(exchange, payload), ids);
    return responses.map((response, index) => outcomeOf((calls[index] as SvcCall).method, response));
  }

  return {
    url,
    request: request as SvcClientMethods['request'],
    batch: batch as SvcClientMethods['batch'],
    requestWire,
    ...groupsOf(request),
  };
}
