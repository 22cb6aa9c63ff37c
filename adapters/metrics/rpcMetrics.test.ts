/**
 * JSON-RPC metrics as a client's calls make them: every call of a batch counts, notifications too, and a name the
 * listener does not serve, or an invalid request, counts as `unknown` so clients cannot grow the label set.
 */
import { MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeService } from '../../core/nodeService.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import { createRpcDispatcher, RPC_DISCOVER_METHOD } from '../rpc/dispatcher.js';
import { rpcMethodList } from '../../spec/rpc/methods.js';
import { silentLogger } from '../rpc/jsonRpcServer.js';
import { createRpcCallMetrics, RPC_UNKNOWN_METHOD_LABEL } from './rpcMetrics.js';

class CollectingReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

const node = { chain: { getBlockNumber: async () => 7 } } as unknown as NodeService;

function dispatcherWithMetrics() {
  const reader = new CollectingReader();
  const calls = createRpcCallMetrics(new MeterProvider({ readers: [reader] }).getMeter('test'));
  const dispatch = createRpcDispatcher({
    node,
    namespace: 'public',
    limits: PUBLIC_RPC_LIMITS_DEFAULT,
    logger: silentLogger,
    calls,
  });
  /** Samples of `name` as `label=value,...` -> value (a histogram's count). */
  const read = async (name: string): Promise<Record<string, number>> => {
    const { resourceMetrics } = await reader.collect();
    const metric: MetricData | undefined = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((m) => m.descriptor.name === name);
    return Object.fromEntries(
      (metric?.dataPoints ?? []).map((point) => [
        Object.entries(point.attributes)
          .map(([key, value]) => `${key}=${String(value)}`)
          .join(','),
        typeof point.value === 'number' ? point.value : (point.value as { count: number }).count,
      ]),
    );
  };
  return { dispatch, read };
}

const call = (method: string, id: number | undefined = 1) => ({
  jsonrpc: '2.0',
  method,
  params: [],
  ...(id !== undefined ? { id } : {}),
});

/** Any name but the public listener's methods and rpc.discover. */
const unservedName = fc
  .string({ maxLength: 40 })
  .filter((name) => name !== RPC_DISCOVER_METHOD && !rpcMethodList.some((definition) => definition.name === name));

describe('JSON-RPC metrics', () => {
  it('counts each call of a batch, notifications and errors, by method and code', async () => {
    const { dispatch, read } = dispatcherWithMetrics();
    await dispatch([call('svc_getBlockNumber', 1), call('svc_getBlockNumber', undefined), call('svc_nope', 3)]);
    await dispatch({ jsonrpc: '1.0', id: 4, method: 'svc_getBlockNumber' });
    await dispatch(call('svcAdmin_pauseSync'));
    expect(await read('svc_rpc_requests_total')).toEqual({
      'method=svc_getBlockNumber': 2,
      [`method=${RPC_UNKNOWN_METHOD_LABEL}`]: 3,
    });
    expect(await read('svc_rpc_errors_total')).toEqual({
      [`method=${RPC_UNKNOWN_METHOD_LABEL},code=-32601`]: 2,
      [`method=${RPC_UNKNOWN_METHOD_LABEL},code=-32600`]: 1,
    });
    expect(await read('svc_rpc_request_duration_seconds')).toEqual({
      'method=svc_getBlockNumber': 2,
      [`method=${RPC_UNKNOWN_METHOD_LABEL}`]: 3,
    });
  });

  it('labels only methods the listener serves, whatever names clients send', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(unservedName, { minLength: 1, maxLength: 10 }), async (names) => {
        const { dispatch, read } = dispatcherWithMetrics();
        await dispatch(names.map((name, i) => call(name, i)));
        const labels = Object.keys(await read('svc_rpc_requests_total'));
        for (const label of labels) expect(label).toBe(`method=${RPC_UNKNOWN_METHOD_LABEL}`);
      }),
      { numRuns: 50 },
    );
  });
});
