import fc from 'fast-check';
import { expect, it } from 'vitest';
import { bigintToBytes, ByteWriter, hexToBytes } from './bytes.js';

type Write =
  | { readonly kind: 'bytes'; readonly data: Uint8Array }
  | { readonly kind: 'hex'; readonly data: Uint8Array }
  | { readonly kind: 'uint'; readonly value: bigint; readonly size: number };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((data) => ({ kind: 'bytes' as const, data })),
  fc.uint8Array({ maxLength: 300 }).map((data) => ({ kind: 'hex' as const, data })),
  fc
    .integer({ min: 1, max: 32 })
    .chain((size) =>
      fc.bigInt({ min: 0n, max: 2n ** BigInt(8 * size) - 1n }).map((value) => ({ kind: 'uint' as const, value, size })),
    ),
);

const hexOf = (data: Uint8Array) => `0x${Buffer.from(data).toString('hex')}` as const;

it('writes the concatenation of its fields, however many and however long', () => {
  fc.assert(
    fc.property(fc.array(write, { maxLength: 30 }), (writes) => {
      const writer = new ByteWriter();
      const parts: Uint8Array[] = [];
      for (const w of writes) {
        if (w.kind === 'bytes') writer.bytes(w.data);
        if (w.kind === 'hex') writer.hex(hexOf(w.data), w.data.length);
        if (w.kind === 'uint') writer.uint(w.value, w.size);
        parts.push(w.kind === 'uint' ? bigintToBytes(w.value, w.size) : w.data);
      }
      expect(writer.finish()).toEqual(new Uint8Array(Buffer.concat(parts)));
    }),
  );
});

it('refuses hex of the wrong size or not hex, and copies what it is given', () => {
  expect(() => new ByteWriter().hex('0x0102', 3)).toThrow(/expected 3 bytes, got 2/);
  expect(() => new ByteWriter().hex('0x01zz', 2)).toThrow(/not an even-length/);
  const data = Uint8Array.from([1, 2, 3]);
  const writer = new ByteWriter().bytes(data);
  data[0] = 9;
  expect(writer.finish()).toEqual(hexToBytes('0x010203'));
});
