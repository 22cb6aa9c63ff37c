import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectFileStoreError } from '../../test/helpers/expectFileStoreError.js';
import { temporaryNameOf } from './boundedStreams.js';
import { createFileStore } from './fileStore.js';
import { LOCAL_STORE_STALE_TEMPORARY_MS } from './fileStoreLimits.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'local-file-store-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const storeAt = (path: string) => createFileStore(pathToFileURL(path).href);

describe('the file:// store', () => {
  it('keeps each object as a plain file at its path under the base directory, and nothing else', async () => {
    const store = storeAt(join(directory, 'base'));
    await store.write('svc-1/blobs/0x01.data', new Uint8Array([1, 2]));
    await store.write('svc-1/blobs/0x01.data', new Uint8Array([3]));
    const local = join(directory, 'upload.bin');
    await writeFile(local, 'snapshot');
    await store.uploadFile(local, 'svc-1/snapshots/1.bin');
    expect(await readFile(join(directory, 'base/svc-1/blobs/0x01.data'))).toEqual(Buffer.from([3]));
    expect((await readdir(join(directory, 'base'), { recursive: true })).sort()).toEqual([
      'svc-1',
      'svc-1/blobs',
      'svc-1/blobs/0x01.data',
      'svc-1/snapshots',
      'svc-1/snapshots/1.bin',
    ]);
  });

  it("removes a killed writer's stale temporary file at the next upload, and leaves a live one", async () => {
    const store = storeAt(join(directory, 'base'));
    const folder = join(directory, 'base/svc-1/snapshots');
    await mkdir(folder, { recursive: true });
    const stale = temporaryNameOf('1.bin');
    const live = temporaryNameOf('2.bin');
    await writeFile(join(folder, stale), 'half a snapshot');
    await writeFile(join(folder, live), 'a copy in progress');
    const old = new Date(Date.now() - LOCAL_STORE_STALE_TEMPORARY_MS - 60_000);
    await utimes(join(folder, stale), old, old);
    const local = join(directory, 'upload.bin');
    await writeFile(local, 'snapshot');
    await store.uploadFile(local, 'svc-1/snapshots/3.bin');
    expect((await readdir(folder)).sort()).toEqual([live, '3.bin'].sort());
  });

  it('is named by its URL, with the trailing slash or without', () => {
    expect(storeAt(join(directory, 'base')).name).toBe(pathToFileURL(join(directory, 'base')).href);
    expect(createFileStore(`${pathToFileURL(directory).href}/`).name).toBe(`${pathToFileURL(directory).href}/`);
  });

  it('refuses a file URL with a host, a query or a fragment', async () => {
    for (const url of ['file://server/share/blobs', 'file:///tmp/blobs?mode=x', 'file:///tmp/blobs#x']) {
      await expectFileStoreError(
        Promise.resolve().then(() => createFileStore(url)),
        'FILE_STORE_BAD_URL',
      );
    }
  });

  it('fails a write the disk refuses as FILE_STORE_FAILED, naming the store and the errno', async () => {
    await writeFile(join(directory, 'a-file'), 'not a directory');
    const store = storeAt(join(directory, 'a-file', 'base'));
    const error = await expectFileStoreError(store.write('x.data', new Uint8Array([1])), 'FILE_STORE_FAILED');
    expect(error.message).toContain(store.name);
    expect(error.message).toMatch(/ENOTDIR|EEXIST/);
    expect(await store.read('x.data')).toBeUndefined();
  });
});
