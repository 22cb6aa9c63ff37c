/**
 * From a parsed JSON body to its JSON-RPC reply (docs/protocol.md, Wire encoding): single calls and batches,
 * notifications, method lookup in the table, params decoding, the per-call timeout, result encoding and error
 * mapping. Nothing here knows about HTTP.
 */
import { z } from 'zod';
import { assert } from '../../core/assert.js';
import type { NodeService } from '../../core/nodeService.js';
import type { LoggerPort } from '../../core/ports.js';
import { RpcErrorCode } from '../../spec/rpc/errorCodes.js';
import { JSON_RPC_VERSION, type JsonRpcId, type JsonRpcReply, type JsonRpcResponse } from '../../spec/rpc/jsonRpc.js';
import { RPC_METHOD_NAME_ECHO_CHARS_MAX, type RpcLimits, type RpcListLimits } from '../../spec/rpc/limits.js';
import { NAMESPACE_PREFIX, type MethodDefinition, type RpcNamespace } from '../../spec/rpc/methodDefinition.js';
import { rpcMethodList } from '../../spec/rpc/methods.js';
import { buildDiscoverDocument } from '../../spec/rpc/openrpc.js';
import { rpcHandlers } from './handlers.js';
import { RpcError, toRpcErrorObject } from './errors.js';
import type { HandlerContext } from './methodHandler.js';
import { Deadlines } from './deadlines.js';
import { decodeParams } from './params.js';
import { checkedResultEncoder, compileResultEncoder, type ResultEncoder } from '../../spec/wire/resultEncoder.js';

export interface RpcDispatcherOptions {
  readonly node: NodeService;
  /** The listener's namespace: only its methods are found, every other name is -32601. */
  readonly namespace: RpcNamespace;
  /** The envelope bounds the dispatcher enforces, and the list bounds handed to every handler. */
  readonly limits: Pick<RpcLimits, 'batchCallsMax' | 'requestTimeoutMs'> & RpcListLimits;
  readonly logger: LoggerPort;
  /** Told of every call answered, notifications included (adapters/metrics/rpcMetrics.ts); absent: none. */
  readonly calls?: RpcCallObserver;
  /**
   * Encode every result both ways (compiled and zod's) and fail a call whose encodings differ: for tests, at zod's
   * cost. Default: the environment variable SVC_RPC_CHECK_RESULT_ENCODING=1, which the test configuration sets.
   */
  readonly checkResultEncoding?: boolean;
}

/** The environment variable that turns on checkResultEncoding for every dispatcher of a process (tests). */
export const CHECK_RESULT_ENCODING_ENV = 'SVC_RPC_CHECK_RESULT_ENCODING';

/** One answered call, as metrics see it. */
export interface RpcCallRecord {
  /** A method the listener serves, or `rpc.discover`; undefined for any other name and for invalid requests. */
  readonly method: string | undefined;
  /** The JSON-RPC error code of the answer; undefined for a result. */
  readonly errorCode: number | undefined;
  readonly durationSeconds: number;
}

export interface RpcCallObserver {
  onCall(record: RpcCallRecord): void;
}

const MS_PER_SECOND = 1_000;

/** Answers one parsed body: a response, an array of them, or undefined when only notifications were sent. */
export type RpcDispatcher = (payload: unknown) => Promise<JsonRpcReply>;

interface Route {
  readonly name: string;
  readonly definition: MethodDefinition;
  readonly handler: (node: NodeService, params: unknown[], context: HandlerContext) => unknown;
  /** The result's encoder compiled from its schema (spec/wire/resultEncoder.ts). */
  readonly encode: ResultEncoder;
}

interface Call {
  readonly id: JsonRpcId;
  readonly notification: boolean;
  readonly method: string;
  readonly params: unknown;
}

function routesOf(namespace: RpcNamespace, checkEncoding: boolean): ReadonlyMap<string, Route> {
  const routes = new Map<string, Route>();
  for (const definition of rpcMethodList) {
    if (definition.namespace !== namespace) continue;
    assert(
      definition.name.startsWith(NAMESPACE_PREFIX[namespace]),
      `method ${definition.name} does not carry the ${namespace} prefix ${NAMESPACE_PREFIX[namespace]}`,
    );
    const handler = rpcHandlers[definition.name] as unknown as Route['handler'];
    const compiled = compileResultEncoder(definition.result);
    const encode = checkEncoding ? checkedResultEncoder(definition.result, compiled) : compiled;
    routes.set(definition.name, { name: definition.name, definition, handler, encode });
  }
  return routes;
}

/** The OpenRPC service-discovery method; not in the table, answered by every listener with its own document. */
export const RPC_DISCOVER_METHOD = 'rpc.discover';

/** Absent, `[]` or `{}`. */
const hasNoParams = (params: unknown): boolean =>
  params === undefined || (typeof params === 'object' && params !== null && Object.keys(params).length === 0);

