/**
 * PROTOTYPE, for the benchmark only (target `fastpath`): what the public listener costs without Express on its hot
 * path. A node:http handler answers the common request itself -- `POST /`, `Content-Type: application/json`, a
 * Content-Length within the limit, no Content-Encoding, no Origin -- with the real dispatcher
 * (adapters/rpc/dispatcher.ts), and hands every other request, untouched, to the real Express app (createRpcApp), so
 * the edge cases (413, 415, 405, 404, CORS, compressed bodies, /status) keep their one implementation.
 *
 * Not production code: it is here to measure the proposal in the benchmark report. Differences kept on purpose:
 * gzip negotiation is approximated (production should use the `negotiator` package, as Express's acceptsEncodings
 * does); nothing else differs on the wire for the requests it serves (same status, body and headers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { wireJsonReplacer } from '../../../adapters/rpc/errors.js';
import { createRpcDispatcher } from '../../../adapters/rpc/dispatcher.js';
import { createRpcApp, isJsonContentType, silentLogger } from '../../../adapters/rpc/jsonRpcServer.js';
import type { NodeService } from '../../../core/nodeService.js';
import { RpcErrorCode } from '../../../spec/rpc/errorCodes.js';
import { JSON_RPC_VERSION } from '../../../spec/rpc/jsonRpc.js';
import { PUBLIC_RPC_LIMITS_DEFAULT, RPC_GZIP_RESPONSE_BYTES_MIN } from '../../../spec/rpc/limits.js';

const gzipAsync = promisify(gzip);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Approximation of Express's `acceptsEncodings('gzip', 'identity') === 'gzip'` (see the module comment). */
const prefersGzip = (header: string | undefined): boolean =>
  header !== undefined && /(^|,)\s*gzip\s*(;\s*q=(1(\.0*)?|0?\.\d*[1-9]\d*))?\s*(,|$)/i.test(header);

function reply(req: IncomingMessage, res: ServerResponse, value: unknown): void {
  const text = JSON.stringify(value, wireJsonReplacer);
  if (text.length >= RPC_GZIP_RESPONSE_BYTES_MIN && prefersGzip(req.headers['accept-encoding'])) {
    gzipAsync(Buffer.from(text, 'utf8')).then(
      (zipped) =>
        res
          .writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            vary: 'Accept-Encoding',
            'content-encoding': 'gzip',
            'content-length': zipped.length,
          })
          .end(zipped),
      () => res.destroy(),
    );
    return;
  }
  // Headers (in Express's order) and a string body go out in one write.
  res
    .writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      vary: 'Accept-Encoding',
      'content-length': Buffer.byteLength(text),
    })
    .end(text);
}

export function startFastPathServer(node: NodeService): Promise<Server> {
  const limits = PUBLIC_RPC_LIMITS_DEFAULT;
  const app = createRpcApp({ node, namespace: 'public', limits });
  const dispatch = createRpcDispatcher({ node, namespace: 'public', limits, logger: silentLogger });

  const fast = (req: IncomingMessage, res: ServerResponse, length: number) => {
    const chunks: Buffer[] = [];
    req.on('error', () => res.destroy()); // the client went away mid-body: nothing to answer
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
      let payload: unknown;
      try {
        payload = JSON.parse(utf8.decode(body)) as unknown;
      } catch (error) {
        const why = error instanceof SyntaxError ? error.message : 'the body is not UTF-8';
        reply(req, res, { jsonrpc: JSON_RPC_VERSION, id: null, error: { code: RpcErrorCode.PARSE_ERROR, message: `Parse error: ${why}` } });
        return;
      }
      dispatch(payload).then(
        (answer) => (answer === undefined ? res.writeHead(204).end() : reply(req, res, answer)),
        () => reply(req, res, { jsonrpc: JSON_RPC_VERSION, id: null, error: { code: RpcErrorCode.INTERNAL_ERROR, message: 'Internal error' } }),
      );
    });
  };

  const server = createServer((req, res) => {
    const { headers } = req;
    const length = Number(headers['content-length']);
    const common =
      req.method === 'POST' &&
      req.url === '/' &&
      headers.origin === undefined &&
      (headers['content-encoding'] === undefined || headers['content-encoding'] === 'identity') &&
      headers['transfer-encoding'] === undefined &&
      Number.isSafeInteger(length) &&
      length <= limits.bodyBytesMax &&
      isJsonContentType(headers['content-type']);
    if (common) fast(req, res, length);
    else app(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export const fastPathUrl = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
