/**
 * The file stores' contract: what the blob and snapshot code may rely on from any store (adapters/fileStore/). Run by
 * fileStore.test.ts against the local directory and an S3-compatible server, and, read side only, against http
 * servers, so every adapter provably behaves the same.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStore, ReadOnlyFileStore } from '../../adapters/fileStore/fileStore.js';
import { expectFileStoreError } from '../helpers/expectFileStoreError.js';

export interface ReadOnlyFileStoreHarness {
  readonly store: ReadOnlyFileStore;
  /** Puts an object where `store` reads it, through a writable way into the same place. */
  seed(path: string, data: Uint8Array): Promise<void>;
  /** Removes what the harness created. */
  cleanup(): Promise<void>;
}

/** What a store behind a harness guarantees beyond the adapter: a test server may promise less than the service. */
export interface FileStoreGuarantees {
  /**
   * Two racing writes of one object leave one of them whole. True of a local directory (temp file and rename) and of
   * S3 itself; s3rver writes each PUT into the object's file in place, so racing PUTs interleave there.
   */
  readonly racingWritesLeaveOneWhole: boolean;
}

export interface FileStoreHarness {
  /** An empty store. */
  readonly store: FileStore;
  cleanup(): Promise<void>;
}

/** A blob file's path as the node names them: a chain-specific prefix, then the blob's versioned hash. */
const BLOB_PATH = 'svc-1-7-0xabc/blobs/0x01a2b3c4d5e6f708.data';
/** Big enough to span many network reads and filesystem chunks. */
const LARGE_OBJECT_BYTES = 5 * 1024 * 1024 + 17;
const BAD_PATHS = ['', '/etc/passwd', '../outside', 'a/../../outside', 'a/./b', 'a//b', 'a/', '..', 'a\\b', 'a\u0000b'];

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

export function describeFileStorePort(
  name: string,
  makeHarness: () => Promise<FileStoreHarness>,
  guarantees: FileStoreGuarantees = { racingWritesLeaveOneWhole: true },
): void {
  describe(`FileStore contract: ${name}`, () => {
    let harness: FileStoreHarness;
    let scratch: string;
    beforeEach(async () => {
      harness = await makeHarness();
      scratch = await mkdtemp(join(tmpdir(), 'file-store-scratch-'));
    });
    afterEach(async () => {
      await harness.cleanup();
      await rm(scratch, { recursive: true, force: true });
    });

    const readSide = (): ReadOnlyFileStoreHarness => ({
      store: harness.store,
      seed: (path, data) => harness.store.write(path, data),
      cleanup: async () => undefined,
    });
    describeReads(readSide, () => scratch);
    describeWrites(
      () => harness.store,
      () => scratch,
      guarantees,
    );
  });
}

