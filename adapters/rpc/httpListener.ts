/**
 * Listening and closing for the node's HTTP listeners (the JSON-RPC ports, the metrics port): bind, name the URL a
 * client on this host reaches, and close with a grace period for requests in flight.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Resolves once bound; a bind error (port in use) rejects. Errors after that go to `onError`. */
export function listenHttp(
  listener: RequestListener,
  port: number,
  host: string,
  onError?: (error: Error) => void,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(listener);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      if (onError !== undefined) server.on('error', onError);
      resolve(server);
    });
  });
}

/** A URL a client on this host can reach: wildcard addresses become loopback. */
export function httpUrlOf(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  const host = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  return family === 'IPv6' ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/** Stops accepting connections; requests in flight get `graceMs` before their connections are cut. */
export function closeHttpServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    cut.unref();
    server.close((error) => {
      clearTimeout(cut);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
