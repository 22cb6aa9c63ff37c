import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toStoredJson } from '../../core/chain/serde.js';
import { snapshotFolder } from '../../spec/snapshots/snapshotFormat.js';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server.js';
import {
  FIXTURE_CHAIN,
  readDatabaseEntries,
  writeDatabase,
  writeSnapshotFixture,
  type SnapshotEntries,
} from '../../test/helpers/snapshotFixtures.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { createFileStore, type FileStore } from '../fileStore/fileStore.js';
import { SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX, syncFromSnapshot, type SnapshotSyncOptions } from './snapshotSync.js';

const ENTRIES: SnapshotEntries = [
  ['block:000000000001', '{"n":1}'],
  ['block:000000000002', '{"n":2}'],
  ['meta:l1Sync', toStoredJson({ blockNumber: 100n, blockHash: `0x${'11'.repeat(32)}`, timestamp: 5n })],
  ['meta:tips', '{"proposed":2}'],
  ['ws:page:é', 'ünïcode ✓'],
];
/** What a node already had before a snapshot: synced to L1 block 200. */
const LOCAL_ENTRIES: SnapshotEntries = [
  ['block:000000000001', '{"local":true}'],
  ['meta:l1Sync', toStoredJson({ blockNumber: 200n, blockHash: `0x${'22'.repeat(32)}`, timestamp: 9n })],
];

let root: string;
let dataDirectory: string;
let storeUrl: string;
let store: FileStore;
let lines: LogLine[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'snapshot-sync-'));
  dataDirectory = join(root, 'data');
  storeUrl = pathToFileURL(join(root, 'store')).href;
  store = createFileStore(storeUrl);
  lines = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const nodeDb = () => join(dataDirectory, 'node-db');

function sync(overrides: Partial<SnapshotSyncOptions> = {}) {
  return syncFromSnapshot({
    dataDirectory,
    mode: 'snapshot',
    urls: [storeUrl],
    chain: FIXTURE_CHAIN,
    logger: capturingLogger((line) => lines.push(line)),
    ...overrides,
  });
}

async function leftoverDownloads(): Promise<string[]> {
  return (await readdir(dataDirectory)).filter((name) => name.startsWith(SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX));
}

async function nodeDbNames(): Promise<string[] | undefined> {
  return readdir(nodeDb()).catch(() => undefined);
}

const logged = () => lines.map((line) => line.message).join('\n');

describe('installing a snapshot', () => {
  it('installs the snapshot of a new node: its database then holds exactly the snapshot entries', async () => {
    const entry = await writeSnapshotFixture(store, { entries: ENTRIES });
    const result = await sync();
    expect(result).toEqual({ outcome: 'installed', store: store.name, snapshot: entry });
    expect(await readDatabaseEntries(nodeDb())).toEqual(ENTRIES);
    expect(await leftoverDownloads()).toEqual([]);
  });

  it('installs over an empty node-db directory', async () => {
    await writeSnapshotFixture(store, { entries: ENTRIES });
    await mkdir(nodeDb(), { recursive: true });
    expect((await sync()).outcome).toBe('installed');
    expect(await readDatabaseEntries(nodeDb())).toEqual(ENTRIES);
  });

  it('picks the newest snapshot across every store', async () => {
    await writeSnapshotFixture(store, { entries: ENTRIES, point: { l1BlockNumber: '100', blockNumber: 10 } });
    const otherUrl = pathToFileURL(join(root, 'other-store')).href;
    const newer: SnapshotEntries = [['block:000000000009', 'newer']];
    const newest = await writeSnapshotFixture(createFileStore(otherUrl), {
      entries: newer,
      point: { l1BlockNumber: '150', blockNumber: 9 },
    });
    await writeSnapshotFixture(store, { entries: ENTRIES, point: { l1BlockNumber: '120', blockNumber: 12 } });
    const result = await sync({ urls: [storeUrl, otherUrl] });
    expect(result).toMatchObject({ outcome: 'installed', snapshot: newest });
    expect(await readDatabaseEntries(nodeDb())).toEqual(newer);
  });

  it('force-snapshot replaces older local data and removes it', async () => {
    await writeDatabase(nodeDb(), LOCAL_ENTRIES);
    await writeSnapshotFixture(store, { entries: ENTRIES, point: { l1BlockNumber: '300' } });
    expect((await sync({ mode: 'force-snapshot' })).outcome).toBe('installed');
    expect(await readDatabaseEntries(nodeDb())).toEqual(ENTRIES);
    expect(await leftoverDownloads()).toEqual([]);
  });

  it('reads the next store when one is down or its index does not parse', async () => {
    await writeSnapshotFixture(store, { entries: ENTRIES });
    const broken = createFileStore(pathToFileURL(join(root, 'broken')).href);
    await broken.write(`${snapshotFolder(FIXTURE_CHAIN)}/index.json`, Buffer.from('{ not json'));
    const urls = ['http://user:hunter2@127.0.0.1:1/snapshots', pathToFileURL(join(root, 'broken')).href, storeUrl];
    expect((await sync({ urls })).outcome).toBe('installed');
    expect(logged()).toMatch(/skipping snapshot store http:\/\/127\.0\.0\.1:1\/snapshots/);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    expect(logged()).toMatch(/index is unparsable/);
  });

  it('removes download directories left by a crash, putting back a database moved aside', async () => {
    const leftover = join(dataDirectory, `${SNAPSHOT_DOWNLOAD_DIRECTORY_PREFIX}crashed`);
    await writeDatabase(join(leftover, 'previous-node-db'), LOCAL_ENTRIES);
    await writeFile(join(leftover, 'snapshot.gz'), 'partial');
    const result = await sync({ mode: 'full' });
    expect(result.outcome).toBe('skipped');
    expect(await leftoverDownloads()).toEqual([]);
    expect(await readDatabaseEntries(nodeDb())).toEqual(LOCAL_ENTRIES);
  });
});

