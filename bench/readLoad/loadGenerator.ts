/**
 * The load generator, in its own process: `connections` closed-loop clients over one node:http keep-alive Agent,
 * each sending its next JSON-RPC call as soon as its previous answer arrived.
 * - reads: the mixed read load of readMix.ts at the node's current tip (polled apart, not counted), until `stop`;
 *   requests before `measure` are a warm-up.
 * - sendTx: the pre-built svc_sendTx bodies of a file; the first `fillCount` fill the pool, then it says `filled`
 *   and sends the rest once told `measure`.
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseConfigArg } from '../rpc/protocol.js';
import type {
  LoadCommand,
  LoadConfig,
  LoadMessage,
  LoadWindowResult,
  MethodFigures,
  ReadLoadConfig,
  SendTxLoadConfig,
} from './protocol.js';
import { drawReadRequest, percentile, seededRandom } from './readMix.js';

/** Latencies kept per method, at most (a bound on memory). */
const LATENCIES_PER_METHOD_MAX = 2_000_000;
const TIP_POLL_INTERVAL_MS = 200;
const NO_TIP_WAIT_MS = 50;

function send(message: LoadMessage): void {
  process.send?.(message);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

interface MethodRecord {
  latencies: number[];
  errors: number;
  firstError?: string;
}

/** Latencies and errors per method over one window. */
class Recorder {
  private readonly methods = new Map<string, MethodRecord>();
  private readonly startedMs = performance.now();

  record(method: string, latencyMs: number, error: string | undefined): void {
    let entry = this.methods.get(method);
    if (entry === undefined) this.methods.set(method, (entry = { latencies: [], errors: 0 }));
    if (entry.latencies.length < LATENCIES_PER_METHOD_MAX) entry.latencies.push(latencyMs);
    if (error !== undefined) {
      entry.errors++;
      entry.firstError ??= error.slice(0, 300);
    }
  }

  result(): LoadWindowResult {
    const byMethod: Record<string, MethodFigures> = {};
    const all: number[] = [];
    let errors = 0;
    for (const [method, entry] of [...this.methods].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = Float64Array.from(entry.latencies).sort();
      for (const latency of entry.latencies) all.push(latency); // not push(...): a long run has more than the stack holds
      errors += entry.errors;
      byMethod[method] = {
        completed: entry.latencies.length,
        errors: entry.errors,
        p50Ms: round3(percentile(sorted, 50)),
        p99Ms: round3(percentile(sorted, 99)),
        maxMs: round3(sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN),
        ...(entry.firstError === undefined ? {} : { firstError: entry.firstError }),
      };
    }
    const sorted = Float64Array.from(all).sort();
    return {
      windowMs: round3(performance.now() - this.startedMs),
      completed: all.length,
      errors,
      p50Ms: round3(percentile(sorted, 50)),
      p99Ms: round3(percentile(sorted, 99)),
      byMethod,
    };
  }
}

/** Posts `body`; resolves with the latency and the error, if the answer is not HTTP 200 with a JSON-RPC result. */
function post(agent: Agent, url: URL, body: Buffer): Promise<{ latencyMs: number; error?: string; text: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: '/',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const latencyMs = performance.now() - t0;
          const failed = res.statusCode !== 200 || text.includes('"error":');
          resolve({ latencyMs, text, ...(failed ? { error: `HTTP ${res.statusCode}: ${text.slice(0, 300)}` } : {}) });
        });
        res.on('error', (error) => resolve({ latencyMs: performance.now() - t0, error: error.message, text: '' }));
      },
    );
    req.on('error', (error) => resolve({ latencyMs: performance.now() - t0, error: error.message, text: '' }));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function nextCommand(type: LoadCommand['type']): Promise<void> {
  return new Promise((resolve) => {
    const listener = (command: LoadCommand) => {
      if (command.type !== type) return;
      process.off('message', listener);
      resolve();
    };
    process.on('message', listener);
  });
}

async function runReads(config: ReadLoadConfig): Promise<LoadWindowResult> {
  const url = new URL(config.url);
  const agent = new Agent({ keepAlive: true, maxSockets: config.connections + 1, maxFreeSockets: config.connections });
  let tip = 0;
  let stopped = false;
  let recorder = new Recorder();
  void nextCommand('measure').then(() => (recorder = new Recorder()));
  void nextCommand('stop').then(() => (stopped = true));
  const tipBody = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'svc_getBlockNumber', params: [] }));
  const pollTip = async () => {
    while (!stopped) {
      const answer = await post(agent, url, tipBody);
      const result = answer.error === undefined ? (JSON.parse(answer.text) as { result?: number }).result : undefined;
      if (typeof result === 'number') tip = result;
      await sleep(TIP_POLL_INTERVAL_MS);
    }
  };
  const client = async (slot: number) => {
    const random = seededRandom(config.seed * 1_000 + slot);
    let id = 0;
    while (!stopped) {
      if (tip < 1) {
        await sleep(NO_TIP_WAIT_MS);
        continue;
      }
      const { method, params } = drawReadRequest(random, tip, config.shape, config.historyDepthMax);
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
      const window = recorder;
      const answer = await post(agent, url, body);
      window.record(method, answer.latencyMs, answer.error);
    }
  };
  await Promise.all([pollTip(), ...Array.from({ length: config.connections }, (_, slot) => client(slot))]);
  agent.destroy();
  return recorder.result();
}

async function runSendTx(config: SendTxLoadConfig): Promise<LoadWindowResult> {
  const url = new URL(config.url);
  const agent = new Agent({ keepAlive: true, maxSockets: config.connections, maxFreeSockets: config.connections });
  const bodies = (await readFile(config.bodiesFile, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => Buffer.from(line));
  const sendRange = async (from: number, to: number): Promise<LoadWindowResult> => {
    const recorder = new Recorder();
    let next = from;
    const client = async () => {
      while (next < to) {
        const answer = await post(agent, url, bodies[next++]!);
        recorder.record('svc_sendTx', answer.latencyMs, answer.error);
      }
    };
    await Promise.all(Array.from({ length: config.connections }, client));
    return recorder.result();
  };
  const measure = nextCommand('measure');
  const fill = await sendRange(0, config.fillCount);
  send({ type: 'filled', fill });
  await measure;
  const result = await sendRange(config.fillCount, bodies.length);
  agent.destroy();
  return result;
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('loadGenerator must be started with an IPC channel');
  // The bench gone (killed, or failed) means nobody reads the figures: stop rather than load a dead node forever.
  process.on('disconnect', () => process.exit(0));
  const config = parseConfigArg<LoadConfig>(process.argv);
  try {
    send({ type: 'result', result: config.kind === 'reads' ? await runReads(config) : await runSendTx(config) });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
  process.disconnect();
}

main().catch((error: unknown) => {
  process.stderr.write(`read-load generator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
