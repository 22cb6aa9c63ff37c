import { describe, expect, it } from 'vitest';
import { FileStoreError } from './fileStoreError.js';
import { objectPathSegments } from './objectPath.js';

describe('objectPathSegments', () => {
  it('splits a relative path into its segments', () => {
    expect(objectPathSegments('store', 'svc-1-7-0xabc/blobs/0x01.data')).toEqual([
      'svc-1-7-0xabc',
      'blobs',
      '0x01.data',
    ]);
    expect(objectPathSegments('store', '..data/a..b/.hidden')).toEqual(['..data', 'a..b', '.hidden']);
  });

  it('refuses a path over 1024 UTF-8 bytes, counting bytes rather than characters', () => {
    expect(objectPathSegments('store', 'a'.repeat(1024))).toHaveLength(1);
    expect(() => objectPathSegments('store', 'a'.repeat(1025))).toThrow(FileStoreError);
    expect(() => objectPathSegments('store', 'é'.repeat(513))).toThrow(/over 1024 bytes/);
  });
});
