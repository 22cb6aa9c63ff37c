import { describe, expect, it } from 'vitest';
import { crashAndRecover, createSimStorage } from './simStorage.js';

describe('sim storage', () => {
  it('iterates keys in byte order, as classic-level does', async () => {
    const storage = createSimStorage();
    // U+FFFF is ef bf bf in UTF-8 and U+10000 is f0 90 80 80, so by bytes U+FFFF comes first; compared as UTF-16
    // strings U+10000 (d800 dc00) would come first.
    await storage.batch([
      { type: 'put', key: '\u{10000}', value: 'astral' },
      { type: 'put', key: '\uffff', value: 'bmp-last' },
    ]);
    const keys: string[] = [];
    for await (const key of storage.keys()) keys.push(key);
    expect(keys).toEqual(['\uffff', '\u{10000}']);
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
