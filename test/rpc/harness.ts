/** Test servers on ephemeral ports, and a raw HTTP helper that shows exactly what the server sent. */
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { startRpcServers, type RpcServers, type StartRpcServersOptions } from '../../adapters/rpc/jsonRpcServer.js';
import type { AdminApiKey } from '../../adapters/rpc/adminApiKey.js';
import { hashAdminApiKey } from '../../adapters/rpc/adminApiKey.js';
import { createFakeNode, type FakeNode, type FakeNodeOverrides } from './fakeNode.js';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';
export const testAdminAuth: AdminApiKey = { mode: 'enabled', keyHash: hashAdminApiKey(TEST_ADMIN_KEY) };

export interface TestServers extends RpcServers {
  readonly node: FakeNode;
}

export async function startTestServers(
  overrides: FakeNodeOverrides = {},
  options: Partial<Omit<StartRpcServersOptions, 'node'>> = {},
): Promise<TestServers> {
  const node = createFakeNode(overrides);
  const servers = await startRpcServers({
    node,
    publicPort: 0,
    adminPort: 0,
    publicHost: '127.0.0.1',
    adminAuth: testAdminAuth,
    ...options,
  });
  return { ...servers, node };
}

export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as sent (before any decompression). */
  readonly raw: Buffer;
  /** The body after undoing Content-Encoding: gzip. */
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  readonly json: unknown;
}

export interface RawRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** One HTTP request with nothing added by a client library (no automatic Accept-Encoding, no decompression). */
export function rawRequest(baseUrl: string, request: RawRequest = {}): Promise<RawReply> {
  const url = new URL(request.path ?? '/', baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: request.method ?? 'POST', headers: request.headers ?? {} },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const raw = Buffer.concat(chunks);
          const decoded = incoming.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          const text = decoded.toString('utf8');
          let json: unknown;
          try {
            json = text.length > 0 ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, raw, text, json });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** POST of a JSON body (a value, serialised; or a string, sent as is) with Content-Type: application/json. */
export function postJson(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  return rawRequest(baseUrl, {
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

/** POST of one call; returns the JSON-RPC response object. */
export async function rpc(baseUrl: string, method: string, params?: unknown, headers?: Record<string, string>) {
  const reply = await postJson(
    baseUrl,
    { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) },
    headers,
  );
  return reply.json as {
    jsonrpc: '2.0';
    id: unknown;
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
}
