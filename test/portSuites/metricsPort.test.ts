import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { createOtelMetricsPort } from '../../adapters/metrics/coreMetrics.js';
import { createSimMetrics, type MetricsReading } from '../../sim/simMetrics.js';
import { describeMetricsPort, type MetricsHarness } from './metricsPort.suite.js';

/** A reader that only collects when asked (the exporters' readers do the same on a scrape or a push). */
class CollectingReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

type Points = readonly DataPoint<unknown>[];

const pointsOf = (metrics: readonly MetricData[], name: string): Points =>
  metrics.find((metric) => metric.descriptor.name === name)?.dataPoints ?? [];

const sumOf = (points: Points): number => points.reduce((sum, point) => sum + (point.value as number), 0);

const histogramOf = (points: Points): { count: number; sum: number } =>
  points.reduce(
    (total, point) => {
      const value = point.value as Histogram;
      return { count: total.count + value.count, sum: total.sum + (value.sum ?? 0) };
    },
    { count: 0, sum: 0 },
  );

/** One number per value of `label`. */
const byLabel = (points: Points, label: string): Record<string, number> =>
  Object.fromEntries(points.map((point) => [String(point.attributes[label]), point.value as number]));

const lastValue = (points: Points): number | undefined => (points[0]?.value as number | undefined) ?? undefined;

/** The adapter's instruments read back in the tally's shape. */
function readingOf(metrics: readonly MetricData[]): MetricsReading {
  const points = (name: string) => pointsOf(metrics, name);
  const worldState = histogramOf(points('svc_world_state_apply_duration_seconds'));
  const blocks = histogramOf(points('svc_block_build_duration_seconds'));
  return {
    worldStateApplies: worldState.count,
    worldStateAppliedBlocks: sumOf(points('svc_world_state_applied_blocks_total')),
    worldStateApplySeconds: worldState.sum,
    txRejections: byLabel(points('svc_tx_pool_rejections_total'), 'code'),
    blocksBuilt: blocks.count,
    blockBuildSeconds: blocks.sum,
    manaUsed: sumOf(points('svc_block_built_mana_total')),
    lastBlockManaPerSecond: lastValue(points('svc_block_build_mana_per_second')),
    lastAttestationsCollected: lastValue(points('svc_attestations_collected')),
    lastAttestationsRequired: lastValue(points('svc_attestations_required')),
    quorumMisses: sumOf(points('svc_attestation_quorum_misses_total')),
    l1TxsSent: byLabel(points('svc_l1_txs_sent_total'), 'what'),
    l1TxsReplaced: byLabel(points('svc_l1_txs_replaced_total'), 'what'),
    lastL1MaxFeePerGasWei: byLabel(points('svc_l1_tx_max_fee_per_gas_wei'), 'what'),
    snapshotUploads: byLabel(points('svc_snapshot_uploads_total'), 'outcome'),
    snapshotUploadStages: byLabel(points('svc_snapshot_upload_stages_total'), 'stage'),
    snapshotUploadBytesWritten: lastValue(points('svc_snapshot_upload_written_bytes')),
  };
}

describeMetricsPort('OpenTelemetry instruments', (): MetricsHarness => {
  const reader = new CollectingReader();
  const provider = new MeterProvider({ readers: [reader] });
  const port = createOtelMetricsPort(provider.getMeter('test'));
  return {
    port,
    read: async () => {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw new Error(`collect failed: ${errors.map(String).join('; ')}`);
      const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      for (const metric of metrics) {
        if (metric.dataPointType === DataPointType.EXPONENTIAL_HISTOGRAM) throw new Error('unexpected histogram kind');
      }
      return readingOf(metrics);
    },
  };
});

describeMetricsPort('simulated tally', (): MetricsHarness => {
  const sim = createSimMetrics();
  return { port: sim.port, read: async () => sim.reading() };
});
