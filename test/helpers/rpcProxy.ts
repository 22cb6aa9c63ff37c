/**
 * A JSON-RPC reverse proxy on loopback in front of an L1 node (anvil), for tests of what a node does when one of its
 * L1 endpoints fails: it forwards every request, and on demand refuses connections (kill), accepts requests and never
 * answers them (hang), or answers as an L1 node stuck at an older block would (stale). It can also refuse chosen
 * requests with a JSON-RPC error (`refuse`), as a production L1 node refuses anvil's development methods.
 *
 * A stale proxy answers as anvil does at that head: `latest` and eth_blockNumber are the stuck block, a block past it
 * is null (by number, by hash, a receipt), a call or a read pinned past it is refused with anvil's
 * BlockOutOfRangeError, and eth_getLogs with a `toBlock` past it answers the logs up to it, with no error (anvil
 * 1.7.1's answer; it refuses only a `fromBlock` past its head).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RpcProxyRequest {
  readonly method: string;
  readonly params: readonly unknown[];
}

export interface RpcProxyOptions {
  /** Called with every JSON-RPC request received, whatever the proxy then does with it. */
  readonly onRequest?: (request: RpcProxyRequest) => void;
  /**
   * Asked about every request (after onRequest): a message refuses it with a JSON-RPC error -32601 (method not
   * found) carrying that message, whatever the mode; undefined lets the proxy handle it.
   */
  readonly refuse?: (request: RpcProxyRequest) => string | undefined;
}

export interface RpcProxy {
  readonly url: string;
  /** Stops listening and drops every open connection: requests are refused until revive(). */
  kill(): Promise<void>;
  /** Listens again on the same port, forwarding. */
  revive(): Promise<void>;
  /** Accepts requests and answers none of them (they wait until the client gives up or the proxy stops). */
  hang(): void;
  /** Answers as an L1 node stuck at `atBlock` would (default: the target's head now); resolves with that block. */
  stale(atBlock?: bigint): Promise<bigint>;
  /** Forwards every request unchanged again. */
  heal(): void;
  stop(): Promise<void>;
}

type JsonRpcRequest = { readonly jsonrpc: '2.0'; readonly id: unknown; readonly method: string; params?: unknown[] };
type JsonRpcResponse = Record<string, unknown> & { readonly id: unknown };
type Mode = { readonly kind: 'forward' } | { readonly kind: 'hang' } | { readonly kind: 'stale'; readonly at: bigint };

/** Where each block-pinned method takes its block parameter. */
const BLOCK_PARAMETER_INDEX: Readonly<Record<string, number>> = {
  eth_call: 1,
  eth_estimateGas: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
};
const MOVING_TAGS = new Set(['latest', 'pending', 'safe']);

export async function startRpcProxy(target: string, options: RpcProxyOptions = {}): Promise<RpcProxy> {
  let mode: Mode = { kind: 'forward' };
  const sockets = new Set<Socket>();
  const forward = (request: JsonRpcRequest) => post(target, request);
  const handle = async (request: JsonRpcRequest): Promise<JsonRpcResponse | undefined> => {
    const seen = { method: request.method, params: request.params ?? [] };
    options.onRequest?.(seen);
    const refusal = options.refuse?.(seen);
    if (refusal !== undefined) return { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: refusal } };
    if (mode.kind === 'hang') return undefined;
    if (mode.kind === 'stale') return staleAnswer(request, mode.at, forward);
    return forward(request);
  };
  const server = createServer((req, res) => void serve(req, res, handle));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    kill: close,
    revive: async () => {
      mode = { kind: 'forward' };
      await listen(server, port);
    },
    hang: () => void (mode = { kind: 'hang' }),
    async stale(atBlock) {
      const at = atBlock ?? BigInt((await forward(request('eth_blockNumber', []))).result as string);
      mode = { kind: 'stale', at };
      return at;
    },
    heal: () => void (mode = { kind: 'forward' }),
    stop: () => (server.listening ? close() : Promise.resolve()),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Reads one HTTP request (a JSON-RPC request or a batch) and answers it, or leaves it open when the proxy hangs. */
