/**
 * A small static file server on loopback (node:http): GET and HEAD of the files under a directory, 404 for anything
 * else, with Content-Length. What the read-only http file store is tested against. It records each request's URL and
 * headers, so a test can see what the store sent.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';

export interface StaticFileServer {
  /** `http://127.0.0.1:<port>`: the directory's root. */
  readonly url: string;
  readonly requests: readonly { readonly url: string; readonly headers: IncomingHttpHeaders }[];
  stop(): Promise<void>;
}

export async function startStaticFileServer(directory: string): Promise<StaticFileServer> {
  const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    serveFile(directory, request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: async () => {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // fetch keeps its connections alive; without this, close waits for them to time out.
      server.closeAllConnections();
      await closed;
    },
  };
}

async function serveFile(directory: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
  const file = normalize(join(directory, pathname));
  const stats = file.startsWith(directory + sep) ? await stat(file).catch(() => undefined) : undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405).end();
  } else if (stats === undefined || !stats.isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  } else {
    response.writeHead(200, { 'content-length': stats.size, 'content-type': 'application/octet-stream' });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  }
}
