import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import type { L2Tips } from '../../spec/chain.js';
import { toStoredJson } from '../chain/serde.js';
import type { MetricsEvent, SnapshotPort, SnapshotUpload } from '../ports.js';
import { createSimMetrics } from '../../sim/simMetrics.js';
import { isoUtcTimestamp, uploadDatabaseSnapshot } from './snapshotUpload.js';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const;
const block = (n: number) => ({ number: n, hash: hash(n) });
const tipsAt = (n: number): L2Tips => {
  const settled = { block: block(0), checkpoint: { number: 0, hash: hash(0) } };
  return { proposed: block(n), checkpointed: settled, proven: settled, finalized: settled } as unknown as L2Tips;
};
const identity = {
  l1ChainId: 31337,
  rollupAddress: `0x${'AB'.repeat(20)}`,
  rollupVersion: 3,
  genesisArchiveRoot: hash(9),
};

/** A port that writes to the live database before it reads the entries, as the sequencer may while one uploads. */
function recordingPort(onUpload: () => Promise<void>, fail?: Error) {
  const seen: { snapshot?: SnapshotUpload; entries: (readonly [string, string])[] } = { entries: [] };
  const port: SnapshotPort = {
    locationProblem: () => undefined,
    async upload(_location, snapshot, onProgress) {
      await onUpload();
      seen.snapshot = snapshot;
      for await (const entry of snapshot.entries) seen.entries.push(entry);
      onProgress?.({ stage: 'uploaded', store: 'file:///x', dataFile: 'd' });
      if (fail) throw fail;
      return { ...snapshot.chain, ...snapshot.point, dataFile: 'd', sha256: hash(1), sizeBytes: 10, entries: 2 };
    },
  };
  return { port, seen };
}

async function storageWithChain() {
  const storage = createMemoryStorage();
  await storage.open();
  await storage.batch([
    { type: 'put', key: 'meta:identity', value: toStoredJson(identity) },
    { type: 'put', key: 'meta:tips', value: toStoredJson(tipsAt(5)) },
    { type: 'put', key: 'meta:l1Sync', value: toStoredJson({ blockNumber: 77n, blockHash: hash(77), timestamp: 1n }) },
    { type: 'put', key: 'block:000000000005', value: 'b5' },
    { type: 'put', key: 'txPool:tx:1', value: 'pending' },
    { type: 'put', key: 'validators:offense:1', value: 'o' },
  ]);
  return storage;
}

describe('uploadDatabaseSnapshot', () => {
  test('metadata and entries come from one storage view, whatever is written while the upload runs', async () => {
    const storage = await storageWithChain();
    const clock = new ManualClock(1_764_133_200_123);
    const lines: LogLine[] = [];
    const { port, seen } = recordingPort(() =>
      storage.batch([
        { type: 'put', key: 'meta:tips', value: toStoredJson(tipsAt(6)) },
        { type: 'put', key: 'block:000000000006', value: 'b6' },
      ]),
    );
    const deps = { storage, snapshots: port, clock, logger: capturingLogger((line) => lines.push(line)) };
    await uploadDatabaseSnapshot(deps, 'file:///backups');
    expect(seen.snapshot?.chain).toEqual({
      l1ChainId: 31337,
      rollupVersion: 3,
      rollupAddress: `0x${'ab'.repeat(20)}`,
      schemaVersion: 1,
    });
    expect(seen.snapshot?.point).toEqual({
      blockNumber: 5,
      blockHash: hash(5),
      l1BlockNumber: '77',
      createdAt: '2025-11-26T05:00:00.123Z',
    });
    expect(seen.entries.map(([key]) => key)).toEqual([
      'block:000000000005',
      'meta:identity',
      'meta:l1Sync',
      'meta:tips',
    ]);
    expect(seen.entries.find(([key]) => key === 'meta:tips')?.[1]).toBe(toStoredJson(tipsAt(5)));
    expect(lines.map((line) => line.message)).toEqual([
      'snapshot upload started',
      'snapshot data file uploaded',
      'snapshot upload finished',
    ]);
    expect(lines.at(-1)?.fields).toMatchObject({ location: 'file:///backups', blockNumber: 5, durationMs: 0 });
  });

  test('a failed upload is logged with the reason and thrown', async () => {
    const storage = await storageWithChain();
    const lines: LogLine[] = [];
    const { port } = recordingPort(async () => undefined, new Error('store refused'));
    const deps = { storage, snapshots: port, clock: new ManualClock(), logger: capturingLogger((l) => lines.push(l)) };
    await expect(uploadDatabaseSnapshot(deps, 's3://b/p')).rejects.toThrow('store refused');
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: 'snapshot upload failed',
      fields: { location: 's3://b/p', error: 'store refused' },
    });
  });
});

describe('uploadDatabaseSnapshot metrics', () => {
  test('an upload reports its progress, then its outcome with its duration and size', async () => {
    const storage = await storageWithChain();
    const clock = new ManualClock();
    const metrics = createSimMetrics();
    const { port } = recordingPort(() => clock.advance(2_500));
    const deps = { storage, snapshots: port, clock, logger: capturingLogger(() => undefined), metrics: metrics.port };
    await uploadDatabaseSnapshot(deps, 'file:///backups');
    expect(metrics.reading()).toMatchObject({
      snapshotUploadStages: { uploaded: 1 },
      snapshotUploads: { succeeded: 1 },
    });
    const events: MetricsEvent[] = [];
    const failing = recordingPort(() => clock.advance(100), new Error('store refused')).port;
    const recording = { report: (event: MetricsEvent) => void events.push(event) };
    await expect(
      uploadDatabaseSnapshot({ ...deps, snapshots: failing, metrics: recording }, 'file:///backups'),
    ).rejects.toThrow('store refused');
    expect(events.at(-1)).toEqual({ kind: 'snapshotUploadFinished', outcome: 'failed', durationMs: 100 });
  });

  test('a successful upload reports the data file size it answered', async () => {
    const storage = await storageWithChain();
    const events: MetricsEvent[] = [];
    const { port } = recordingPort(async () => undefined);
    const deps = { storage, snapshots: port, clock: new ManualClock(), logger: capturingLogger(() => undefined) };
    await uploadDatabaseSnapshot({ ...deps, metrics: { report: (event) => void events.push(event) } }, '/b');
    expect(events.at(-1)).toEqual({
      kind: 'snapshotUploadFinished',
      outcome: 'succeeded',
      durationMs: 0,
      sizeBytes: 10,
    });
  });
});

describe('isoUtcTimestamp', () => {
  test("is Date's toISOString for every time from 1970 to 9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoUtcTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
    );
    expect(isoUtcTimestamp(951_782_400_000)).toBe('2000-02-29T00:00:00.000Z');
  });
});
