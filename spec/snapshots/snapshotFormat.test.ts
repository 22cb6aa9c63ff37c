import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeSnapshotEntry,
  EMPTY_SNAPSHOT_INDEX,
  encodeSnapshotEntry,
  isSnapshotKey,
  newestUsableSnapshot,
  NODE_DATABASE_SCHEMA_VERSION,
  parseSnapshotIndex,
  SNAPSHOT_INDEX_ENTRIES_MAX,
  snapshotDataFileName,
  snapshotFolder,
  snapshotMismatch,
  withSnapshot,
  type SnapshotIndexEntry,
} from './snapshotFormat.js';

const chain = {
  l1ChainId: 31337,
  rollupVersion: 1,
  rollupAddress: `0x${'ab'.repeat(20)}`,
  schemaVersion: NODE_DATABASE_SCHEMA_VERSION,
};

function entry(blockNumber: number, l1BlockNumber: number, overrides: Partial<SnapshotIndexEntry> = {}) {
  const point = {
    blockNumber,
    blockHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
    l1BlockNumber: String(l1BlockNumber),
    createdAt: new Date(1_800_000_000_000 + blockNumber * 1000).toISOString(),
  };
  return {
    ...chain,
    ...point,
    // A data file per (L2 block, L1 block): the same block snapshotted at two L1 heights is two files.
    dataFile: `${l1BlockNumber}-${snapshotDataFileName(point)}`,
    sha256: `0x${'11'.repeat(32)}`,
    sizeBytes: 10,
    entries: 1,
    ...overrides,
  } satisfies SnapshotIndexEntry;
}

describe('snapshot format', () => {
  it('property: an entry line decodes to the key and value it encodes', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (key, value) => {
        const line = encodeSnapshotEntry(key, value);
        expect(line).not.toContain('\n');
        expect(decodeSnapshotEntry(line)).toEqual([key, value]);
      }),
    );
    for (const bad of ['[]', '["a"]', '["a", 1]', '{"a": "b"}', '["a", "b", "c"]'])
      expect(() => decodeSnapshotEntry(bad)).toThrow();
  });

  it('property: adding snapshots keeps the index valid, sorted oldest first, bounded, newest kept', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(10_000), fc.nat(100_000)), { maxLength: 80 }), (points) => {
        let index = EMPTY_SNAPSHOT_INDEX;
        for (const [block, l1] of points) index = withSnapshot(index, entry(block, l1));
        expect(parseSnapshotIndex(JSON.stringify(index))).toEqual(index);
        expect(index.snapshots.length).toBeLessThanOrEqual(SNAPSHOT_INDEX_ENTRIES_MAX);
        const l1s = index.snapshots.map((s) => Number(s.l1BlockNumber));
        expect(l1s).toEqual([...l1s].sort((a, b) => a - b));
        if (points.length > 0) {
          const maxL1 = Math.max(...points.map(([, l1]) => l1));
          expect(newestUsableSnapshot(index, chain)?.l1BlockNumber).toBe(String(maxL1));
        }
      }),
    );
  });

  it('says why a snapshot of another chain, rollup or schema cannot be used, and skips it', () => {
    expect(snapshotMismatch(entry(1, 1), chain)).toBeUndefined();
    expect(snapshotMismatch(entry(1, 1, { l1ChainId: 1 }), chain)).toMatch(/L1 chain 1/);
    expect(snapshotMismatch(entry(1, 1, { rollupAddress: `0x${'cd'.repeat(20)}` }), chain)).toMatch(/rollup 0xcdcd/);
    expect(snapshotMismatch(entry(1, 1, { rollupVersion: 9 }), chain)).toMatch(/rollup version 9/);
    expect(snapshotMismatch(entry(1, 1, { schemaVersion: 99 }), chain)).toMatch(/schema is version 99/);
    const index = withSnapshot(withSnapshot(EMPTY_SNAPSHOT_INDEX, entry(5, 50)), entry(9, 90, { schemaVersion: 99 }));
    expect(newestUsableSnapshot(index, chain)?.blockNumber).toBe(5);
  });

  it('refuses an index with a path in a file name, bad hex or an unknown format', () => {
    const good = withSnapshot(EMPTY_SNAPSHOT_INDEX, entry(1, 1));
    const text = (change: (s: SnapshotIndexEntry) => object) =>
      JSON.stringify({ ...good, snapshots: [change(good.snapshots[0]!)] });
    expect(() => parseSnapshotIndex(text((s) => ({ ...s, dataFile: '../x' })))).toThrow();
    expect(() => parseSnapshotIndex(text((s) => ({ ...s, sha256: '0x12' })))).toThrow();
    expect(() => parseSnapshotIndex(JSON.stringify({ ...good, format: 'other' }))).toThrow();
    expect(() => parseSnapshotIndex('not json')).toThrow();
  });

  it('names folders by chain and rollup, and leaves the pool and validator records out', () => {
    expect(snapshotFolder(chain)).toBe(`svc-31337-1-0x${'ab'.repeat(20)}/snapshots`);
    expect(snapshotDataFileName(entry(7, 1))).toMatch(/^000000000007-\d{14}-0{16}\.snapshot\.gz$/);
    expect(isSnapshotKey('ws:page:1')).toBe(true);
    expect(isSnapshotKey('txPool:tx:0x01')).toBe(false);
    expect(isSnapshotKey('validators:offense:1')).toBe(false);
  });
});
