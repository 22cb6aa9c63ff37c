/**
 * Where our server's CPU goes, layer by layer: the same request answered by a bare node:http handler, then with one
 * Express ingredient added at a time, then by createRpcApp itself. Each variant runs in this process (idle
 * otherwise) under the benchmark's load generator (a child), and its own CPU time is read over the measured window.
 *   npx tsx bench/rpc/experiments/expressCost.ts [variant...]
 * Evidence for the report of `npm run bench -- rpc`; not part of the benchmark run.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createRpcApp } from '../../../adapters/rpc/jsonRpcServer.js';
import type { NodeService } from '../../../core/nodeService.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../../spec/rpc/limits.js';
import type { LoadConfig, LoadMessage, LoadResult } from '../protocol.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LOAD_GENERATOR = path.join(HERE, '..', 'loadGenerator.ts');
const RESULT = 12_345;
const BODY_LIMIT = 1 << 20;
const RUN_TIMEOUT_MS = 60_000;

const node = { getBlockNumber: async () => RESULT } as unknown as NodeService;

const answer = (body: Buffer): string => {
  const { id } = JSON.parse(body.toString('utf8')) as { id?: unknown };
  return JSON.stringify({ jsonrpc: '2.0', id: id ?? null, result: RESULT });
};
const readBody = (req: IncomingMessage, done: (body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(Buffer.concat(chunks)));
};
const writeJson = (res: ServerResponse, text: string) =>
  res
    .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) })
    .end(text);

/** What Express's app.handle does to every request before routing: give req and res its own prototypes. */
function withExpressPrototypes(listener: RequestListener): RequestListener {
  let requestPrototype: object | undefined;
  let responsePrototype: object | undefined;
  return (req, res) => {
    requestPrototype ??= Object.create(Object.getPrototypeOf(req) as object) as object;
    responsePrototype ??= Object.create(Object.getPrototypeOf(res) as object) as object;
    Object.setPrototypeOf(req, requestPrototype);
    Object.setPrototypeOf(res, responsePrototype);
    listener(req, res);
  };
}

const bare: RequestListener = (req, res) => readBody(req, (body) => writeJson(res, answer(body)));

const variants: Readonly<Record<string, () => RequestListener>> = {
  bare: () => bare,
  'bare+setPrototypeOf': () => withExpressPrototypes(bare),
  'express route': () => {
    const app = express();
    app.post('/', (req, res) => readBody(req, (body) => writeJson(res, answer(body))));
    return app;
  },
  'express route+raw parser': () => {
    const app = express();
    app.post('/', express.raw({ type: () => true, limit: BODY_LIMIT }), (req, res) =>
      writeJson(res, answer(req.body as Buffer)),
    );
    return app;
  },
  'express route+raw parser+res.send': () => {
    const app = express();
    app.set('etag', false);
    app.post('/', express.raw({ type: () => true, limit: BODY_LIMIT }), (req, res) => {
      res.status(200).type('application/json').vary('Accept-Encoding');
      res.send(Buffer.from(answer(req.body as Buffer)));
    });
    return app;
  },
  'createRpcApp (ours)': () => createRpcApp({ node, namespace: 'public', limits: PUBLIC_RPC_LIMITS_DEFAULT }),
};

async function measure(name: string, listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const config: LoadConfig = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    method: 'svc_getBlockNumber',
    connections: 64,
    warmupMs: 1_000,
    durationMs: 4_000,
    requestsMax: 20_000_000,
    stallMs: 10_000,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', LOAD_GENERATOR, JSON.stringify(config)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let start = process.cpuUsage();
  let end = start;
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await new Promise<LoadResult>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${name}: no result within ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
      child.on('message', (message: LoadMessage) => {
        if (message.type === 'measureStart') start = process.cpuUsage();
        else if (message.type === 'measureEnd') end = process.cpuUsage();
        else if (message.type === 'result') resolve(message.result);
        else reject(new Error(message.message));
      });
      child.once('exit', () => reject(new Error(`${name}: the load generator exited without a result`)));
    });
    const perRequest = (micros: number) => (micros / result.completed).toFixed(1);
    return (
      `${name.padEnd(36)} ${String(Math.round((result.completed / result.windowMs) * 1000)).padStart(6)} req/s  ` +
      `server user ${perRequest(end.user - start.user).padStart(6)} + sys ${perRequest(end.system - start.system).padStart(5)} µs/req` +
      `  errors ${result.errors}`
    );
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !(n in variants));
  if (unknown.length > 0)
    throw new Error(`unknown variant(s) ${unknown.join(', ')}; known: ${Object.keys(variants).join(', ')}`);
  for (const name of names.length > 0 ? names : Object.keys(variants)) {
    process.stdout.write(`${await measure(name, variants[name]!())}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