const failure = (id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse =>
  data === undefined
    ? { jsonrpc: JSON_RPC_VERSION, id, error: { code, message } }
    : { jsonrpc: JSON_RPC_VERSION, id, error: { code, message, data } };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** The call a request object makes, or the -32600 response it earns. */
function readCall(request: unknown): Call | JsonRpcResponse {
  const invalid = (id: JsonRpcId, why: string) => failure(id, RpcErrorCode.INVALID_REQUEST, `Invalid request: ${why}`);
  if (!isRecord(request)) return invalid(null, 'expected a JSON-RPC request object');
  const notification = !Object.hasOwn(request, 'id');
  const id = notification ? null : request['id'];
  if (!isId(id)) return invalid(null, 'id must be a string, a number or null');
  if (request['jsonrpc'] !== JSON_RPC_VERSION) return invalid(id, `jsonrpc must be "${JSON_RPC_VERSION}"`);
  const method = request['method'];
  if (typeof method !== 'string') return invalid(id, 'method must be a string');
  const params = request['params'];
  if (params !== undefined && (typeof params !== 'object' || params === null)) {
    return invalid(id, 'params must be an array');
  }
  return { id, notification, method, params };
}

/**
 * The wire JSON of a handler's result. The compiled encoder trusts the core's values; when it cannot encode one (a
 * value of the wrong shape, a fault of the node), zod's encoding names the field that does not fit.
 */
function encodeResult(route: Route, value: unknown): unknown {
  try {
    return route.encode(value ?? null);
  } catch (compiledError) {
    const encoded = z.safeEncode(route.definition.result, value ?? null);
    const why = encoded.success ? (compiledError as Error).message : encoded.error.message;
    throw new Error(`result of ${route.name} does not fit its wire schema: ${why}`);
  }
}

const echoName = (method: string): string =>
  method.length > RPC_METHOD_NAME_ECHO_CHARS_MAX ? `${method.slice(0, RPC_METHOD_NAME_ECHO_CHARS_MAX)}...` : method;

export function createRpcDispatcher(options: RpcDispatcherOptions): RpcDispatcher {
  const routes = routesOf(
    options.namespace,
    options.checkResultEncoding ?? process.env[CHECK_RESULT_ENCODING_ENV] === '1',
  );
  const { node, logger, limits } = options;
  const context: HandlerContext = { limits };
  const deadlines = new Deadlines(
    limits.requestTimeoutMs,
    () =>
      new RpcError(RpcErrorCode.REQUEST_TIMED_OUT, `Request timed out after ${limits.requestTimeoutMs} ms`, {
        limit: 'requestTimeoutMs',
        value: limits.requestTimeoutMs,
      }),
  );
  let discoverDocument: unknown;

  async function execute(call: Call): Promise<unknown> {
    if (call.method === RPC_DISCOVER_METHOD) {
      if (!hasNoParams(call.params))
        throw new RpcError(RpcErrorCode.INVALID_PARAMS, `Invalid params: ${RPC_DISCOVER_METHOD} takes no params`);
      discoverDocument ??= buildDiscoverDocument(options.namespace, node.info.getNodeVersion());
      return discoverDocument;
    }
    const route = routes.get(call.method);
    if (route === undefined) {
      throw new RpcError(RpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${echoName(call.method)}`);
    }
    const params = decodeParams(route.name, route.definition, call.params);
    const value = await deadlines.race(Promise.resolve().then(() => route.handler(node, params, context)));
    return encodeResult(route, value);
  }

  /** The method name as metrics may label it: only names this listener knows, so labels stay few. */
  const knownMethod = (method: string): string | undefined =>
    routes.has(method) || method === RPC_DISCOVER_METHOD ? method : undefined;

  /** The response to one request object (a notification's too, which is not sent), and its method when known. */
  async function respond(request: unknown): Promise<{ response: JsonRpcResponse; call: Call | undefined }> {
    const call = readCall(request);
    if (!('method' in call)) return { response: call, call: undefined };
    try {
      const result = await execute(call);
      logger.debug('rpc call answered', { method: echoName(call.method) }); // never the params: they may hold secrets
      return { response: { jsonrpc: JSON_RPC_VERSION, id: call.id, result }, call };
    } catch (error) {
      const errorObject = toRpcErrorObject(error, logger, echoName(call.method));
      logger.debug('rpc call failed', { method: echoName(call.method), code: errorObject.code });
      return { response: { jsonrpc: JSON_RPC_VERSION, id: call.id, error: errorObject }, call };
    }
  }

  async function answer(request: unknown): Promise<JsonRpcResponse | undefined> {
    const startedAtMs = options.calls === undefined ? 0 : performance.now();
    const { response, call } = await respond(request);
    options.calls?.onCall({
      method: call === undefined ? undefined : knownMethod(call.method),
      errorCode: 'error' in response ? response.error.code : undefined,
      durationSeconds: (performance.now() - startedAtMs) / MS_PER_SECOND,
    });
    return call?.notification === true ? undefined : response;
  }

  return async (payload) => {
    if (!Array.isArray(payload)) return answer(payload);
    if (payload.length === 0) return failure(null, RpcErrorCode.INVALID_REQUEST, 'Invalid request: empty batch');
    if (payload.length > limits.batchCallsMax) {
      const message = `Batch of ${payload.length} calls exceeds the limit of ${limits.batchCallsMax}`;
      const data = { limit: 'batchCallsMax', value: limits.batchCallsMax, requested: payload.length };
      return failure(null, RpcErrorCode.LIMIT_EXCEEDED, message, data);
    }
    const responses = await Promise.all(payload.map(answer));
    const answered = responses.filter((response): response is JsonRpcResponse => response !== undefined);
    return answered.length > 0 ? answered : undefined;
  };
}