describe('doing nothing', () => {
  it('full mode does nothing', async () => {
    await writeSnapshotFixture(store, { entries: ENTRIES });
    expect(await sync({ mode: 'full' })).toMatchObject({ outcome: 'skipped' });
    expect(await nodeDbNames()).toBeUndefined();
  });

  it('no store configured does nothing', async () => {
    expect(await sync({ urls: [] })).toMatchObject({ outcome: 'skipped' });
    expect(await nodeDbNames()).toBeUndefined();
  });

  it('snapshot mode leaves a node with data alone', async () => {
    await writeDatabase(nodeDb(), LOCAL_ENTRIES);
    await writeSnapshotFixture(store, { entries: ENTRIES, point: { l1BlockNumber: '300' } });
    expect(await sync()).toMatchObject({ outcome: 'skipped' });
    expect(await readDatabaseEntries(nodeDb())).toEqual(LOCAL_ENTRIES);
  });
});

describe('refusals leave node-db as it was and no temporary directory', () => {
  const flipLastByte = (gzip: Buffer) => Buffer.concat([gzip.subarray(0, -1), Buffer.from([gzip.at(-1)! ^ 0xff])]);
  const flipMiddleByte = (gzip: Buffer) => {
    const copy = Buffer.from(gzip);
    const middle = copy.length >> 1;
    copy[middle] = copy[middle]! ^ 0xff;
    return copy;
  };
  const cut = (gzip: Buffer) => gzip.subarray(0, gzip.length - 20);
  const cases = [
    { name: 'bad checksum', fixture: { corruptAfterIndexing: flipLastByte }, code: 'SNAPSHOT_BAD_CHECKSUM' },
    { name: 'truncated download', fixture: { corruptAfterIndexing: cut }, code: 'SNAPSHOT_TRUNCATED' },
    { name: 'truncated gzip, indexed as such', fixture: { corruptBeforeIndexing: cut }, code: 'SNAPSHOT_TRUNCATED' },
    {
      name: 'corrupted gzip, indexed as such',
      fixture: { corruptBeforeIndexing: flipMiddleByte },
      code: 'SNAPSHOT_MALFORMED',
    },
    { name: 'header of another chain', fixture: { header: { l1ChainId: 1 } }, code: 'SNAPSHOT_MALFORMED' },
    {
      name: 'entry count differs',
      fixture: { indexEntry: { entries: ENTRIES.length + 1 } },
      code: 'SNAPSHOT_MALFORMED',
    },
    {
      name: 'keys out of order',
      fixture: { entries: [ENTRIES[1]!, ENTRIES[0]!] },
      code: 'SNAPSHOT_MALFORMED',
    },
    {
      name: 'an excluded key',
      fixture: { entries: [['txPool:tx:1', 'x']] as SnapshotEntries },
      code: 'SNAPSHOT_MALFORMED',
    },
  ] as const;

  for (const { name, fixture, code } of cases) {
    it(`${name}: ${code}`, async () => {
      await writeSnapshotFixture(store, { entries: ENTRIES, ...fixture });
      const result = await sync();
      expect(result).toMatchObject({ outcome: 'refused', code });
      expect(await nodeDbNames()).toBeUndefined();
      expect(await leftoverDownloads()).toEqual([]);
      expect(logged()).toMatch(/refused snapshot: .*; syncing from L1 instead/);
    });
  }

  it('a data file missing from the store: SNAPSHOT_DOWNLOAD_FAILED', async () => {
    const entry = await writeSnapshotFixture(store, { entries: ENTRIES });
    await store.delete(`${snapshotFolder(FIXTURE_CHAIN)}/${entry.dataFile}`);
    expect(await sync()).toMatchObject({ outcome: 'refused', code: 'SNAPSHOT_DOWNLOAD_FAILED' });
    expect(await nodeDbNames()).toBeUndefined();
    expect(await leftoverDownloads()).toEqual([]);
  });

  it('an undecodable line: SNAPSHOT_MALFORMED', async () => {
    await writeSnapshotFixture(store, { entries: [['a', 'b']], entryLines: ['[1,2]'] });
    expect(await sync()).toMatchObject({ outcome: 'refused', code: 'SNAPSHOT_MALFORMED' });
    expect(logged()).toMatch(/entry 0 does not decode/);
    expect(await nodeDbNames()).toBeUndefined();
  });

  const foreign = [
    { name: 'another chain', chain: { ...FIXTURE_CHAIN, l1ChainId: 1 } },
    { name: 'another rollup', chain: { ...FIXTURE_CHAIN, rollupAddress: `0x${'ee'.repeat(20)}` } },
    { name: 'another database schema', chain: { ...FIXTURE_CHAIN, schemaVersion: FIXTURE_CHAIN.schemaVersion + 1 } },
  ];
  for (const { name, chain } of foreign) {
    it(`a snapshot of ${name} is skipped, saying why`, async () => {
      await writeSnapshotFixture(store, { entries: ENTRIES, chain, folderOf: FIXTURE_CHAIN });
      expect(await sync()).toMatchObject({ outcome: 'skipped' });
      expect(logged()).toContain(`: ${name} (`);
      expect(await nodeDbNames()).toBeUndefined();
      expect(await leftoverDownloads()).toEqual([]);
    });
  }

  it('force-snapshot refuses a snapshot older than the local data', async () => {
    await writeDatabase(nodeDb(), LOCAL_ENTRIES);
    await writeSnapshotFixture(store, { entries: ENTRIES, point: { l1BlockNumber: '150' } });
    const result = await sync({ mode: 'force-snapshot' });
    expect(result).toMatchObject({ outcome: 'refused', code: 'SNAPSHOT_OLDER_THAN_LOCAL' });
    expect(logged()).toMatch(/older than this node's data/);
    expect(await readDatabaseEntries(nodeDb())).toEqual(LOCAL_ENTRIES);
    expect(await leftoverDownloads()).toEqual([]);
  });

  it('an index that does not parse is skipped', async () => {
    await store.write(`${snapshotFolder(FIXTURE_CHAIN)}/index.json`, Buffer.from('{"format":"svc-snapshot-index"}'));
    expect(await sync()).toMatchObject({ outcome: 'skipped' });
    expect(logged()).toMatch(/index is unparsable/);
    expect(await nodeDbNames()).toBeUndefined();
  });
});

describe('on an S3-compatible store', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.stop();
  });

  it('installs a snapshot, and refuses a corrupted one', async () => {
    const url = `${await s3.bucket('snapshots')}`;
    const bucket = createFileStore(url, { s3Credentials: s3.credentials });
    await writeSnapshotFixture(bucket, { entries: ENTRIES });
    const options = { urls: [url], fileStoreOptions: { s3Credentials: s3.credentials } };
    expect((await sync(options)).outcome).toBe('installed');
    expect(await readDatabaseEntries(nodeDb())).toEqual(ENTRIES);
    expect(logged()).not.toContain('S3RVER');

    await rm(nodeDb(), { recursive: true });
    const corruptUrl = `${await s3.bucket('corrupt')}`;
    await writeSnapshotFixture(createFileStore(corruptUrl, { s3Credentials: s3.credentials }), {
      entries: ENTRIES,
      corruptAfterIndexing: (gzip) => Buffer.concat([gzip.subarray(0, -1), Buffer.from([gzip.at(-1)! ^ 1])]),
    });
    const result = await sync({ ...options, urls: [corruptUrl] });
    expect(result).toMatchObject({ outcome: 'refused', code: 'SNAPSHOT_BAD_CHECKSUM' });
    expect(await nodeDbNames()).toBeUndefined();
    expect(await leftoverDownloads()).toEqual([]);
  });
});
