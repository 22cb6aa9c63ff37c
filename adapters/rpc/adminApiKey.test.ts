import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { adminApiKeyHashPath, hashAdminApiKey, resolveAdminApiKey, type AdminApiKey } from './adminApiKey.js';

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

function enabled(auth: AdminApiKey): Extract<AdminApiKey, { mode: 'enabled' }> {
  if (auth.mode !== 'enabled') throw new Error('expected enabled admin auth');
  return auth;
}

let dataDirectory: string;
beforeEach(async () => {
  dataDirectory = await mkdtemp(join(tmpdir(), 'svc-admin-key-'));
});
afterEach(async () => {
  await rm(dataDirectory, { recursive: true, force: true });
});

describe('resolveAdminApiKey', () => {
  test('disabled: no key at all', async () => {
    expect(
      await resolveAdminApiKey({ dataDirectory, disabled: true, reset: true, presetKeyHash: 'ab'.repeat(32) }),
    ).toEqual({
      mode: 'disabled',
    });
  });

  test('first start generates a 64-hex key and stores only its sha256, mode 0600 in a 0700 directory', async () => {
    const auth = enabled(await resolveAdminApiKey({ dataDirectory, disabled: false, reset: false }));
    expect(auth.newKey).toMatch(/^[0-9a-f]{64}$/);
    const path = adminApiKeyHashPath(dataDirectory);
    expect(path).toBe(join(dataDirectory, 'admin', 'api_key_hash'));
    const stored = await readFile(path, 'utf8');
    expect(stored).toBe(sha256Hex(auth.newKey!));
    expect(stored).not.toContain(auth.newKey);
    expect(auth.keyHash.toString('hex')).toBe(stored);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDirectory, 'admin'))).mode & 0o777).toBe(0o700);
  });

  test('a restart reuses the stored hash and generates nothing', async () => {
    const first = enabled(await resolveAdminApiKey({ dataDirectory, disabled: false, reset: false }));
    const second = enabled(await resolveAdminApiKey({ dataDirectory, disabled: false, reset: false }));
    expect(second.newKey).toBeUndefined();
    expect(second.keyHash.equals(first.keyHash)).toBe(true);
    expect(second.keyHash.equals(hashAdminApiKey(first.newKey!))).toBe(true);
  });

  test('reset regenerates the key and replaces the stored hash', async () => {
    const first = enabled(await resolveAdminApiKey({ dataDirectory, disabled: false, reset: false }));
    const reset = enabled(await resolveAdminApiKey({ dataDirectory, disabled: false, reset: true }));
    expect(reset.newKey).toMatch(/^[0-9a-f]{64}$/);
    expect(reset.newKey).not.toBe(first.newKey);
    expect(await readFile(adminApiKeyHashPath(dataDirectory), 'utf8')).toBe(sha256Hex(reset.newKey!));
    expect((await stat(adminApiKeyHashPath(dataDirectory))).mode & 0o777).toBe(0o600);
  });

  test('a preset hash is used as is; nothing is generated or stored', async () => {
    const preset = sha256Hex('my pre-generated key');
    const auth = enabled(
      await resolveAdminApiKey({ dataDirectory, disabled: false, reset: true, presetKeyHash: preset.toUpperCase() }),
    );
    expect(auth.newKey).toBeUndefined();
    expect(auth.keyHash.toString('hex')).toBe(preset);
    await expect(stat(adminApiKeyHashPath(dataDirectory))).rejects.toThrow(/ENOENT/);
  });

  test('a malformed preset hash is refused with a clear error that does not echo it', async () => {
    const secretLooking = 'not-a-hash-but-maybe-a-key';
    await expect(resolveAdminApiKey({ disabled: false, reset: false, presetKeyHash: secretLooking })).rejects.toThrow(
      /--admin-api-key-hash must be the SHA-256 of the key as 64 hex characters \(got 26 characters\)/,
    );
    await expect(resolveAdminApiKey({ disabled: false, reset: false, presetKeyHash: 'ab'.repeat(31) })).rejects.toThrow(
      /64 hex/,
    );
    try {
      await resolveAdminApiKey({ disabled: false, reset: false, presetKeyHash: secretLooking });
    } catch (error) {
      expect(String(error)).not.toContain(secretLooking);
    }
  });

  test('without a data directory each resolve generates its own key', async () => {
    const a = enabled(await resolveAdminApiKey({ disabled: false, reset: false }));
    const b = enabled(await resolveAdminApiKey({ disabled: false, reset: false }));
    expect(a.newKey).toBeDefined();
    expect(b.newKey).toBeDefined();
    expect(a.newKey).not.toBe(b.newKey);
    expect(a.keyHash.equals(hashAdminApiKey(a.newKey!))).toBe(true);
  });

  test('a corrupt stored hash is an error pointing at the reset flag', async () => {
    await mkdir(join(dataDirectory, 'admin'), { recursive: true });
    await writeFile(adminApiKeyHashPath(dataDirectory), 'garbage');
    await expect(resolveAdminApiKey({ dataDirectory, disabled: false, reset: false })).rejects.toThrow(
      /--reset-admin-api-key/,
    );
    const reset = enabled(await resolveAdminApiKey({ dataDirectory, disabled: false, reset: true }));
    expect(reset.newKey).toBeDefined();
  });
});
