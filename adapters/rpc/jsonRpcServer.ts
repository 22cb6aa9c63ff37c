/**
 * The two JSON-RPC listeners over HTTP (docs/protocol.md, Wire encoding): `POST /` with a JSON body, `GET /status` and
 * `GET /live` for probes (adapters/rpc/statusRoutes.ts). HTTP 200 answers every JSON-RPC response, errors included;
 * the exceptions are 401 (admin key), 413 (body over the limit), 415 (not JSON), 204 (only notifications), 503 from
 * `GET /status` on an unhealthy node, and 404/405 for other paths and verbs.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { NodeService } from '../../core/nodeService.js';
import type { LoggerPort } from '../../core/ports.js';
import { RpcErrorCode } from '../../spec/rpc/errorCodes.js';
import { JSON_RPC_VERSION, type JsonRpcResponse } from '../../spec/rpc/jsonRpc.js';
import {
  ADMIN_RPC_LIMITS_DEFAULT,
  PUBLIC_RPC_LIMITS_DEFAULT,
  RPC_SHUTDOWN_GRACE_MS,
  type RpcLimits,
} from '../../spec/rpc/limits.js';
import type { RpcNamespace } from '../../spec/rpc/methodDefinition.js';
import { createAdminAuthMiddleware, type AdminApiKey } from './adminApiKey.js';
import { createCorsMiddleware } from './cors.js';
import { createRpcDispatcher, type RpcCallObserver, type RpcDispatcher } from './dispatcher.js';
import { closeHttpServer, httpUrlOf, listenHttp } from './httpListener.js';
import { sendJson } from './httpReply.js';
import { addProbeRoutes } from './statusRoutes.js';

export interface RpcAppOptions {
  readonly node: NodeService;
  readonly namespace: RpcNamespace;
  readonly limits: RpcLimits;
  /** Authentication of every route but the probes (`GET /status`, `GET /live`); the admin listener always has one. */
  readonly auth?: AdminApiKey;
  /** Origins allowed by CORS; none (the default) sends no CORS headers. */
  readonly corsOrigins?: readonly string[];
  readonly logger?: LoggerPort;
  /** Told of every call answered (metrics); absent: none. */
  readonly calls?: RpcCallObserver;
}

export const silentLogger: LoggerPort = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

const errorBody = (code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: JSON_RPC_VERSION,
  id: null,
  error: data === undefined ? { code, message } : { code, message, data },
});

/** `application/json`, with no charset or a UTF-8 one. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [mediaType = '', ...parameters] = header.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') return true;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    return charset === 'utf-8' || charset === 'utf8';
  });
}

const requireJson: RequestHandler = (req, res, next) => {
  if (isJsonContentType(req.headers['content-type'])) return next();
  res
    .status(415)
    .json(errorBody(RpcErrorCode.INVALID_REQUEST, 'Unsupported media type: send Content-Type: application/json'));
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The parsed body, or the -32700 response it earns. */
function parseBody(body: unknown): { readonly value: unknown } | { readonly error: JsonRpcResponse } {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  try {
    return { value: JSON.parse(utf8.decode(bytes)) as unknown };
  } catch (error) {
    const why = error instanceof SyntaxError ? error.message : 'the body is not UTF-8';
    return { error: errorBody(RpcErrorCode.PARSE_ERROR, `Parse error: ${why}`) };
  }
}

function rpcRoute(dispatch: RpcDispatcher): RequestHandler {
  return async (req, res) => {
    const parsed = parseBody(req.body);
    const reply = 'error' in parsed ? parsed.error : await dispatch(parsed.value);
    if (reply === undefined) {
      res.status(204).end();
      return;
    }
    await sendJson(req.headers, res, 200, reply);
  };
}

/** Body-reading failures and faults of this layer; never a stack trace in the answer. */
function errorHandler(limits: RpcLimits, logger: LoggerPort): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
    if (status === 413) {
      res.status(413).json(
        errorBody(RpcErrorCode.LIMIT_EXCEEDED, `Request body exceeds the limit of ${limits.bodyBytesMax} bytes`, {
          limit: 'bodyBytesMax',
          value: limits.bodyBytesMax,
        }),
      );
    } else if (status === 415) {
      res.status(415).json(errorBody(RpcErrorCode.INVALID_REQUEST, 'Unsupported content encoding'));
    } else if (type === 'request.aborted') {
      res.end();
    } else if (status === 400) {
      res.status(200).json(errorBody(RpcErrorCode.PARSE_ERROR, 'Parse error: the body could not be read'));
    } else {
      logger.error('rpc listener fault', {
        path: req.path,
        error: error instanceof Error ? error.stack : String(error),
      });
      res.status(200).json(errorBody(RpcErrorCode.INTERNAL_ERROR, 'Internal error'));
    }
  };
}

