/**
 * The production MetricsPort: what the core reports (core/ports.ts, MetricsEvent) recorded on OpenTelemetry
 * instruments, which the readers of adapters/metrics/nodeMetrics.ts export to Prometheus and OTLP. Names follow
 * Prometheus conventions: `svc_` prefix, base units in the name, counters ending in `_total`.
 */
import type { Meter } from '@opentelemetry/api';
import type { MetricsEvent, MetricsPort, SnapshotUploadProgress } from '../../core/ports.js';

/** Bucket bounds (seconds) of the histograms of short work: a chain update, a block build. */
export const SHORT_WORK_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Bucket bounds (seconds) of a snapshot upload's duration. */
export const SNAPSHOT_UPLOAD_BUCKETS_SECONDS = [1, 5, 15, 60, 300, 900, 3600];

const MS_PER_SECOND = 1_000;

/** The instruments of the core's measurements, created once per meter. */
function coreInstruments(meter: Meter) {
  const seconds = (name: string, description: string, buckets: number[]) =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: buckets } });
  return {
    worldStateApply: seconds(
      'svc_world_state_apply_duration_seconds',
      'Time to apply a chain update that adds blocks to the world state and commit it',
      SHORT_WORK_BUCKETS_SECONDS,
    ),
    worldStateBlocks: meter.createCounter('svc_world_state_applied_blocks_total', {
      description: 'Blocks applied to the world state',
    }),
    txRejections: meter.createCounter('svc_tx_pool_rejections_total', {
      description: 'Txs the pool refused, by rejection code (INVALID_TX: failed validation)',
    }),
    blockBuild: seconds(
      'svc_block_build_duration_seconds',
      'Time the sequencer took to build and commit one block',
      SHORT_WORK_BUCKETS_SECONDS,
    ),
    manaUsed: meter.createCounter('svc_block_built_mana_total', {
      description: 'Mana used by the blocks this node built',
    }),
    manaPerSecond: meter.createGauge('svc_block_build_mana_per_second', {
      description: 'Mana of the last block this node built over its build time',
    }),
    attestationsCollected: meter.createGauge('svc_attestations_collected', {
      description: 'Attestations the last checkpoint this node proposed collected',
    }),
    attestationsRequired: meter.createGauge('svc_attestations_required', {
      description: 'Attestations the last checkpoint this node proposed needed (its committee quorum)',
    }),
    quorumMisses: meter.createCounter('svc_attestation_quorum_misses_total', {
      description: 'Checkpoints this node proposed whose committee quorum did not come by the deadline',
    }),
    ...l1TxInstruments(meter),
    ...snapshotInstruments(meter),
  };
}

function l1TxInstruments(meter: Meter) {
  const feeGauge = (name: string, description: string) => meter.createGauge(name, { description });
  return {
    l1TxsSent: meter.createCounter('svc_l1_txs_sent_total', {
      description: 'L1 transactions the L1 node accepted from this node, by what they do',
    }),
    l1TxsReplaced: meter.createCounter('svc_l1_txs_replaced_total', {
      description: 'L1 transactions sent at the nonce of a pending one (replacements), by what they do',
    }),
    l1MaxFeePerGas: feeGauge('svc_l1_tx_max_fee_per_gas_wei', 'Max fee per gas of the last L1 transaction sent'),
    l1MaxPriorityFeePerGas: feeGauge(
      'svc_l1_tx_max_priority_fee_per_gas_wei',
      'Max priority fee per gas of the last L1 transaction sent',
    ),
    l1MaxFeePerBlobGas: feeGauge(
      'svc_l1_tx_max_fee_per_blob_gas_wei',
      'Max fee per blob gas of the last L1 blob transaction sent',
    ),
  };
}

