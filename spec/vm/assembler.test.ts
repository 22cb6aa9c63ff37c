import { describe, expect, test } from 'vitest';
import { CodecError } from '../codec/bytes.js';
import { functionSelector } from '../config/allowList.js';
import { assemble, assembleHex, assembleProgram, dispatch, selectorField } from './assembler.js';
import { decodeProgram } from './bytecode.js';
import { fieldToShortString, shortStringToField } from './field.js';

describe('public VM assembler', () => {
  test('labels resolve to the index of the next instruction', () => {
    const program = assembleProgram([
      { op: 'jump', target: 'end' },
      { op: 'set', dst: 0, value: 1 },
      { label: 'end' },
      { op: 'return', start: 0, count: 1 },
    ]);
    expect(program[0]).toEqual({ op: 'jump', target: 2 });
  });

  test('field constants may be numbers, bigints or hex', () => {
    const program = assembleProgram([
      { op: 'set', dst: 0, value: 5 },
      { op: 'set', dst: 1, value: 5n },
      { op: 'set', dst: 2, value: '0x05' },
    ]);
    expect(program.map((i) => (i.op === 'set' ? i.value : undefined))).toEqual([5n, 5n, 5n]);
    expect(() => assemble([{ op: 'set', dst: 0, value: -1 }])).toThrow(CodecError);
  });

  test('unknown and duplicate labels are refused', () => {
    expect(() => assemble([{ op: 'jump', target: 'nowhere' }])).toThrow(/unknown label "nowhere"/);
    expect(() => assemble([{ label: 'a' }, { label: 'a' }])).toThrow(/defined twice/);
  });

  test('assembleHex is the bytecode as lowercase hex', () => {
    const items = [{ op: 'set', dst: 0, value: 1 }] as const;
    expect(assembleHex(items)).toBe(`0x${Buffer.from(assemble(items)).toString('hex')}`);
  });

  test('dispatch compares calldata[0] with each selector and reverts with "unknown selector" otherwise', () => {
    const transfer = selectorField('transfer(Field,Field)');
    expect(transfer).toBe(BigInt(functionSelector('transfer(Field,Field)')));
    const items = [
      ...dispatch([{ selector: transfer, label: 'transfer' }]),
      { label: 'transfer' },
      { op: 'return', start: 0, count: 0 } as const,
    ];
    const program = decodeProgram(assemble(items));
    expect(program.slice(0, 5)).toEqual([
      { op: 'set', dst: 254, value: 0n },
      { op: 'calldataload', dst: 255, index: 254 },
      { op: 'set', dst: 254, value: transfer },
      { op: 'eq', dst: 254, a: 255, b: 254 },
      { op: 'jumpi', cond: 254, target: 7 },
    ]);
    const fallback = program[5];
    expect(fallback?.op === 'set' && fieldToShortString(fallback.value)).toBe('unknown selector');
  });
});

describe('short strings in a field', () => {
  test('round trip, and non-strings are not shown as strings', () => {
    expect(fieldToShortString(shortStringToField('balance too low'))).toBe('balance too low');
    expect(fieldToShortString(shortStringToField('x'.repeat(31)))).toBe('x'.repeat(31));
    expect(() => shortStringToField('x'.repeat(32))).toThrow(/at most 31/);
    expect(fieldToShortString(0n)).toBeUndefined();
    expect(fieldToShortString(1n)).toBeUndefined();
  });
});
