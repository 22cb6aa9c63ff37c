import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CodecError } from '../../spec/codec/bytes.js';
import { decodeProgram, encodeProgram } from '../../spec/vm/bytecode.js';
import { BYTECODE_VERSION } from '../../spec/vm/vmConstants.js';
import { programArbitrary } from './vmArbitraries.js';

/** Decoding either refuses with a CodecError or yields a program that encodes back to the very same bytes. */
function decodesCanonicallyOrRefuses(bytes: Uint8Array): void {
  let program;
  try {
    program = decodeProgram(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(CodecError);
    return;
  }
  expect(encodeProgram(program)).toEqual(bytes);
}

describe('public VM bytecode properties', () => {
  test('every valid program encodes and decodes back to itself', () => {
    fc.assert(
      fc.property(programArbitrary({ maxLength: 40 }), (program) => {
        expect(decodeProgram(encodeProgram(program))).toEqual(program);
      }),
      { numRuns: 500 },
    );
  });

  test('arbitrary bytes are refused with a CodecError or decode canonically', () => {
    const versioned = fc.uint8Array({ maxLength: 120 }).map((tail) => Uint8Array.of(BYTECODE_VERSION, ...tail));
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 60 }), versioned), decodesCanonicallyOrRefuses), {
      numRuns: 1_000,
    });
  });

  test('a valid program with one byte changed, cut or extended is refused or decodes canonically', () => {
    const mutation = fc.record({
      position: fc.nat(),
      byte: fc.integer({ min: 0, max: 255 }),
      kind: fc.constantFrom('set', 'cut', 'extend'),
    });
    fc.assert(
      fc.property(programArbitrary(), mutation, (program, { position, byte, kind }) => {
        const bytes = encodeProgram(program);
        const at = position % bytes.length;
        if (kind === 'cut') return decodesCanonicallyOrRefuses(bytes.subarray(0, at));
        if (kind === 'extend') return decodesCanonicallyOrRefuses(Uint8Array.of(...bytes, byte));
        const changed = bytes.slice();
        changed[at] = byte;
        return decodesCanonicallyOrRefuses(changed);
      }),
      { numRuns: 1_000 },
    );
  });
});
