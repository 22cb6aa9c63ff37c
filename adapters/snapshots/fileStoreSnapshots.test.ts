import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotUpload, SnapshotUploadProgress } from '../../core/ports.js';
import {
  parseSnapshotIndex,
  snapshotFolder,
  snapshotHeaderSchema,
  type SnapshotChain,
  type SnapshotPoint,
} from '../../spec/snapshots/snapshotFormat.js';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server.js';
import { createFileStore } from '../fileStore/fileStore.js';
import { createFileStoreSnapshots, SNAPSHOT_WORK_DIRECTORY } from './fileStoreSnapshots.js';

const chain: SnapshotChain = {
  l1ChainId: 31337,
  rollupVersion: 1,
  rollupAddress: `0x${'ab'.repeat(20)}`,
  schemaVersion: 1,
};
const pointAt = (blockNumber: number, l1BlockNumber: string): SnapshotPoint => ({
  blockNumber,
  blockHash: `0x${blockNumber.toString(16).padStart(64, '0')}`,
  l1BlockNumber,
  createdAt: '2026-11-26T05:00:00.000Z',
});
const folder = snapshotFolder(chain);

async function* entries(count: number, failAt?: number): AsyncIterable<readonly [string, string]> {
  for (let i = 0; i < count; i++) {
    if (i === failAt) throw new Error('the database iterator failed');
    yield [`key:${i.toString().padStart(6, '0')}`, `value ${i}`] as const;
  }
}

const upload = (point: SnapshotPoint, count: number, failAt?: number): SnapshotUpload => ({
  chain,
  point,
  entries: entries(count, failAt),
});

let root = '';
let s3: S3Server;
let temporaryDirectory = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'svc-snapshots-test-'));
  temporaryDirectory = path.join(root, 'tmp');
  await mkdir(temporaryDirectory);
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('locations', () => {
  const snapshots = createFileStoreSnapshots();
  it('accepts file://, plain absolute paths and s3://; refuses http(s), other schemes and bad URLs, no secret shown', () => {
    expect(snapshots.locationProblem('file:///var/backups/node')).toBeUndefined();
    expect(snapshots.locationProblem('/var/backups/node')).toBeUndefined();
    expect(snapshots.locationProblem('s3://bucket/node?endpoint=http://127.0.0.1:9000')).toBeUndefined();
    expect(snapshots.locationProblem('https://example.com/snapshots')).toMatch(/read-only/);
    expect(snapshots.locationProblem('http://example.com/snapshots')).toMatch(/read-only/);
    expect(snapshots.locationProblem('gs://bucket/node')).toMatch(/scheme gs:/);
    expect(snapshots.locationProblem('relative/dir')).toMatch(/not a URL/);
    const withSecret = snapshots.locationProblem('s3://KEY:hunter2@bucket/node');
    expect(withSecret).toMatch(/credentials do not go in the URL/);
    expect(withSecret).not.toContain('hunter2');
  });
});