function snapshotInstruments(meter: Meter) {
  return {
    snapshotStages: meter.createCounter('svc_snapshot_upload_stages_total', {
      description: 'Snapshot upload progress reports, by stage (writing, written, uploaded, indexed)',
    }),
    snapshotBytesWritten: meter.createGauge('svc_snapshot_upload_written_bytes', {
      description: 'Bytes of the data file the current or last snapshot upload has written',
    }),
    snapshotEntriesWritten: meter.createGauge('svc_snapshot_upload_written_entries', {
      description: 'Database entries the current or last snapshot upload has written',
    }),
    snapshotUploads: meter.createCounter('svc_snapshot_uploads_total', {
      description: 'Snapshot uploads finished, by outcome (succeeded, failed)',
    }),
    snapshotDuration: meter.createHistogram('svc_snapshot_upload_duration_seconds', {
      description: 'Time a snapshot upload took, to success or failure',
      unit: 's',
      advice: { explicitBucketBoundaries: SNAPSHOT_UPLOAD_BUCKETS_SECONDS },
    }),
    snapshotSize: meter.createGauge('svc_snapshot_upload_size_bytes', {
      description: 'Size of the data file of the last snapshot uploaded',
    }),
  };
}

type CoreInstruments = ReturnType<typeof coreInstruments>;

function recordSnapshotProgress(instruments: CoreInstruments, progress: SnapshotUploadProgress): void {
  instruments.snapshotStages.add(1, { stage: progress.stage });
  if (progress.stage === 'writing' || progress.stage === 'written') {
    instruments.snapshotBytesWritten.record(progress.bytes);
    instruments.snapshotEntriesWritten.record(progress.entries);
  }
}

function recordL1Tx(instruments: CoreInstruments, event: Extract<MetricsEvent, { kind: 'l1TxSent' }>): void {
  const labels = { what: event.what };
  instruments.l1TxsSent.add(1, labels);
  if (event.replaced) instruments.l1TxsReplaced.add(1, labels);
  instruments.l1MaxFeePerGas.record(Number(event.maxFeePerGasWei), labels);
  instruments.l1MaxPriorityFeePerGas.record(Number(event.maxPriorityFeePerGasWei), labels);
  if (event.maxFeePerBlobGasWei !== undefined)
    instruments.l1MaxFeePerBlobGas.record(Number(event.maxFeePerBlobGasWei), labels);
}

function record(instruments: CoreInstruments, event: MetricsEvent): void {
  switch (event.kind) {
    case 'worldStateApplied':
      instruments.worldStateApply.record(event.durationMs / MS_PER_SECOND);
      instruments.worldStateBlocks.add(event.blocks);
      return;
    case 'txRejected':
      instruments.txRejections.add(1, { code: event.code });
      return;
    case 'blockBuilt':
      instruments.blockBuild.record(event.durationMs / MS_PER_SECOND);
      instruments.manaUsed.add(event.manaUsed);
      instruments.manaPerSecond.record(event.durationMs > 0 ? (event.manaUsed * MS_PER_SECOND) / event.durationMs : 0);
      return;
    case 'attestationsCollected':
      instruments.attestationsCollected.record(event.collected);
      instruments.attestationsRequired.record(event.required);
      if (!event.quorumReached) instruments.quorumMisses.add(1);
      return;
    case 'l1TxSent':
      return recordL1Tx(instruments, event);
    case 'snapshotUploadProgress':
      return recordSnapshotProgress(instruments, event.progress);
    case 'snapshotUploadFinished':
      instruments.snapshotUploads.add(1, { outcome: event.outcome });
      instruments.snapshotDuration.record(event.durationMs / MS_PER_SECOND);
      if (event.sizeBytes !== undefined) instruments.snapshotSize.record(event.sizeBytes);
      return;
  }
}

/** The core's metrics port over `meter`: every report is recorded at once and never throws. */
export function createOtelMetricsPort(meter: Meter): MetricsPort {
  const instruments = coreInstruments(meter);
  return { report: (event) => record(instruments, event) };
}
