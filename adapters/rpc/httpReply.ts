/**
 * Writing JSON answers on plain node:http responses (Express's Response is one): wire serialisation (bigints as
 * decimal strings) and gzip when the client prefers it. The Express routes and the listener's fast path share it,
 * so an answer is byte-for-byte the same whichever path served it.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Negotiator from 'negotiator';
import { RPC_GZIP_RESPONSE_BYTES_MIN } from '../../spec/rpc/limits.js';
import { wireJsonReplacer } from './errors.js';

const gzipAsync = promisify(gzip);
const ENCODINGS_OFFERED = ['gzip', 'identity'] as const;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Whether the request's Accept-Encoding prefers gzip to the identity encoding (RFC 9110 q-values). */
export function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  if (headers['accept-encoding'] === undefined) return false;
  return new Negotiator({ headers }).encoding(ENCODINGS_OFFERED) === 'gzip';
}

/** The Vary header with Accept-Encoding added to what earlier middleware (CORS: Origin) already set. */
function varyWithEncoding(res: ServerResponse): string {
  const earlier = res.getHeader('vary');
  return earlier === undefined ? 'Accept-Encoding' : `${String(earlier)}, Accept-Encoding`;
}

/** Serialises `value` and ends the response with it; gzip when the body is large enough and the client wants it. */
export async function sendJson(
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  status: number,
  value: unknown,
): Promise<void> {
  const text = JSON.stringify(value, wireJsonReplacer);
  const vary = varyWithEncoding(res);
  if (text.length >= RPC_GZIP_RESPONSE_BYTES_MIN && acceptsGzip(headers)) {
    const zipped = await gzipAsync(Buffer.from(text, 'utf8'));
    res
      .writeHead(status, {
        'content-type': JSON_CONTENT_TYPE,
        vary,
        'content-encoding': 'gzip',
        'content-length': zipped.length,
      })
      .end(zipped);
    return;
  }
  res
    .writeHead(status, { 'content-type': JSON_CONTENT_TYPE, vary, 'content-length': Buffer.byteLength(text) })
    .end(text);
}