describe.each([
  ['a file:// directory', async () => pathToFileURL(path.join(root, 'store')).href],
  ['an s3:// bucket (s3rver)', async () => `${await s3.bucket('snapshots')}`],
])('uploads to %s', (_name, makeLocation) => {
  const snapshots = () =>
    createFileStoreSnapshots({ fileStore: { s3Credentials: s3.credentials }, temporaryDirectory });
  let location = '';
  const readIndex = async () => {
    const bytes = await createFileStore(location, { s3Credentials: s3.credentials }).read(`${folder}/index.json`);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  };

  it('writes a data file of the header and the entries in order, and an index that lists it', async () => {
    location = await makeLocation();
    const progress: SnapshotUploadProgress[] = [];
    const entry = await snapshots().upload(location, upload(pointAt(7, '100'), 210_000), (p) => progress.push(p));
    const store = createFileStore(location, { s3Credentials: s3.credentials });
    const data = (await store.read(`${folder}/${entry.dataFile}`, { maxBytes: 64 * 1024 * 1024 }))!;
    expect(entry).toMatchObject({ ...chain, ...pointAt(7, '100'), entries: 210_000, sizeBytes: data.length });
    expect(entry.sha256).toBe(`0x${createHash('sha256').update(data).digest('hex')}`);
    const lines = gunzipSync(data).toString('utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(snapshotHeaderSchema.parse(JSON.parse(lines[0]!))).toMatchObject({ ...chain, blockNumber: 7 });
    expect(lines.slice(1, 4)).toEqual([
      '["key:000000","value 0"]',
      '["key:000001","value 1"]',
      '["key:000002","value 2"]',
    ]);
    expect(lines).toHaveLength(210_002);
    expect(parseSnapshotIndex((await readIndex())!).snapshots).toEqual([entry]);
    expect(progress.map((p) => p.stage)).toEqual(['writing', 'writing', 'written', 'uploaded', 'indexed']);
    expect(await readdir(temporaryDirectory)).toEqual([]);
  });

  it('adds a second upload to the index, oldest first', async () => {
    const first = parseSnapshotIndex((await readIndex())!).snapshots[0]!;
    const second = await snapshots().upload(location, upload(pointAt(9, '120'), 10));
    expect(parseSnapshotIndex((await readIndex())!).snapshots).toEqual([first, second]);
  });

  it('leaves the index as it was and no temporary file when the entries fail midway', async () => {
    const before = await readIndex();
    await expect(snapshots().upload(location, upload(pointAt(11, '130'), 1000, 500))).rejects.toThrow(
      /database iterator failed/,
    );
    expect(await readIndex()).toBe(before);
    expect(await readdir(temporaryDirectory)).toEqual([]);
  });

  it('in a directory it owns, removes what a killed upload left before writing', async () => {
    const owned = path.join(root, `owned-${Math.random().toString(16).slice(2)}`);
    await mkdir(path.join(owned, SNAPSHOT_WORK_DIRECTORY), { recursive: true });
    await writeFile(path.join(owned, SNAPSHOT_WORK_DIRECTORY, 'left-by-a-crash.snapshot.gz'), 'partial');
    const ownedSnapshots = createFileStoreSnapshots({
      fileStore: { s3Credentials: s3.credentials },
      temporaryDirectory: owned,
    });
    await ownedSnapshots.upload(location, upload(pointAt(10, '125'), 10));
    expect(await readdir(owned)).toEqual([]);
  });

  it('refuses to replace a listed data file (same block, same second), before writing anything', async () => {
    const listed = parseSnapshotIndex((await readIndex())!).snapshots[0]!;
    const before = await readIndex();
    const sameSecond = { ...pointAt(listed.blockNumber, listed.l1BlockNumber), createdAt: '2026-11-26T05:00:00.999Z' };
    await expect(snapshots().upload(location, upload(sameSecond, 10))).rejects.toMatchObject({
      code: 'FILE_STORE_FAILED',
      message: expect.stringMatching(/is already listed/),
    });
    expect(await readIndex()).toBe(before);
    const store = createFileStore(location, { s3Credentials: s3.credentials });
    const data = await store.read(`${folder}/${listed.dataFile}`);
    expect(`0x${createHash('sha256').update(data!).digest('hex')}`).toBe(listed.sha256);
  });

  it('refuses metadata readers would refuse, before writing anything', async () => {
    const before = await readIndex();
    const badPoint = { ...pointAt(13, '150'), blockHash: `0x${'AB'.repeat(32)}` };
    await expect(snapshots().upload(location, upload(badPoint, 10))).rejects.toThrow(/lowercase 0x hex/);
    expect(await readIndex()).toBe(before);
  });

  it('refuses to overwrite an index it cannot parse', async () => {
    const store = createFileStore(location, { s3Credentials: s3.credentials });
    await store.write(`${folder}/index.json`, new TextEncoder().encode('{"not": "an index"'));
    await expect(snapshots().upload(location, upload(pointAt(12, '140'), 10))).rejects.toMatchObject({
      code: 'FILE_STORE_FAILED',
      message: expect.stringMatching(/is not a snapshot index.*left as it is/),
    });
    expect(await readIndex()).toBe('{"not": "an index"');
    expect(await readdir(temporaryDirectory)).toEqual([]);
  });
});
