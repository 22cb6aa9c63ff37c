import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { hashPairBytesInto, hashToFieldBytes, shareFieldHashes } from './hash.js';
import { FIELD_HASH_MEMO_SLOTS, FieldHashMemo } from './hashMemo.js';

afterEach(() => shareFieldHashes(undefined));

const plain = (data: Uint8Array): Uint8Array => {
  shareFieldHashes(undefined);
  return hashToFieldBytes(data);
};

it('gives the same hash as no memo for any input, whether it hits or misses', () => {
  const memo = new FieldHashMemo();
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.uint8Array({ maxLength: 100 })), {
        maxLength: 20,
      }),
      (inputs) => {
        const expected = inputs.map(plain);
        shareFieldHashes(memo);
        // Twice: the second pass hits for every 64-byte input the first one stored.
        for (let pass = 0; pass < 2; pass++) expect(inputs.map(hashToFieldBytes)).toEqual(expected);
      },
    ),
  );
  expect(memo.hits).toBeGreaterThan(0);
});

it('hands out fresh bytes: changing what one caller got changes no later answer', () => {
  shareFieldHashes(new FieldHashMemo());
  const input = new Uint8Array(64).fill(9);
  const first = hashToFieldBytes(input);
  const expected = first.slice();
  first.fill(0xff);
  expect(hashToFieldBytes(input)).toEqual(expected);
  hashToFieldBytes(input).fill(0xee);
  expect(hashToFieldBytes(input)).toEqual(expected);
});

it('keeps at most its slots: inputs that share a slot evict each other and still hash right', () => {
  const memo = new FieldHashMemo();
  shareFieldHashes(memo);
  // Same slot bytes (29..31 and 62..63), different elsewhere: one slot, two inputs.
  const a = new Uint8Array(64).fill(1);
  const b = a.slice();
  b[0] = 2;
  const [hashA, hashB] = [plain(a), plain(b)];
  shareFieldHashes(memo);
  for (let round = 0; round < 3; round++) {
    expect(hashToFieldBytes(a)).toEqual(hashA);
    expect(hashToFieldBytes(b)).toEqual(hashB);
  }
  expect(memo.hits).toBe(0);
  expect(FIELD_HASH_MEMO_SLOTS).toBeGreaterThan(0);
});

it('writes a pair hash into the target at its offset, with or without the memo, hit or miss, touching nothing else', () => {
  const memo = new FieldHashMemo();
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 64, maxLength: 200 }),
      fc.nat(),
      fc.uint8Array({ minLength: 32, maxLength: 100 }),
      fc.nat(),
      fc.boolean(),
      (source, offsetSeed, target, targetSeed, shared) => {
        const offset = offsetSeed % (source.length - 63);
        const targetOffset = targetSeed % (target.length - 31);
        const expected = target.slice();
        expected.set(plain(source.slice(offset, offset + 64)), targetOffset);
        shareFieldHashes(shared ? memo : undefined);
        // Twice: with the memo, the second write is a hit.
        for (let pass = 0; pass < 2; pass++) {
          const written = target.slice();
          hashPairBytesInto(source, offset, written, targetOffset);
          expect(written).toEqual(expected);
        }
      },
    ),
  );
  expect(memo.hits).toBeGreaterThan(0);
});
