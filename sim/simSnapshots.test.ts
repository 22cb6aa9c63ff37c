import type { SnapshotUpload } from '../core/ports.js';
import { describe, expect, it } from 'vitest';
import { createScheduler } from './scheduler.js';
import { createNodeClock } from './simClock.js';
import {
  SIM_SNAPSHOT_ENTRIES_PER_SLEEP,
  SIM_SNAPSHOT_SLEEP_MS,
  SimSnapshots,
  simSnapshotChecksum,
} from './simSnapshots.js';
import { createSimStorage } from './simStorage.js';

const ENTRY_COUNT = 3 * SIM_SNAPSHOT_ENTRIES_PER_SLEEP + 7;

async function setUp() {
  const scheduler = createScheduler();
  const clock = createNodeClock(scheduler, { owner: 'node-a' });
  const storage = createSimStorage();
  await storage.batch(
    Array.from({ length: ENTRY_COUNT }, (_, i) => ({ type: 'put' as const, key: `k${i}`, value: `v${i}` })),
  );
  const store = new SimSnapshots(() => scheduler.now());
  const port = store.portFor('node-a', clock, storage, { checkpointedTip: () => '1@4' });
  const entries = async function* () {
    for await (const [key, value] of storage.iterator()) yield [String(key), value] as const;
  };
  return { scheduler, clock, store, port, entries, storage };
}

describe('sim snapshot store', () => {
  /** What the node hands an upload: the entries, and metadata the simulated store only echoes back. */
  const snapshotOf = (entries: AsyncIterable<readonly [string, string]>): SnapshotUpload => ({
    chain: { l1ChainId: 31337, rollupVersion: 1, rollupAddress: `0x${'01'.repeat(20)}`, schemaVersion: 1 },
    point: {
      blockNumber: 1,
      blockHash: `0x${'02'.repeat(32)}`,
      l1BlockNumber: '3',
      createdAt: '2026-11-26T00:00:00.000Z',
    },
    entries,
  });

  it('accepts sim://<name> locations only', async () => {
    const { port } = await setUp();
    expect(port.locationProblem('sim://team')).toBeUndefined();
    expect(port.locationProblem('file:///tmp/x')).toMatch(/sim:\/\//);
  });

  it('takes simulated time and lists a snapshot only once its data is complete', async () => {
    const { scheduler, store, port, entries } = await setUp();
    let done = false;
    void port.upload('sim://team', snapshotOf(entries())).then(() => (done = true));
    await scheduler.runUntil(scheduler.now() + SIM_SNAPSHOT_SLEEP_MS);
    expect(done).toBe(false);
    expect(store.index('sim://team')).toEqual([]);
    await scheduler.runUntilCondition(() => done, scheduler.now() + 10 * SIM_SNAPSHOT_SLEEP_MS);
    const [entry] = store.index('sim://team');
    expect(entry?.entryCount).toBe(ENTRY_COUNT);
    expect(entry?.checksum).toBe(simSnapshotChecksum(store.dataOf('sim://team', entry!.name)!));
    expect(store.uploads()[0]?.expected).toEqual({ entryCount: ENTRY_COUNT, checksum: entry?.checksum });
  });

  it('an upload whose node crashed (its clock halted) never completes', async () => {
    const { scheduler, clock, store, port, entries } = await setUp();
    void port.upload('sim://team', snapshotOf(entries()));
    await scheduler.runUntil(scheduler.now() + SIM_SNAPSHOT_SLEEP_MS);
    clock.halt();
    await scheduler.runUntil(scheduler.now() + 100 * SIM_SNAPSHOT_SLEEP_MS);
    expect(store.index('sim://team')).toEqual([]);
    expect(store.uploads()[0]?.completedAtMs).toBeUndefined();
    expect(store.dataOf('sim://team', store.uploads()[0]!.name)!.length).toBeLessThan(ENTRY_COUNT);
  });

  it("judges an upload against the node's own storage snapshot, not what was written after it", async () => {
    const { scheduler, store, port, storage } = await setUp();
    // As the node does: a storage snapshot first, then metadata reads while the pool writes, then the upload.
    const view = storage.snapshot();
    await storage.batch([
      { type: 'del', key: 'k0' },
      { type: 'put', key: 'later', value: 'x' },
    ]);
    const fromView = async function* () {
      for await (const [key, value] of storage.iterator({ snapshot: view })) yield [String(key), value] as const;
    };
    let done = false;
    void port.upload('sim://team', snapshotOf(fromView())).then(() => (done = true));
    await scheduler.runUntilCondition(() => done, scheduler.now() + 10 * SIM_SNAPSHOT_SLEEP_MS);
    await view.close();
    const [entry] = store.index('sim://team');
    expect(entry?.entryCount).toBe(ENTRY_COUNT);
    expect(store.uploads()[0]?.expected).toEqual({ entryCount: ENTRY_COUNT, checksum: entry?.checksum });
  });
});
