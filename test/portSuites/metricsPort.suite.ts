/**
 * The metrics port's contract, run against the OpenTelemetry adapter (read back through a metric reader) and the
 * simulator's in-memory tally: what the core reports is what the metrics read, for any sequence of reports.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricsEvent, MetricsPort, SnapshotUploadProgress } from '../../core/ports.js';
import { EMPTY_METRICS_READING, tallyMetricsEvent, type MetricsReading } from '../../sim/simMetrics.js';

export interface MetricsHarness {
  readonly port: MetricsPort;
  /** What the adapter's metrics read now, in the tally's shape. */
  read(): Promise<MetricsReading>;
}

/** Seconds sums are compared to this many decimal places (float sums in another order differ in the last bits). */
const SECONDS_DIGITS = 6;

const roundSeconds = (seconds: number): number => Number(seconds.toFixed(SECONDS_DIGITS));

/** A reading with its float sums rounded, for exact comparison. */
function comparable(reading: MetricsReading): MetricsReading {
  return {
    ...reading,
    worldStateApplySeconds: roundSeconds(reading.worldStateApplySeconds),
    blockBuildSeconds: roundSeconds(reading.blockBuildSeconds),
    lastBlockManaPerSecond:
      reading.lastBlockManaPerSecond === undefined ? undefined : roundSeconds(reading.lastBlockManaPerSecond),
  };
}

const what = fc.constantFrom('propose', 'submitEpochProof');
const wei = fc.bigInt({ min: 1n, max: 10n ** 12n });
const durationMs = fc.integer({ min: 0, max: 60_000 });

const progress: fc.Arbitrary<SnapshotUploadProgress> = fc.oneof(
  fc.record({ stage: fc.constant('writing' as const), entries: fc.nat(1_000), bytes: fc.nat(1_000_000) }),
  fc.record({
    stage: fc.constant('written' as const),
    entries: fc.nat(1_000),
    bytes: fc.nat(1_000_000),
    dataFile: fc.constant('data.gz'),
  }),
  fc.record({ stage: fc.constant('uploaded' as const), store: fc.constant('file:///s'), dataFile: fc.constant('d') }),
  fc.record({ stage: fc.constant('indexed' as const), store: fc.constant('file:///s'), indexFile: fc.constant('i') }),
);

export const metricsEvent: fc.Arbitrary<MetricsEvent> = fc.oneof(
  fc.record({ kind: fc.constant('worldStateApplied' as const), blocks: fc.integer({ min: 1, max: 8 }), durationMs }),
  fc.record({
    kind: fc.constant('txRejected' as const),
    code: fc.constantFrom('LOW_PRIORITY_FEE', 'NULLIFIER_CONFLICT', 'INSUFFICIENT_FEE_PAYER_BALANCE', 'INVALID_TX'),
  }),
  fc.record({
    kind: fc.constant('blockBuilt' as const),
    durationMs,
    manaUsed: fc.nat(10_000_000),
    txCount: fc.nat(64),
  }),
  fc.record({
    kind: fc.constant('attestationsCollected' as const),
    collected: fc.nat(48),
    required: fc.integer({ min: 1, max: 48 }),
    quorumReached: fc.boolean(),
  }),
  fc.record(
    {
      kind: fc.constant('l1TxSent' as const),
      what,
      replaced: fc.boolean(),
      maxFeePerGasWei: wei,
      maxPriorityFeePerGasWei: wei,
      maxFeePerBlobGasWei: wei,
    },
    { requiredKeys: ['kind', 'what', 'replaced', 'maxFeePerGasWei', 'maxPriorityFeePerGasWei'] },
  ),
  fc.record({ kind: fc.constant('snapshotUploadProgress' as const), progress }),
  fc.record(
    {
      kind: fc.constant('snapshotUploadFinished' as const),
      outcome: fc.constantFrom('succeeded' as const, 'failed' as const),
      durationMs,
      sizeBytes: fc.nat(1_000_000_000),
    },
    { requiredKeys: ['kind', 'outcome', 'durationMs'] },
  ),
);

export function describeMetricsPort(name: string, make: () => MetricsHarness): void {
  describe(`MetricsPort contract: ${name}`, () => {
    it('reads nothing before anything is reported', async () => {
      expect(await make().read()).toEqual(EMPTY_METRICS_READING);
    });

    it('counts refused txs by code, and a replacement both as sent and as replaced', async () => {
      const { port, read } = make();
      port.report({ kind: 'txRejected', code: 'LOW_PRIORITY_FEE' });
      port.report({ kind: 'txRejected', code: 'LOW_PRIORITY_FEE' });
      port.report({ kind: 'txRejected', code: 'INVALID_TX' });
      const fees = { maxFeePerGasWei: 30n, maxPriorityFeePerGasWei: 2n, maxFeePerBlobGasWei: 5n };
      port.report({ kind: 'l1TxSent', what: 'propose', replaced: false, ...fees });
      port.report({ kind: 'l1TxSent', what: 'propose', replaced: true, ...fees, maxFeePerGasWei: 45n });
      const reading = await read();
      expect(reading.txRejections).toEqual({ LOW_PRIORITY_FEE: 2, INVALID_TX: 1 });
      expect(reading.l1TxsSent).toEqual({ propose: 2 });
      expect(reading.l1TxsReplaced).toEqual({ propose: 1 });
      expect(reading.lastL1MaxFeePerGasWei).toEqual({ propose: 45 });
    });

    it('times blocks in seconds and keeps the last block mana per second', async () => {
      const { port, read } = make();
      port.report({ kind: 'blockBuilt', durationMs: 500, manaUsed: 1_000, txCount: 2 });
      port.report({ kind: 'blockBuilt', durationMs: 250, manaUsed: 3_000, txCount: 4 });
      const reading = await read();
      expect(reading.blocksBuilt).toBe(2);
      expect(reading.blockBuildSeconds).toBeCloseTo(0.75, SECONDS_DIGITS);
      expect(reading.manaUsed).toBe(4_000);
      expect(reading.lastBlockManaPerSecond).toBe(12_000);
    });

    it('follows a snapshot upload from its progress to its outcome', async () => {
      const { port, read } = make();
      port.report({ kind: 'snapshotUploadProgress', progress: { stage: 'writing', entries: 10, bytes: 4_096 } });
      port.report({
        kind: 'snapshotUploadProgress',
        progress: { stage: 'written', entries: 20, bytes: 8_192, dataFile: 'd.gz' },
      });
      port.report({ kind: 'snapshotUploadFinished', outcome: 'succeeded', durationMs: 2_000, sizeBytes: 8_192 });
      port.report({ kind: 'snapshotUploadFinished', outcome: 'failed', durationMs: 10 });
      const reading = await read();
      expect(reading.snapshotUploadStages).toEqual({ writing: 1, written: 1 });
      expect(reading.snapshotUploadBytesWritten).toBe(8_192);
      expect(reading.snapshotUploads).toEqual({ succeeded: 1, failed: 1 });
    });

    it('reads, for any sequence of reports, the tally of those reports', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(metricsEvent, { maxLength: 40 }), async (events) => {
          const { port, read } = make();
          for (const event of events) port.report(event);
          const expected = events.reduce(tallyMetricsEvent, EMPTY_METRICS_READING);
          expect(comparable(await read())).toEqual(comparable(expected));
        }),
        { numRuns: 60 },
      );
    });
  });
}
