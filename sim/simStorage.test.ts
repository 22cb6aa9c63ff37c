import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crashAndRecover, createSimStorage } from './simStorage.js';

describe('sim storage', () => {
  it('iterates keys in byte order, as classic-level does, for every set of ASCII keys', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
          { maxLength: 30 },
        ),
        async (written) => {
          const storage = createSimStorage();
          await storage.batch(written.map((key) => ({ type: 'put' as const, key, value: key })));
          const keys: string[] = [];
          for await (const key of storage.keys()) keys.push(key);
          expect(keys).toEqual([...written].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
        },
      ),
    );
  });

  it('refuses a key outside ASCII (its UTF-16 order could differ from the UTF-8 byte order of production)', async () => {
    const storage = createSimStorage();
    // U+FFFF is ef bf bf in UTF-8 and U+10000 is f0 90 80 80: by bytes U+FFFF comes first, as UTF-16 it comes last.
    await expect(storage.put('\u{10000}', 'astral')).rejects.toThrow(/ASCII keys only/);
    await expect(
      storage.batch([
        { type: 'put', key: 'ok', value: '1' },
        { type: 'put', key: 'caf\u00e9', value: '2' },
      ]),
    ).rejects.toThrow(/ASCII keys only/);
    // Nothing of the refused batch was written.
    expect(await storage.get('ok')).toBeUndefined();
  });

  it('crashAndRecover keeps exactly the committed writes; later writes to the old handle are lost', async () => {
    const storage = createSimStorage();
    await storage.put('a', '1');
    await storage.batch([
      { type: 'put', key: 'b', value: '2' },
      { type: 'del', key: 'a' },
    ]);
    const recovered = await crashAndRecover(storage);
    await storage.put('zombie', 'write');
    expect(await recovered.get('a')).toBeUndefined();
    expect(await recovered.get('b')).toBe('2');
    expect(await recovered.get('zombie')).toBeUndefined();
  });
});
