/**
 * A node's metrics, exported both ways from one OpenTelemetry meter: scraped as Prometheus text on `/metrics`
 * (exporter-prometheus's serializer, served by a listener of ours so that port 0 works and the URL is known) and
 * pushed over OTLP/HTTP to a collector (exporter-metrics-otlp-http on a periodic reader). Either, both or neither,
 * by the configuration (docs/running.md, Metrics).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';
import type { RollupNode } from '../../core/node/node.js';
import type { LoggerPort, MetricsPort, NetworkPort } from '../../core/ports.js';
import type { ConfigValues } from '../../spec/config/schema.js';
import type { RpcCallObserver } from '../rpc/dispatcher.js';
import { closeHttpServer, httpUrlOf, listenHttp } from '../rpc/httpListener.js';
import { createOtelMetricsPort } from './coreMetrics.js';
import { countGossip } from './gossipMetrics.js';
import { observeNode } from './nodeMetrics.js';
import { createRpcCallMetrics } from './rpcMetrics.js';
import { observeRuntime } from './runtimeMetrics.js';

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics';
/** The name the node's metrics carry as their OpenTelemetry service (`target_info`, OTLP resource). */
export const METRICS_SERVICE_NAME = 'svc-rollup-node';
/** Longest an OTLP push may take before it is abandoned (milliseconds); never above the export interval. */
export const OTLP_EXPORT_TIMEOUT_MS = 10_000;
/** Longest the metrics listener waits for open scrapes when the node stops (milliseconds). */
export const METRICS_SHUTDOWN_GRACE_MS = 1_000;

export interface MetricsSettings {
  /** Port of the `/metrics` listener; absent: no listener. 0 picks a free one. */
  readonly port?: number;
  /** Address the listener binds to. */
  readonly host: string;
  /** OTLP/HTTP metrics URL of a collector (`http://collector:4318/v1/metrics`); absent: no push. */
  readonly otlpEndpoint?: string;
  /** Time between two OTLP pushes (milliseconds). */
  readonly exportIntervalMs: number;
  /** The node's version, on the OpenTelemetry resource. */
  readonly serviceVersion?: string;
}

export interface NodeMetrics {
  /** The core's metrics port (NodePorts.metrics). */
  readonly port: MetricsPort;
  /** What the JSON-RPC dispatchers report each call to. */
  readonly rpcCalls: RpcCallObserver;
  /** The node's network port, with its gossip counted. */
  countGossip(network: NetworkPort): NetworkPort;
  /** Observes the node and the runtime, and opens the `/metrics` listener (when a port is set); answers its URL. */
  start(node: RollupNode): Promise<string | undefined>;
  /** Closes the listener, pushes the last figures (OTLP) and stops measuring. Calling it again does nothing. */
  stop(): Promise<void>;
}

/** The metrics settings of a node's configuration. */
export function metricsSettingsOf(values: ConfigValues): MetricsSettings {
  return {
    host: values.metricsHost,
    exportIntervalMs: values.otelMetricExportIntervalMs,
    ...(values.metricsPort !== undefined ? { port: values.metricsPort } : {}),
    ...(values.otelExporterOtlpMetricsEndpoint !== undefined
      ? { otlpEndpoint: values.otelExporterOtlpMetricsEndpoint }
      : {}),
  };
}

/** The node's metrics by `settings`; undefined when neither a port nor an OTLP endpoint is set (metrics are off). */
export function createNodeMetrics(settings: MetricsSettings, logger: LoggerPort): NodeMetrics | undefined {
  if (settings.port === undefined && settings.otlpEndpoint === undefined) return undefined;
  const prometheus =
    settings.port !== undefined
      ? new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })
      : undefined;
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': METRICS_SERVICE_NAME,
      ...(settings.serviceVersion !== undefined ? { 'service.version': settings.serviceVersion } : {}),
    }),
    readers: readersOf(settings, prometheus),
  });
  const meter = provider.getMeter(METRICS_SERVICE_NAME);
  let stopRuntime: (() => void) | undefined;
  let server: Server | undefined;
  let stopNode: (() => void) | undefined;
  let stopping: Promise<void> | undefined;
  return {
    port: createOtelMetricsPort(meter),
    rpcCalls: createRpcCallMetrics(meter),
    countGossip: (network) => countGossip(network, meter),
    async start(node) {
      stopNode = observeNode(meter, node);
      stopRuntime = observeRuntime(meter);
      if (prometheus === undefined || settings.port === undefined) return undefined;
      server = await listenHttp(metricsRequestListener(prometheus), settings.port, settings.host, (error) =>
        logger.warn('metrics listener error', { error: String(error) }),
      );
      const url = `${httpUrlOf(server)}${METRICS_PATH}`;
      logger.info('serving Prometheus metrics', { url });
      return url;
    },
    stop: () =>
      (stopping ??= (async () => {
        stopNode?.();
        stopRuntime?.();
        if (server !== undefined) await closeHttpServer(server, METRICS_SHUTDOWN_GRACE_MS).catch(() => undefined);
        await provider
          .shutdown()
          .catch((error: unknown) => logger.warn('metrics shutdown failed', { error: String(error) }));
      })()),
  };
}

function readersOf(settings: MetricsSettings, prometheus: PrometheusExporter | undefined): MetricReader[] {
  const readers: MetricReader[] = prometheus !== undefined ? [prometheus] : [];
  if (settings.otlpEndpoint !== undefined) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: settings.otlpEndpoint }),
        exportIntervalMillis: settings.exportIntervalMs,
        exportTimeoutMillis: Math.min(OTLP_EXPORT_TIMEOUT_MS, settings.exportIntervalMs),
      }),
    );
  }
  return readers;
}

/** Answers `GET /metrics` with the Prometheus text, anything else with 404 or 405. */
function metricsRequestListener(prometheus: PrometheusExporter) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: metrics are at ${METRICS_PATH}\n`);
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else {
      prometheus.getMetricsRequestHandler(request, response);
    }
  };
}
