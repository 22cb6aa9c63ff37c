/**
 * CPU cost of the pieces of our JSON-RPC path that are not HTTP, one call at a time in a loop (no I/O): the whole
 * dispatcher for svc_getBlockNumber, and its parts (result encoding with zod, the per-call timeout timer, body
 * decoding, reply serialisation).
 *   npx tsx bench/rpc/experiments/dispatcherMicro.ts
 * Evidence for the report of `npm run bench -- rpc`; not part of the benchmark run.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { createRpcDispatcher } from '../../../adapters/rpc/dispatcher.js';
import { wireJsonReplacer } from '../../../adapters/rpc/errors.js';
import { silentLogger } from '../../../adapters/rpc/jsonRpcServer.js';
import type { NodeService } from '../../../core/nodeService.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../../spec/rpc/limits.js';
import { rpcMethods } from '../../../spec/rpc/methods.js';

const CALLS = 200_000;
const node = { getBlockNumber: async () => 12_345 } as unknown as NodeService;
const dispatch = createRpcDispatcher({
  node,
  namespace: 'public',
  limits: PUBLIC_RPC_LIMITS_DEFAULT,
  logger: silentLogger,
});
const body = Buffer.from('{"jsonrpc":"2.0","id":7,"method":"svc_getBlockNumber","params":[]}');
const utf8 = new TextDecoder('utf-8', { fatal: true });
const reply = { jsonrpc: '2.0', id: 7, result: 12_345 };

async function time(name: string, work: () => unknown): Promise<void> {
  for (let i = 0; i < CALLS / 10; i++) await work(); // warm-up: let the JIT settle
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < CALLS; i++) await work();
  const used = process.cpuUsage(cpu);
  const micros = (x: number) => (x / CALLS).toFixed(3).padStart(7);
  process.stdout.write(
    `${name.padEnd(48)} ${micros(used.user + used.system)} µs cpu ${micros((performance.now() - wall) * 1000)} µs wall\n`,
  );
}

async function main(): Promise<void> {
  await time('empty await (loop overhead)', () => undefined);
  await time('dispatch(svc_getBlockNumber), whole', () =>
    dispatch({ jsonrpc: '2.0', id: 7, method: 'svc_getBlockNumber', params: [] }),
  );
  await time('z.safeEncode(blockNumber result schema)', () =>
    z.safeEncode(rpcMethods.svc_getBlockNumber.result, 12_345),
  );
  await time('setTimeout + Promise.race + finally(clearTimeout)', () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), 30_000);
    });
    return Promise.race([Promise.resolve(1), timeout]).finally(() => clearTimeout(timer));
  });
  await time('TextDecoder(fatal).decode + JSON.parse (body)', () => JSON.parse(utf8.decode(body)) as unknown);
  await time('JSON.stringify(reply, wireJsonReplacer)', () => JSON.stringify(reply, wireJsonReplacer));
  await time('JSON.stringify(reply)', () => JSON.stringify(reply));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
