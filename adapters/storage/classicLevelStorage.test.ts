import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClassicLevel } from 'classic-level';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoragePort } from '../../core/ports.js';
import {
  assertDataDirectoryFree,
  NODE_DATABASE_DIRECTORY_NAME,
  openClassicLevelStorage,
} from './classicLevelStorage.js';
import { StorageError } from './storageError.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const adapterUrl = new URL('./classicLevelStorage.ts', import.meta.url).href;

let dataDirectory: string;
beforeEach(async () => {
  dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'classic-level-storage-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dataDirectory, { recursive: true, force: true });
});

/** Runs `body` in a child Node process that has opened the storage at `dataDirectory` as `storage`. */
function spawnWithStorage(body: string) {
  const script = `
    const { openClassicLevelStorage } = await import(${JSON.stringify(adapterUrl)});
    const storage = await openClassicLevelStorage(${JSON.stringify(dataDirectory)});
    ${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const printed = (line: string): Promise<void> =>
    new Promise((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.split('\n').includes(line)) resolve();
      });
      void exited.then(() => reject(new Error(`child exited before printing ${line}; it printed: ${output}`)));
    });
  return { child, exited, printed };
}

async function expectStorageError(
  opening: Promise<StoragePort | void>,
  code: StorageError['code'],
): Promise<StorageError> {
  const error = await opening.then(
    () => expect.fail('opening should have failed'),
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(StorageError);
  expect((error as StorageError).code).toBe(code);
  return error as StorageError;
}

describe('openClassicLevelStorage', () => {
  it('creates the data directory and the database directory inside it', async () => {
    const nested = path.join(dataDirectory, 'does', 'not', 'exist');
    const storage = await openClassicLevelStorage(nested);
    await storage.put('k', 'v');
    await storage.close();
    expect((await stat(path.join(nested, NODE_DATABASE_DIRECTORY_NAME))).isDirectory()).toBe(true);
  });

  it('refuses a second open of the same data directory in this process with STORAGE_LOCKED', async () => {
    const storage = await openClassicLevelStorage(dataDirectory);
    const error = await expectStorageError(openClassicLevelStorage(dataDirectory), 'STORAGE_LOCKED');
    expect(error.message).toContain(`data directory ${dataDirectory} is in use by another node`);
    expect(error.details.dataDirectory).toBe(dataDirectory);
    await storage.close();
  });

  it('tells a data directory in use from a free one without creating a database', async () => {
    const empty = path.join(dataDirectory, 'empty');
    await assertDataDirectoryFree(empty);
    await expect(stat(path.join(empty, NODE_DATABASE_DIRECTORY_NAME))).rejects.toMatchObject({ code: 'ENOENT' });
    const storage = await openClassicLevelStorage(dataDirectory);
    await expectStorageError(assertDataDirectoryFree(dataDirectory), 'STORAGE_LOCKED');
    await storage.close();
    await assertDataDirectoryFree(dataDirectory);
  });

  it('refuses a data directory that another process has open with STORAGE_LOCKED', async () => {
    const holder = spawnWithStorage(`console.log('open'); setInterval(() => {}, 1000);`);
    try {
      await holder.printed('open');
      const error = await expectStorageError(openClassicLevelStorage(dataDirectory), 'STORAGE_LOCKED');
      expect(error.message).toContain(`data directory ${dataDirectory} is in use by another node`);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exited;
    }
  });

  it('reports other failures as STORAGE_OPEN_FAILED with the cause', async () => {
    const notADirectory = path.join(dataDirectory, 'file');
    await writeFile(notADirectory, 'not a directory');
    const error = await expectStorageError(openClassicLevelStorage(notADirectory), 'STORAGE_OPEN_FAILED');
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toContain(path.join(notADirectory, NODE_DATABASE_DIRECTORY_NAME));
  });
});

describe('durability', () => {
  type WriteMethod = (...args: unknown[]) => Promise<void>;
  const classicLevelWrites = ClassicLevel.prototype as unknown as Record<'_put' | '_del' | '_batch', WriteMethod>;
  const optionsOf = (calls: unknown[][], optionsIndex: number) => calls.map((call) => call[optionsIndex]);

  it('writes with sync: true unless the caller says otherwise', async () => {
    const putSpy = vi.spyOn(classicLevelWrites, '_put');
    const delSpy = vi.spyOn(classicLevelWrites, '_del');
    const batchSpy = vi.spyOn(classicLevelWrites, '_batch');
    const storage = await openClassicLevelStorage(dataDirectory);
    const blocks = storage.sublevel('blocks');

    await storage.put('a', '1');
    await storage.del('a');
    await storage.batch([{ type: 'put', key: 'b', value: '2' }]);
    await storage.batch().put('c', '3').write();
    await blocks.batch([{ type: 'put', key: 'd', value: '4' }]);
    await blocks.batch().put('e', '5').write();
    await blocks.put('f', '6');
    await storage.batch([{ type: 'put', key: 'g', value: '7' }], { sync: false } as never);

    expect(optionsOf(putSpy.mock.calls, 2)).toEqual([
      expect.objectContaining({ sync: true }),
      expect.objectContaining({ sync: true }),
    ]);
    expect(optionsOf(delSpy.mock.calls, 1)).toEqual([expect.objectContaining({ sync: true })]);
    expect(optionsOf(batchSpy.mock.calls, 1)).toEqual([
      ...Array.from({ length: 4 }, () => expect.objectContaining({ sync: true })),
      expect.objectContaining({ sync: false }),
    ]);
    expect(await storage.keys().all()).toEqual(['!blocks!d', '!blocks!e', '!blocks!f', 'b', 'c', 'g']);
    await storage.close();
  });

  it('clears more keys than one delete batch holds, the empty key included, with synced batches', async () => {
    const storage = await openClassicLevelStorage(dataDirectory);
    const keys = ['', ...Array.from({ length: 2_500 }, (_, index) => `key:${String(index).padStart(6, '0')}`)];
    await storage.batch(keys.map((key) => ({ type: 'put' as const, key, value: 'v' })));
    const batchSpy = vi.spyOn(classicLevelWrites, '_batch');
    await storage.clear({ gte: '', lt: 'key:002000' });
    expect(await storage.keys().all()).toEqual(keys.slice(2_001));
    expect(batchSpy.mock.calls.map((call) => (call[0] as unknown[]).length)).toEqual([1_000, 1_000, 1]);
    expect(optionsOf(batchSpy.mock.calls, 1)).toEqual(Array.from({ length: 3 }, () => ({ sync: true })));
    await storage.close();
  });

  it('keeps a committed batch and nothing of the next when the process is killed between them', async () => {
    const writer = spawnWithStorage(`
      await storage.batch([
        { type: 'put', key: 'block:000000000001', value: 'one' },
        { type: 'put', key: 'meta:tips', value: '000000000001' },
      ]);
      const next = storage.batch().put('block:000000000002', 'two').put('meta:tips', '000000000002');
      console.log('committed');
      setTimeout(() => next.write(), 60_000);`);
    await writer.printed('committed');
    writer.child.kill('SIGKILL');
    expect(await writer.exited).toEqual([null, 'SIGKILL']);

    const storage = await openClassicLevelStorage(dataDirectory);
    expect(await storage.iterator().all()).toEqual([
      ['block:000000000001', 'one'],
      ['meta:tips', '000000000001'],
    ]);
    await storage.close();
  });
});