export function describeReadOnlyFileStorePort(
  name: string,
  makeHarness: () => Promise<ReadOnlyFileStoreHarness>,
): void {
  describe(`ReadOnlyFileStore contract: ${name}`, () => {
    let harness: ReadOnlyFileStoreHarness;
    let scratch: string;
    beforeEach(async () => {
      harness = await makeHarness();
      scratch = await mkdtemp(join(tmpdir(), 'file-store-scratch-'));
    });
    afterEach(async () => {
      await harness.cleanup();
      await rm(scratch, { recursive: true, force: true });
    });
    describeReads(
      () => harness,
      () => scratch,
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------

function describeReads(current: () => ReadOnlyFileStoreHarness, scratch: () => string): void {
  describe('read, exists, downloadToFile', () => {
    it('reads back the bytes of an object under a nested path', async () => {
      const { store, seed } = current();
      await seed(BLOB_PATH, bytes(1, 2, 3, 0, 255));
      expect(await store.read(BLOB_PATH)).toEqual(bytes(1, 2, 3, 0, 255));
      expect(await store.exists(BLOB_PATH)).toBe(true);
    });

    it('reads an empty object as zero bytes, which is not a missing one', async () => {
      const { store, seed } = current();
      await seed('empty.data', bytes());
      expect(await store.read('empty.data')).toEqual(bytes());
      expect(await store.exists('empty.data')).toBe(true);
    });

    it('answers undefined and false for a missing object, and leaves the local file alone', async () => {
      const { store, seed } = current();
      await seed('present/a.data', bytes(1));
      const localFile = join(scratch(), 'kept.data');
      await writeFile(localFile, 'before');
      expect(await store.read('present/missing.data')).toBeUndefined();
      expect(await store.read('absent-directory/a.data')).toBeUndefined();
      expect(await store.exists('present/missing.data')).toBe(false);
      expect(await store.downloadToFile('present/missing.data', localFile)).toBe(false);
      expect(await readFile(localFile, 'utf8')).toBe('before');
    });

    it('does not take a directory of objects for an object', async () => {
      const { store, seed } = current();
      await seed('directory/inside.data', bytes(1));
      expect(await store.read('directory')).toBeUndefined();
      expect(await store.exists('directory')).toBe(false);
    });

    it('downloads a large object into a local file, byte for byte, creating its directory', async () => {
      const { store, seed } = current();
      const data = randomBytes(LARGE_OBJECT_BYTES);
      await seed('snapshots/large.bin', data);
      const localFile = join(scratch(), 'nested', 'large.bin');
      expect(await store.downloadToFile('snapshots/large.bin', localFile)).toBe(true);
      expect(sha256(await readFile(localFile))).toBe(sha256(data));
      expect(sha256((await store.read('snapshots/large.bin'))!)).toBe(sha256(data));
    });

    it('refuses an object over maxBytes, and reads one of exactly maxBytes', async () => {
      const { store, seed } = current();
      await seed('sized.data', new Uint8Array(1000).fill(7));
      const error = await expectFileStoreError(store.read('sized.data', { maxBytes: 999 }), 'FILE_STORE_TOO_LARGE');
      expect(error.details).toMatchObject({ store: store.name, path: 'sized.data' });
      expect(await store.read('sized.data', { maxBytes: 1000 })).toEqual(new Uint8Array(1000).fill(7));
      const localFile = join(scratch(), 'sized.data');
      await expectFileStoreError(
        store.downloadToFile('sized.data', localFile, { maxBytes: 999 }),
        'FILE_STORE_TOO_LARGE',
      );
      await expect(readFile(localFile)).rejects.toThrow(/ENOENT/);
    });

    it('refuses absolute paths, "." and ".." segments, empty segments and control characters before any I/O', async () => {
      const { store } = current();
      for (const path of BAD_PATHS) {
        await expectFileStoreError(store.read(path), 'FILE_STORE_BAD_PATH');
        await expectFileStoreError(store.exists(path), 'FILE_STORE_BAD_PATH');
        await expectFileStoreError(store.downloadToFile(path, join(scratch(), 'x')), 'FILE_STORE_BAD_PATH');
      }
    });

    it('keeps names with characters URLs escape apart', async () => {
      const { store, seed } = current();
      await seed('odd names/a+b=c&d.data', bytes(1));
      await seed('odd names/a b=c&d.data', bytes(2));
      expect(await store.read('odd names/a+b=c&d.data')).toEqual(bytes(1));
      expect(await store.read('odd names/a b=c&d.data')).toEqual(bytes(2));
    });
  });
}

function describeWrites(current: () => FileStore, scratch: () => string, guarantees: FileStoreGuarantees): void {
  describe('write, uploadFile, delete', () => {
    it('replaces an object on a second write', async () => {
      const store = current();
      await store.write(BLOB_PATH, bytes(1, 1, 1, 1));
      await store.write(BLOB_PATH, bytes(2));
      expect(await store.read(BLOB_PATH)).toEqual(bytes(2));
    });

    it.runIf(guarantees.racingWritesLeaveOneWhole)(
      'leaves one whole version when two writes of one object race',
      async () => {
        const store = current();
        const first = new Uint8Array(256 * 1024).fill(1);
        const second = new Uint8Array(128 * 1024).fill(2);
        await Promise.all([store.write('raced.data', first), store.write('raced.data', second)]);
        const read = await store.read('raced.data');
        expect([sha256(first), sha256(second)]).toContain(sha256(read!));
      },
    );

    it('deletes an object, and deleting a missing one or a directory of objects is not an error', async () => {
      const store = current();
      await store.write('a/one.data', bytes(1));
      await store.write('a/two.data', bytes(2));
      await store.delete('a/one.data');
      await store.delete('a/never-written.data');
      await store.delete('a');
      expect(await store.exists('a/one.data')).toBe(false);
      expect(await store.read('a/two.data')).toEqual(bytes(2));
    });

    it('uploads a large local file byte for byte', async () => {
      const store = current();
      const data = randomBytes(LARGE_OBJECT_BYTES);
      const localFile = join(scratch(), 'upload.bin');
      await writeFile(localFile, data);
      await store.uploadFile(localFile, 'snapshots/upload.bin');
      const downloaded = join(scratch(), 'download.bin');
      expect(await store.downloadToFile('snapshots/upload.bin', downloaded)).toBe(true);
      expect(sha256(await readFile(downloaded))).toBe(sha256(data));
    });

    it('fails an upload of a missing local file and keeps the object it would have replaced', async () => {
      const store = current();
      await store.write('kept.data', bytes(9));
      await expectFileStoreError(store.uploadFile(join(scratch(), 'missing.bin'), 'kept.data'), 'FILE_STORE_FAILED');
      expect(await store.read('kept.data')).toEqual(bytes(9));
    });

    it('refuses bad paths for writes, uploads and deletes', async () => {
      const store = current();
      const localFile = join(scratch(), 'any.bin');
      await writeFile(localFile, 'x');
      for (const path of BAD_PATHS) {
        await expectFileStoreError(store.write(path, bytes(1)), 'FILE_STORE_BAD_PATH');
        await expectFileStoreError(store.uploadFile(localFile, path), 'FILE_STORE_BAD_PATH');
        await expectFileStoreError(store.delete(path), 'FILE_STORE_BAD_PATH');
      }
    });
  });
}
