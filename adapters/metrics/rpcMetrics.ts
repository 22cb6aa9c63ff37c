/**
 * JSON-RPC requests, errors and latency per method, counted by the dispatcher (adapters/rpc/dispatcher.ts,
 * RpcCallObserver). The method label is a name the listener serves, or `unknown`: a client cannot grow the label set.
 */
import type { Meter } from '@opentelemetry/api';
import type { RpcCallObserver } from '../rpc/dispatcher.js';

/** The method label of a call whose name the listener does not serve, or of an invalid request. */
export const RPC_UNKNOWN_METHOD_LABEL = 'unknown';

/** Bucket bounds (seconds) of the JSON-RPC latency histogram. */
export const RPC_LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export function createRpcCallMetrics(meter: Meter): RpcCallObserver {
  const requests = meter.createCounter('svc_rpc_requests_total', {
    description: 'JSON-RPC calls answered, by method (batch members count one each)',
  });
  const errors = meter.createCounter('svc_rpc_errors_total', {
    description: 'JSON-RPC calls answered with an error, by method and JSON-RPC error code',
  });
  const latency = meter.createHistogram('svc_rpc_request_duration_seconds', {
    description: 'Time to answer one JSON-RPC call, by method',
    unit: 's',
    advice: { explicitBucketBoundaries: RPC_LATENCY_BUCKETS_SECONDS },
  });
  return {
    onCall: ({ method, errorCode, durationSeconds }) => {
      const labels = { method: method ?? RPC_UNKNOWN_METHOD_LABEL };
      requests.add(1, labels);
      latency.record(durationSeconds, labels);
      if (errorCode !== undefined) errors.add(1, { ...labels, code: String(errorCode) });
    },
  };
}
