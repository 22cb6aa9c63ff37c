/** Writing JSON answers: wire serialisation (bigints as decimal strings) and gzip when the client accepts it. */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { RPC_GZIP_RESPONSE_BYTES_MIN } from '../../spec/rpc/limits.js';
import { wireJsonReplacer } from './errors.js';

const gzipAsync = promisify(gzip);

/** Whether the request's Accept-Encoding prefers gzip to the identity encoding. */
export function acceptsGzip(req: Request): boolean {
  return req.headers['accept-encoding'] !== undefined && req.acceptsEncodings('gzip', 'identity') === 'gzip';
}

export async function sendJson(req: Request, res: Response, status: number, value: unknown): Promise<void> {
  const body = Buffer.from(JSON.stringify(value, wireJsonReplacer), 'utf8');
  res.status(status).type('application/json').vary('Accept-Encoding');
  if (body.length >= RPC_GZIP_RESPONSE_BYTES_MIN && acceptsGzip(req)) {
    res.set('Content-Encoding', 'gzip').send(await gzipAsync(body));
    return;
  }
  res.send(body);
}
