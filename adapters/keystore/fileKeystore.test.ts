import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYSTORE_FILE_BYTES_MAX } from '../../spec/validators/constants.js';
import { createFileKeystore, writeKeystoreFile } from './fileKeystore.js';

describe('keystore file adapter', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rereads the file on every read, writes it owner-only, and reads at most the size limit plus one byte', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'svc-keystore-'));
    const file = path.join(dir, 'keystore.json');
    await writeKeystoreFile(file, new TextEncoder().encode('{"a":1}'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const keystore = createFileKeystore(file);
    expect(keystore.location).toBe(file);
    expect(new TextDecoder().decode(await keystore.read())).toBe('{"a":1}');
    await writeFile(file, '{"b":2}');
    expect(new TextDecoder().decode(await keystore.read())).toBe('{"b":2}');
    await writeFile(file, new Uint8Array(KEYSTORE_FILE_BYTES_MAX + 100));
    expect((await keystore.read()).length).toBe(KEYSTORE_FILE_BYTES_MAX + 1);
    await expect(createFileKeystore(path.join(dir, 'missing.json')).read()).rejects.toThrow(/ENOENT/);
  });
});
