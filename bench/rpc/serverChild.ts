/**
 * One benchmark target in its own process: `ours` (startRpcServers over a node whose getBlockNumber reads a cached
 * number, as the real node's does), `bare` (a minimal node:http JSON-RPC server, the baseline) or `express` (our
 * listener with every request through Express, over the same node). Talks to the
 * orchestrator over IPC: `ready` with its URL, its own process.cpuUsage() on request, and a clean exit on `shutdown`
 * (so that `node --cpu-prof` writes its profile).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRpcApp, startRpcServers } from '../../adapters/rpc/jsonRpcServer.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import type { NodeService } from '../../core/nodeService.js';
import type { BlockTipName } from '../../spec/chain.js';
import {
  CACHED_BLOCK_NUMBER,
  parseConfigArg,
  type NodeServerKind,
  type ServerChildCommand,
  type ServerChildMessage,
} from './protocol.js';

/** Bodies above this are refused by the bare server (the real one has its own limit). */
const BARE_BODY_BYTES_MAX = 1 << 20;

/**
 * The node behind our server: the tips are cached in memory and getBlockNumber reads them, like core/node's. Only
 * the methods this benchmark calls exist; any other call is a bug of the benchmark and throws.
 */
function benchNode(): NodeService {
  const tips: Readonly<Record<BlockTipName, number>> = {
    proposed: CACHED_BLOCK_NUMBER,
    checkpointed: CACHED_BLOCK_NUMBER - 1,
    proven: CACHED_BLOCK_NUMBER - 64,
    finalized: CACHED_BLOCK_NUMBER - 128,
  };
  const served = {
    getBlockNumber: async (tip?: BlockTipName): Promise<number> => tips[tip ?? 'proposed'],
    isReady: (): boolean => true,
  };
  return new Proxy(served, {
    get(target, property, receiver) {
      if (Reflect.has(target, property)) return Reflect.get(target, property, receiver) as unknown;
      if (typeof property === 'symbol' || property === 'then') return undefined;
      return () => {
        throw new Error(`the rpc benchmark's node does not serve ${property}`);
      };
    },
  }) as unknown as NodeService;
}

const jsonHeaders = (length: number) => ({ 'content-type': 'application/json', 'content-length': length });

/** The baseline: read the body, JSON.parse it, answer `{"jsonrpc":"2.0","id":..,"result":..}`. Nothing else. */
/** Our public listener's Express app alone, with no fast path in front of it. */
function startExpressOnly(): Promise<Server> {
  const server = createServer(
    createRpcApp({ node: benchNode(), namespace: 'public', limits: PUBLIC_RPC_LIMITS_DEFAULT }),
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function startBare(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BARE_BODY_BYTES_MAX) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      let text: string;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
        text = JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, result: CACHED_BLOCK_NUMBER });
      } catch {
        text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      res.writeHead(200, jsonHeaders(Buffer.byteLength(text))).end(text);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function send(message: ServerChildMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('serverChild must be started with an IPC channel');
  const { kind } = parseConfigArg<{ kind: NodeServerKind }>(process.argv);
  let close: () => Promise<void>;
  let url: string;
  if (kind === 'ours') {
    const servers = await startRpcServers({
      node: benchNode(),
      publicPort: 0,
      adminPort: 0,
      publicHost: '127.0.0.1',
      adminAuth: { mode: 'disabled' },
    });
    url = servers.publicUrl;
    close = () => servers.close();
  } else {
    const server = kind === 'bare' ? await startBare() : await startExpressOnly();
    const { port } = server.address() as AddressInfo;
    url = `http://127.0.0.1:${port}`;
    close = () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
  }
  process.on('message', (command: ServerChildCommand) => {
    if (command.type === 'cpu') {
      const usage = process.cpuUsage();
      send({ type: 'cpu', seq: command.seq, userMicros: usage.user, systemMicros: usage.system });
    } else {
      // Exit on our own terms, so that --cpu-prof writes its profile; never hang on a slow close.
      setTimeout(() => process.exit(0), 2_000).unref();
      void close().finally(() => process.exit(0));
    }
  });
  // The orchestrator went away: do not linger.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', url });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `rpc bench server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
