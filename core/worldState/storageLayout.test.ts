import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockOfKey, decodePage, encodePage, worldStateKeys } from './storageLayout.js';

const pageId = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 }), fc.integer({ min: 0, max: 2 ** 48 - 1 }));
const block = fc.integer({ min: 0, max: 2 ** 32 - 1 });

describe('world-state keys', () => {
  it('write page ids and blocks in fixed-width hex, so key order is numeric order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), pageId, pageId, block, block, (tree, idA, idB, blockA, blockB) => {
        const a = worldStateKeys.page(tree, idA, blockA);
        const b = worldStateKeys.page(tree, idB, blockB);
        expect(a).toBe(`ws:p:${tree}:${idA.toString(16).padStart(12, '0')}:${blockA.toString(16).padStart(8, '0')}`);
        expect(worldStateKeys.pagesOfBlock(blockA)(tree, idA)).toBe(a);
        expect(a.startsWith(worldStateKeys.pagePrefix(tree, idA))).toBe(true);
        expect(blockOfKey(a)).toBe(blockA);
        const numeric = idA === idB ? blockA - blockB : idA - idB;
        expect(Math.sign(a < b ? -1 : a > b ? 1 : 0)).toBe(Math.sign(numeric));
      }),
    );
  });

  it('decode a stored page only when it has the bytes of a page', () => {
    const page = Uint8Array.from({ length: 8 }, (_, i) => i * 17);
    expect(decodePage(encodePage(page), 8)).toEqual(page);
    expect(() => decodePage(encodePage(page), 16)).toThrow('assertion failed: a stored page has 16 bytes, not 8');
  });
});
