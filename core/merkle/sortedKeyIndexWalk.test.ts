import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../../spec/codec/bytes.js';
import { SORTED_INDEX_CHUNK_KEYS_MAX } from '../../spec/constants.js';
import { SortedKeyIndex } from './sortedKeyIndex.js';

const keyOf = (n: number): Hex => bytesToHex(bigintToBytes(BigInt(n), 32));

describe('SortedKeyIndex walks across chunks', () => {
  /** Keys 1..count, enough for several chunks; only key 3 is in block 1. */
  const KEY_COUNT = 4 * SORTED_INDEX_CHUNK_KEYS_MAX;
  const index = new SortedKeyIndex();
  for (let key = KEY_COUNT; key >= 1; key--)
    index.insert(keyOf(key), { leafIndex: key, blockNumber: key === 3 ? 1 : 0 });
  const inBlockOne = (placement: { blockNumber: number }): boolean => placement.blockNumber === 1;

  it('finds the accepted predecessor many chunks down, and the nearest one across a chunk boundary', () => {
    expect(index.predecessor(keyOf(KEY_COUNT + 1), inBlockOne)?.[0]).toBe(keyOf(3));
    for (let key = 2; key <= KEY_COUNT + 1; key += 97) expect(index.predecessor(keyOf(key))?.[0]).toBe(keyOf(key - 1));
    expect(index.predecessor(keyOf(1))).toBeUndefined();
    expect(index.predecessor(keyOf(3), inBlockOne)).toBeUndefined();
  });

  it('walks down exactly the given number of keys', () => {
    // From KEY_COUNT + 1 down, key k is the (KEY_COUNT - k + 1)th key walked.
    const stepsToKey3 = KEY_COUNT - 3 + 1;
    expect(index.predecessor(keyOf(KEY_COUNT + 1), inBlockOne, stepsToKey3)?.[0]).toBe(keyOf(3));
    expect(index.predecessor(keyOf(KEY_COUNT + 1), inBlockOne, stepsToKey3 - 1)).toBeUndefined();
  });

  it('finds the accepted successor many chunks up', () => {
    const up = new SortedKeyIndex();
    for (let key = 1; key <= KEY_COUNT; key++)
      up.insert(keyOf(key), { leafIndex: key, blockNumber: key === KEY_COUNT - 2 ? 1 : 0 });
    expect(up.successor(keyOf(0), inBlockOne)?.[0]).toBe(keyOf(KEY_COUNT - 2));
    expect(up.successor(keyOf(KEY_COUNT - 2), inBlockOne)).toBeUndefined();
  });
});
