import fc from 'fast-check';
import { expect, it } from 'vitest';
import { bigintToBytes, ByteReader, bytesToBigint, ByteWriter, hexToBytes } from './bytes.js';

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

/** What a call returns, or the error it throws (name and message), to compare two ways of doing one thing. */
function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

it('writes a uint given as a number as it writes the same bigint, refusing the same values with the same errors', () => {
  const value = fc.oneof(
    fc.integer({ min: -1000, max: 2 ** 40 }),
    fc.maxSafeNat(),
    fc.double({ noNaN: true }),
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 0.5),
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), value, fc.integer({ min: 0, max: 12 }), (before, v, size) => {
      const asNumber = outcome(() => new ByteWriter().bytes(before).uint(v, size).finish());
      const asBigint = outcome(() => {
        const bytes = bigintToBytes(BigInt(v), size);
        return new ByteWriter().bytes(before).bytes(bytes).finish();
      });
      expect(asNumber).toEqual(asBigint);
    }),
  );
});

it('keeps writing correctly after a uint it refused', () => {
  const writer = new ByteWriter().uint(7, 1);
  expect(() => writer.uint(256, 1)).toThrow(/value 256 does not fit in 1 bytes/);
  expect(writer.uint(1, 2).finish()).toEqual(Uint8Array.from([7, 0, 1]));
});

it('reads a number of up to 6 bytes, and any other size, as the bigint of its bytes, with the same errors', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 16 }), fc.integer({ min: -1, max: 12 }), (data, size) => {
      const read = outcome(() => {
        const reader = new ByteReader(data);
        return [reader.number(size), reader.remaining];
      });
      const expected = outcome(() => {
        const reader = new ByteReader(data);
        const v = bytesToBigint(reader.bytes(size));
        if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('unsafe');
        return [Number(v), reader.remaining];
      });
      if ('error' in expected && expected.error === 'Error: unsafe')
        expect(read).toMatchObject({ error: /not a safe integer/ });
      else expect(read).toEqual(expected);
    }),
  );
});

it('refuses a negative uint size as bigintToBytes does, and a 7-byte number past the safe integers', () => {
  expect(outcome(() => new ByteWriter().uint(0, -1).finish())).toEqual(outcome(() => bigintToBytes(0n, -1)));
  expect(() => new ByteReader(new Uint8Array(7).fill(0xff)).number(7)).toThrow(/not a safe integer/);
  expect(new ByteReader(Uint8Array.from([0, 0, 0, 0, 0, 1, 2])).number(7)).toBe(258);
  expect(new ByteReader(new Uint8Array(6).fill(0xff)).number(6)).toBe(2 ** 48 - 1);
});
