/**
 * The load generator, in its own process: `connections` closed-loop clients over one node:http keep-alive Agent
 * (maxSockets = connections), each sending a JSON-RPC call as soon as its previous answer arrived. A warm-up, then a
 * measured window; it tells the orchestrator when the window opens and closes (so the server's CPU time is read over
 * the same window) and sends back counts, latency percentiles and its own CPU time.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseConfigArg, type LoadConfig, type LoadMessage, type LoadResult } from './protocol.js';

/** Latencies kept for the percentiles, at most (a bound on memory; far above what a 5 s window completes). */
const LATENCIES_MAX = 4_000_000;
const STALL_CHECK_INTERVAL_MS = 250;

function send(message: LoadMessage): void {
  process.send?.(message);
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function run(config: LoadConfig): Promise<LoadResult> {
  const target = new URL(config.url);
  const agent = new Agent({ keepAlive: true, maxSockets: config.connections, maxFreeSockets: config.connections });
  let socketsOpened = 0;
  const countSocket = () => {
    socketsOpened++;
  };
  // Each client sends its own id, so an answer can be checked against its request.
  const bodies = Array.from({ length: config.connections }, (_, slot) =>
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: slot, method: config.method, params: [] })),
  );

  const latencies = new Float64Array(Math.min(LATENCIES_MAX, config.requestsMax));
  let phase: 'warmup' | 'measure' | 'drain' = 'warmup';
  let started = 0;
  let completed = 0;
  let errors = 0;
  let firstError: string | undefined;
  let sampleBody = '';
  let lastProgress = performance.now();
  let aborted: Error | undefined;

  const record = (latencyMs: number, ok: boolean, detail: string) => {
    lastProgress = performance.now();
    if (phase !== 'measure') return;
    if (!ok) {
      errors++;
      firstError ??= detail;
    }
    if (completed < latencies.length) latencies[completed] = latencyMs;
    completed++;
  };

  const call = (slot: number): Promise<void> =>
    new Promise((resolve) => {
      const body = bodies[slot]!;
      const t0 = performance.now();
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: '/',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            const latency = performance.now() - t0;
            let ok = res.statusCode === 200;
            if (ok) {
              try {
                const answer = JSON.parse(text) as { id?: unknown; result?: unknown; error?: unknown };
                ok = answer.id === slot && answer.result !== undefined && answer.error === undefined;
              } catch {
                ok = false;
              }
            }
            if (sampleBody === '') sampleBody = text;
            record(latency, ok, `HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
            resolve();
          });
          res.on('error', (error) => {
            record(performance.now() - t0, false, error.message);
            resolve();
          });
        },
      );
      req.on('socket', (socket) => {
        // A socket reused from the pool has already been counted.
        if (!(socket as { benchCounted?: boolean }).benchCounted) {
          (socket as { benchCounted?: boolean }).benchCounted = true;
          countSocket();
        }
      });
      req.on('error', (error) => {
        record(performance.now() - t0, false, error.message);
        resolve();
      });
      req.end(body);
    });

  const client = async (slot: number): Promise<void> => {
    while (phase !== 'drain' && aborted === undefined && started < config.requestsMax) {
      started++;
      await call(slot);
    }
  };

  const clients = Array.from({ length: config.connections }, (_, slot) => client(slot));

  const stallWatch = setInterval(() => {
    if (performance.now() - lastProgress > config.stallMs) {
      aborted = new Error(`no answer for ${config.stallMs} ms`);
      agent.destroy();
    }
  }, STALL_CHECK_INTERVAL_MS);

  await new Promise((resolve) => setTimeout(resolve, config.warmupMs));
  phase = 'measure';
  const windowStart = performance.now();
  const cpuStart = process.cpuUsage();
  send({ type: 'measureStart' });

  await new Promise((resolve) => setTimeout(resolve, config.durationMs));
  phase = 'drain';
  const windowMs = performance.now() - windowStart;
  const cpu = process.cpuUsage(cpuStart);
  send({ type: 'measureEnd' });

  await Promise.all(clients);
  clearInterval(stallWatch);
  agent.destroy();
  if (aborted !== undefined) throw aborted;

  const kept = latencies.subarray(0, Math.min(completed, latencies.length)).sort();
  return {
    completed,
    errors,
    windowMs: round3(windowMs),
    p50Ms: round3(percentile(kept, 50)),
    p90Ms: round3(percentile(kept, 90)),
    p99Ms: round3(percentile(kept, 99)),
    maxMs: round3(kept.length > 0 ? kept[kept.length - 1]! : Number.NaN),
    cpu: { user: cpu.user, system: cpu.system },
    socketsOpened,
    sampleBody,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('loadGenerator must be started with an IPC channel');
  const config = parseConfigArg<LoadConfig>(process.argv);
  try {
    send({ type: 'result', result: await run(config) });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
  process.disconnect();
}

main().catch((error: unknown) => {
  process.stderr.write(`rpc bench load generator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