async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (request: JsonRpcRequest) => Promise<JsonRpcResponse | undefined>,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcRequest | JsonRpcRequest[];
    const answers = await Promise.all((Array.isArray(body) ? body : [body]).map(handle));
    if (answers.some((a) => a === undefined)) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
  } catch (error) {
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function post(target: string, body: JsonRpcRequest): Promise<JsonRpcResponse> {
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as JsonRpcResponse;
}

const request = (method: string, params: unknown[]): JsonRpcRequest => ({ jsonrpc: '2.0', id: 0, method, params });
const hex = (n: bigint) => `0x${n.toString(16)}`;
const answer = (id: unknown, result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, result });
const outOfRange = (id: unknown, at: bigint, requested: bigint): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32602, message: `BlockOutOfRangeError: block height is ${at} but requested was ${requested}` },
});

/** A block tag as a number on a node whose head is `at`; undefined for a hash or anything else. */
function blockNumberOf(tag: unknown, at: bigint): bigint | undefined {
  if (tag === undefined || (typeof tag === 'string' && MOVING_TAGS.has(tag))) return at;
  if (tag === 'earliest') return 0n;
  if (typeof tag === 'string' && /^0x[0-9a-f]{1,16}$/i.test(tag)) return BigInt(tag);
  return undefined;
}

/** What an L1 node whose head is `at` answers (see the header). */
async function staleAnswer(
  req: JsonRpcRequest,
  at: bigint,
  forward: (request: JsonRpcRequest) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse> {
  const params = req.params ?? [];
  switch (req.method) {
    case 'eth_blockNumber':
      return answer(req.id, hex(at));
    case 'eth_getBlockByNumber': {
      const wanted = params[0] === 'finalized' ? undefined : blockNumberOf(params[0], at);
      if (wanted !== undefined && wanted > at) return answer(req.id, null);
      const forwarded = await forward({ ...req, params: [wanted === undefined ? params[0] : hex(wanted), params[1]] });
      return past(forwarded, at) ? forward({ ...req, params: [hex(at), params[1]] }) : forwarded;
    }
    case 'eth_getBlockByHash':
    case 'eth_getTransactionByHash':
    case 'eth_getTransactionReceipt': {
      const forwarded = await forward(req);
      return past(forwarded, at) ? answer(req.id, null) : forwarded;
    }
    case 'eth_getLogs':
      return staleLogs(req, at, forward);
    default:
      return stalePinned(req, at, forward);
  }
}

/** True when the answer is a block, tx or receipt from past block `at`. */
function past(response: JsonRpcResponse, at: bigint): boolean {
  const result = response.result as { number?: unknown; blockNumber?: unknown } | null | undefined;
  const number = result?.number ?? result?.blockNumber;
  return typeof number === 'string' && BigInt(number) > at;
}

function staleLogs(
  req: JsonRpcRequest,
  at: bigint,
  forward: (request: JsonRpcRequest) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse> {
  const filter = (req.params?.[0] ?? {}) as Record<string, unknown>;
  if (filter.blockHash !== undefined) return forward(req);
  const from = blockNumberOf(filter.fromBlock, at) ?? at;
  const to = blockNumberOf(filter.toBlock, at) ?? at;
  if (from > at) return Promise.resolve(outOfRange(req.id, at, from));
  return forward({ ...req, params: [{ ...filter, fromBlock: hex(from), toBlock: hex(to < at ? to : at) }] });
}

function stalePinned(
  req: JsonRpcRequest,
  at: bigint,
  forward: (request: JsonRpcRequest) => Promise<JsonRpcResponse>,
): Promise<JsonRpcResponse> {
  const index = BLOCK_PARAMETER_INDEX[req.method];
  if (index === undefined) return forward(req);
  const params = [...(req.params ?? [])];
  const wanted = blockNumberOf(params[index], at);
  if (wanted === undefined) return forward(req);
  if (wanted > at) return Promise.resolve(outOfRange(req.id, at, wanted));
  params[index] = hex(wanted);
  return forward({ ...req, params });
}
