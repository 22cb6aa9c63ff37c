/**
 * The simulator's metrics port: an in-memory tally of what the core reported, in the shape every metrics adapter is
 * read back in by the contract suite (test/portSuites/metricsPort.suite.ts). Reporting only adds to the tally; it
 * schedules nothing and draws no randomness, so a node with it runs exactly as one without.
 */
import type { MetricsEvent, MetricsPort } from '../core/ports.js';

/** Totals of what was reported, and the last value of what is a gauge. Durations in seconds, as exported. */
export interface MetricsReading {
  readonly worldStateApplies: number;
  readonly worldStateAppliedBlocks: number;
  readonly worldStateApplySeconds: number;
  /** Refused txs by code. */
  readonly txRejections: Readonly<Record<string, number>>;
  readonly blocksBuilt: number;
  readonly blockBuildSeconds: number;
  readonly manaUsed: number;
  /** The last block's mana over its build time (0 when it took no measurable time). */
  readonly lastBlockManaPerSecond: number | undefined;
  readonly lastAttestationsCollected: number | undefined;
  readonly lastAttestationsRequired: number | undefined;
  readonly quorumMisses: number;
  /** L1 transactions sent, replacements among them, and the last max fee per gas, by what they do. */
  readonly l1TxsSent: Readonly<Record<string, number>>;
  readonly l1TxsReplaced: Readonly<Record<string, number>>;
  readonly lastL1MaxFeePerGasWei: Readonly<Record<string, number>>;
  /** Snapshot uploads by outcome, progress reports by stage, and the last bytes written. */
  readonly snapshotUploads: Readonly<Record<string, number>>;
  readonly snapshotUploadStages: Readonly<Record<string, number>>;
  readonly snapshotUploadBytesWritten: number | undefined;
}

export const EMPTY_METRICS_READING: MetricsReading = {
  worldStateApplies: 0,
  worldStateAppliedBlocks: 0,
  worldStateApplySeconds: 0,
  txRejections: {},
  blocksBuilt: 0,
  blockBuildSeconds: 0,
  manaUsed: 0,
  lastBlockManaPerSecond: undefined,
  lastAttestationsCollected: undefined,
  lastAttestationsRequired: undefined,
  quorumMisses: 0,
  l1TxsSent: {},
  l1TxsReplaced: {},
  lastL1MaxFeePerGasWei: {},
  snapshotUploads: {},
  snapshotUploadStages: {},
  snapshotUploadBytesWritten: undefined,
};

const MS_PER_SECOND = 1_000;

const plusOne = (counts: Readonly<Record<string, number>>, key: string, by = 1): Record<string, number> => ({
  ...counts,
  [key]: (counts[key] ?? 0) + by,
});

/** Mana per second of one block's build; 0 when the build took no measurable time. */
export function manaPerSecond(manaUsed: number, durationMs: number): number {
  return durationMs > 0 ? (manaUsed * MS_PER_SECOND) / durationMs : 0;
}

/** The reading after one more event (pure). */
export function tallyMetricsEvent(reading: MetricsReading, event: MetricsEvent): MetricsReading {
  switch (event.kind) {
    case 'worldStateApplied':
      return {
        ...reading,
        worldStateApplies: reading.worldStateApplies + 1,
        worldStateAppliedBlocks: reading.worldStateAppliedBlocks + event.blocks,
        worldStateApplySeconds: reading.worldStateApplySeconds + event.durationMs / MS_PER_SECOND,
      };
    case 'txRejected':
      return { ...reading, txRejections: plusOne(reading.txRejections, event.code) };
    case 'blockBuilt':
      return {
        ...reading,
        blocksBuilt: reading.blocksBuilt + 1,
        blockBuildSeconds: reading.blockBuildSeconds + event.durationMs / MS_PER_SECOND,
        manaUsed: reading.manaUsed + event.manaUsed,
        lastBlockManaPerSecond: manaPerSecond(event.manaUsed, event.durationMs),
      };
    case 'attestationsCollected':
      return {
        ...reading,
        lastAttestationsCollected: event.collected,
        lastAttestationsRequired: event.required,
        quorumMisses: reading.quorumMisses + (event.quorumReached ? 0 : 1),
      };
    case 'l1TxSent':
      return {
        ...reading,
        l1TxsSent: plusOne(reading.l1TxsSent, event.what),
        l1TxsReplaced: event.replaced ? plusOne(reading.l1TxsReplaced, event.what) : reading.l1TxsReplaced,
        lastL1MaxFeePerGasWei: { ...reading.lastL1MaxFeePerGasWei, [event.what]: Number(event.maxFeePerGasWei) },
      };
    case 'snapshotUploadProgress': {
      const { progress } = event;
      const bytes = 'bytes' in progress ? progress.bytes : reading.snapshotUploadBytesWritten;
      return {
        ...reading,
        snapshotUploadStages: plusOne(reading.snapshotUploadStages, progress.stage),
        snapshotUploadBytesWritten: bytes,
      };
    }
    case 'snapshotUploadFinished':
      return { ...reading, snapshotUploads: plusOne(reading.snapshotUploads, event.outcome) };
  }
}

export interface SimMetrics {
  readonly port: MetricsPort;
  /** What was reported so far. */
  reading(): MetricsReading;
}

/** A fresh in-memory metrics port for one simulated node. */
export function createSimMetrics(): SimMetrics {
  let reading = EMPTY_METRICS_READING;
  return {
    port: { report: (event) => void (reading = tallyMetricsEvent(reading, event)) },
    reading: () => reading,
  };
}
