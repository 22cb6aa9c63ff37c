/**
 * The node's metrics exported both ways, without a node: OTLP pushes reach a collector on loopback (periodically and
 * once more on stop), and the `/metrics` listener serves only `/metrics`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../rpc/jsonRpcServer.js';
import { createNodeMetrics, metricsSettingsOf, type NodeMetrics } from './metricsExport.js';
import { defaultConfigValues } from '../../spec/config/schema.js';

interface Push {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

/** An OTLP/HTTP collector on loopback that records every request and answers 200. */
async function startCollector(): Promise<{ url: string; pushes: Push[]; close(): Promise<void> }> {
  const pushes: Push[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      pushes.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/metrics`,
    pushes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('node metrics export', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const track = (metrics: NodeMetrics | undefined): NodeMetrics => {
    expect(metrics).toBeDefined();
    cleanups.push(() => metrics!.stop());
    return metrics!;
  };

  it('is off without a port and without an OTLP endpoint (the defaults)', () => {
    expect(createNodeMetrics(metricsSettingsOf(defaultConfigValues()), silentLogger)).toBeUndefined();
  });

  it('pushes the metrics to an OTLP collector every interval', async () => {
    const collector = await startCollector();
    cleanups.push(() => collector.close());
    const metrics = track(
      createNodeMetrics({ host: '127.0.0.1', otlpEndpoint: collector.url, exportIntervalMs: 100 }, silentLogger),
    );
    metrics.rpcCalls.onCall({ method: 'svc_getBlockNumber', errorCode: undefined, durationSeconds: 0.001 });
    metrics.port.report({ kind: 'txRejected', code: 'LOW_PRIORITY_FEE' });
    await until('two pushes', () => collector.pushes.length >= 2, 10_000);
    const push = collector.pushes.at(-1)!;
    expect(push.path).toBe('/v1/metrics');
    expect(push.body.includes('svc_rpc_requests_total')).toBe(true);
    expect(push.body.includes('svc_tx_pool_rejections_total')).toBe(true);
    expect(push.body.includes('svc_getBlockNumber')).toBe(true);
    expect(push.body.includes('svc-rollup-node')).toBe(true);
  });

  it('pushes the last figures when it stops, however long the interval', async () => {
    const collector = await startCollector();
    cleanups.push(() => collector.close());
    const metrics = createNodeMetrics(
      { host: '127.0.0.1', otlpEndpoint: collector.url, exportIntervalMs: 3_600_000 },
      silentLogger,
    )!;
    metrics.port.report({ kind: 'snapshotUploadFinished', outcome: 'succeeded', durationMs: 1_000, sizeBytes: 10 });
    expect(collector.pushes).toHaveLength(0);
    await metrics.stop();
    expect(collector.pushes.some((push) => push.body.includes('svc_snapshot_uploads_total'))).toBe(true);
  });
});
