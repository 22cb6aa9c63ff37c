import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ClassicLevel } from 'classic-level';
import { afterAll, describe, expect, test } from 'vitest';
import { createLevelSnapshots } from './levelSnapshots.js';

const snapshots = createLevelSnapshots();
let root = '';
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function* entries(count: number): AsyncIterable<readonly [string, string]> {
  for (let i = 0; i < count; i++) yield [`key:${i.toString().padStart(6, '0')}`, `value ${i}`] as const;
}

describe('LevelDB snapshots', () => {
  test('only local directories are accepted, and the reason names the location', () => {
    expect(snapshots.locationProblem('/var/backups/node')).toBeUndefined();
    expect(snapshots.locationProblem('file:///var/backups/node')).toBeUndefined();
    expect(snapshots.locationProblem('s3://bucket/node')).toMatch(/"s3:\/\/bucket\/node" is a remote store/);
    expect(snapshots.locationProblem('relative/dir')).toMatch(/not an absolute path/);
  });

  test('a snapshot is a database of its own holding every entry; a non-empty directory is refused', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-snapshot-'));
    const target = path.join(root, 'snap');
    await snapshots.upload(pathToFileURL(target).href, entries(25_000));
    const copy = new ClassicLevel<string, string>(target, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
    const all = await copy.iterator().all();
    await copy.close();
    expect(all).toHaveLength(25_000);
    expect(all[24_999]).toEqual(['key:024999', 'value 24999']);
    await writeFile(path.join(root, 'marker'), 'x');
    await expect(snapshots.upload(root, entries(1))).rejects.toThrow(/is not empty/);
  });
});