/** The Express app of one listener. */
export function createRpcApp(options: RpcAppOptions): Express {
  const logger = options.logger ?? silentLogger;
  const dispatch = createRpcDispatcher({
    node: options.node,
    namespace: options.namespace,
    limits: options.limits,
    logger,
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(createCorsMiddleware(options.corsOrigins ?? []));
  addProbeRoutes(app, options.node);
  if (options.auth !== undefined) app.use(createAdminAuthMiddleware(options.auth));
  app.post('/', requireJson, express.raw({ type: () => true, limit: options.limits.bodyBytesMax }), rpcRoute(dispatch));
  app.all('/', (_req, res) => {
    res.status(405).set('Allow', 'POST').end();
  });
  app.use((_req, res) => {
    res.status(404).end();
  });
  app.use(errorHandler(options.limits, logger));
  return app;
}

/**
 * Whether a request is the common case the fast path answers without Express: `POST /` with a JSON content type,
 * a declared Content-Length within the body limit, and no content coding. Everything else (413, 415, 405, 404,
 * compressed or chunked bodies, the probes) goes to the Express app, which owns those rules.
 */
function isPlainRpcPost(req: IncomingMessage, bodyBytesMax: number): boolean {
  const { headers } = req;
  if (req.method !== 'POST' || req.url !== '/') return false;
  if (headers['transfer-encoding'] !== undefined) return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const length = Number(headers['content-length']);
  return (
    Number.isSafeInteger(length) && length >= 0 && length <= bodyBytesMax && isJsonContentType(headers['content-type'])
  );
}

/** Reads the (already bounded) body, dispatches it and writes the answer, as the Express route would. */
function answerPlainRpcPost(
  req: IncomingMessage,
  res: ServerResponse,
  dispatch: RpcDispatcher,
  logger: LoggerPort,
): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('error', () => res.destroy()); // the client went away mid-body: there is no one to answer
  req.on('end', () => {
    const parsed = parseBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    const replied = 'error' in parsed ? Promise.resolve(parsed.error) : dispatch(parsed.value);
    replied
      .then((reply) => (reply === undefined ? void res.writeHead(204).end() : sendJson(req.headers, res, 200, reply)))
      .catch((error: unknown) => {
        logger.error('rpc listener fault', {
          path: req.url,
          error: error instanceof Error ? error.stack : String(error),
        });
        if (!res.headersSent)
          void sendJson(req.headers, res, 200, errorBody(RpcErrorCode.INTERNAL_ERROR, 'Internal error'));
      });
  });
}

/**
 * The request listener of one listener. Without authentication or CORS (the public listener by default), plain
 * JSON-RPC posts take a fast path straight to the dispatcher, skipping Express's per-request work (most of the
 * listener's CPU time, see bench/rpc); every other request, and every request of a listener with authentication
 * or CORS, is Express's. Both paths write answers through the same `sendJson`.
 */
export function createRpcRequestListener(options: RpcAppOptions): RequestListener {
  const app = createRpcApp(options);
  const fastPathEligible = options.auth === undefined && (options.corsOrigins ?? []).length === 0;
  if (!fastPathEligible) return app;
  const logger = options.logger ?? silentLogger;
  const dispatch = createRpcDispatcher({
    node: options.node,
    namespace: options.namespace,
    limits: options.limits,
    logger,
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
  });
  return (req, res) => {
    if (isPlainRpcPost(req, options.limits.bodyBytesMax)) answerPlainRpcPost(req, res, dispatch, logger);
    else void app(req, res);
  };
}

export interface StartRpcServersOptions {
  readonly node: NodeService;
  /** 0 picks a free port (tests). */
  readonly publicPort: number;
  readonly adminPort: number;
  /** Default '0.0.0.0'. */
  readonly publicHost?: string;
  /** Default '127.0.0.1': the admin listener is for the node's own host (or container). */
  readonly adminHost?: string;
  /** From resolveAdminApiKey. */
  readonly adminAuth: AdminApiKey;
  readonly publicLimits?: Partial<RpcLimits>;
  readonly adminLimits?: Partial<RpcLimits>;
  /** CORS allow-list of the public listener; the admin listener never sends CORS headers. */
  readonly corsOrigins?: readonly string[];
  readonly logger?: LoggerPort;
  /** Told of every call either listener answered (adapters/metrics/rpcMetrics.ts); absent: none. */
  readonly calls?: RpcCallObserver;
}

export interface RpcServers {
  readonly publicUrl: string;
  readonly adminUrl: string;
  /**
   * Stops accepting connections; in-flight requests get RPC_SHUTDOWN_GRACE_MS before their connections are cut.
   * Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** The defaults with the overrides that are actually set. */
function limitsOf(defaults: RpcLimits, overrides: Partial<RpcLimits> = {}): RpcLimits {
  const set = Object.entries(overrides).filter(([, value]) => value !== undefined);
  return { ...defaults, ...(Object.fromEntries(set) as Partial<RpcLimits>) };
}

/** Starts the public listener (svc_ methods) and the admin listener (svcAdmin_ methods, behind the admin key). */
export async function startRpcServers(options: StartRpcServersOptions): Promise<RpcServers> {
  const logger = options.logger ?? silentLogger;
  const publicApp = createRpcRequestListener({
    node: options.node,
    namespace: 'public',
    limits: limitsOf(PUBLIC_RPC_LIMITS_DEFAULT, options.publicLimits),
    corsOrigins: options.corsOrigins,
    logger,
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
  });
  const adminApp = createRpcRequestListener({
    node: options.node,
    namespace: 'admin',
    limits: limitsOf(ADMIN_RPC_LIMITS_DEFAULT, options.adminLimits),
    auth: options.adminAuth,
    logger,
    ...(options.calls !== undefined ? { calls: options.calls } : {}),
  });
  const publicServer = await listenHttp(publicApp, options.publicPort, options.publicHost ?? '0.0.0.0');
  let adminServer: Server;
  try {
    adminServer = await listenHttp(adminApp, options.adminPort, options.adminHost ?? '127.0.0.1');
  } catch (error) {
    await closeHttpServer(publicServer, RPC_SHUTDOWN_GRACE_MS);
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    publicUrl: httpUrlOf(publicServer),
    adminUrl: httpUrlOf(adminServer),
    close: () =>
      (closing ??= Promise.all([
        closeHttpServer(publicServer, RPC_SHUTDOWN_GRACE_MS),
        closeHttpServer(adminServer, RPC_SHUTDOWN_GRACE_MS),
      ]).then(() => undefined)),
  };
}
