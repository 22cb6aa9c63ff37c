/**
 * Misbehaving servers on loopback for the remote stores' failure tests: a TCP server that does whatever the test
 * writes on each connection (garbage, a truncated HTTP answer, nothing at all), and a port nothing listens on.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';

export interface RawTcpServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** A server calling `onConnection` with each accepted socket; `stop` destroys the sockets still open. */
export async function startRawTcpServer(onConnection: (socket: Socket) => void): Promise<RawTcpServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    onConnection(socket);
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port that was free a moment ago and has no listener now: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function listen(server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
