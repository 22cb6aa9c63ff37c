/**
 * The plumbing the blob test servers share (test/helpers/beaconProxy.ts, test/helpers/blobArchiveServer.ts): a
 * node:http server on loopback that records every request, can go down (every connection closed at once) or hang
 * (requests read and never answered), and writes raw answers: a body, or a huge one streamed with backpressure.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** 'pass': serve; 'down': close every connection as soon as a request arrives; 'hang': never answer. */
export type TestServerMode = 'pass' | 'down' | 'hang';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as received. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export interface TestHttpServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An answer written as is: `body`, or `streamBytes` bytes of filler streamed (a huge body never held in memory). */
export type RawAnswer =
  | { readonly status: number; readonly contentType?: string; readonly body: string }
  | { readonly status: number; readonly contentType?: string; readonly streamBytes: number };

const STREAM_CHUNK_BYTES = 64 * 1024;

export async function startTestHttpServer(
  mode: () => TestServerMode,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<TestHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const current = mode();
    if (current === 'down') {
      request.socket.destroy();
      return;
    }
    if (current === 'hang') return;
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) writeJson(response, 500, { code: 500, message: `test server: ${String(error)}` });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function writeJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

export async function writeRaw(response: ServerResponse, answer: RawAnswer): Promise<void> {
  const contentType = answer.contentType ?? 'application/json';
  if ('body' in answer) {
    response.writeHead(answer.status, { 'content-type': contentType });
    response.end(answer.body);
    return;
  }
  response.writeHead(answer.status, { 'content-type': contentType });
  const chunk = Buffer.alloc(STREAM_CHUNK_BYTES, 'a');
  let closed = false;
  response.once('close', () => (closed = true));
  for (let sent = 0; sent < answer.streamBytes && !closed; sent += STREAM_CHUNK_BYTES) {
    if (!response.write(chunk)) {
      // Whichever comes first: the other listener goes too, or a long stream piles up 'close' listeners.
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.once('drain', done);
        response.once('close', done);
      });
    }
  }
  response.end();
}

/** A copy of `blob` with bytes flipped where every field element stays below the BLS modulus (low bytes only). */
export function flipBlobBytes(blob: Uint8Array): Uint8Array {
  const copy = new Uint8Array(blob);
  copy[31] = copy[31]! ^ 0x01;
  copy[63] = copy[63]! ^ 0x01;
  return copy;
}
