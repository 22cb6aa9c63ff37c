import { describe, expect, test } from 'vitest';
import { CodecError } from '../codec/bytes.js';
import { FR_MODULUS, LOG_FIELDS_MAX, PUBLIC_BYTECODE_BYTES_MAX } from '../constants.js';
import { assemble } from './assembler.js';
import type { Program } from './bytecode.js';
import { decodeProgram, encodeProgram } from './bytecode.js';
import type { Instruction } from './instructionSet.js';
import { INSTRUCTION_SET, instructionMana, OP_NAMES } from './instructionSet.js';
import { BYTECODE_VERSION, PROGRAM_INSTRUCTIONS_MAX } from './vmConstants.js';

/** One instruction of every opcode, in table order. */
const EVERY_OPCODE: Program = [
  { op: 'set', dst: 1, value: FR_MODULUS - 1n },
  { op: 'mov', dst: 2, src: 1 },
  { op: 'add', dst: 3, a: 1, b: 2 },
  { op: 'sub', dst: 3, a: 1, b: 2 },
  { op: 'mul', dst: 3, a: 1, b: 2 },
  { op: 'div', dst: 3, a: 1, b: 2 },
  { op: 'mod', dst: 3, a: 1, b: 2 },
  { op: 'eq', dst: 3, a: 1, b: 2 },
  { op: 'lt', dst: 3, a: 1, b: 2 },
  { op: 'lte', dst: 3, a: 1, b: 2 },
  { op: 'and', dst: 3, a: 1, b: 2 },
  { op: 'or', dst: 3, a: 1, b: 2 },
  { op: 'not', dst: 3, a: 1 },
  { op: 'jump', target: 14 },
  { op: 'jumpi', cond: 3, target: 0 },
  { op: 'calldatasize', dst: 4 },
  { op: 'calldataload', dst: 5, index: 4 },
  { op: 'sender', dst: 6 },
  { op: 'address', dst: 7 },
  { op: 'hash', dst: 8, start: 1, count: 2 },
  { op: 'sload', dst: 9, slot: 1 },
  { op: 'sstore', slot: 1, value: 2 },
  { op: 'emitlog', tag: 1, start: 2, count: LOG_FIELDS_MAX },
  { op: 'emitnotehash', value: 1 },
  { op: 'emitnullifier', value: 1 },
  { op: 'emitmessage', recipient: 1, content: 2 },
  { op: 'call', success: 10, address: 7, argsStart: 0, argsCount: 3, retStart: 250, retCount: 6 },
  { op: 'staticcall', success: 10, address: 7, argsStart: 0, argsCount: 0, retStart: 0, retCount: 0 },
  { op: 'return', start: 1, count: 255 },
  { op: 'revert', start: 255, count: 1 },
];

const refused = (bytes: Uint8Array) => () => decodeProgram(bytes);

describe('public VM bytecode', () => {
  test('the table has distinct opcode bytes and the sample covers every opcode', () => {
    const codes = OP_NAMES.map((op) => INSTRUCTION_SET[op].code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(EVERY_OPCODE.map((i) => i.op))).toEqual(new Set(OP_NAMES));
  });

  test('every opcode encodes and decodes back', () => {
    const bytes = encodeProgram(EVERY_OPCODE);
    expect(bytes[0]).toBe(BYTECODE_VERSION);
    expect(decodeProgram(bytes)).toEqual(EVERY_OPCODE);
  });

  test('layout: version, opcode, operands in table order, fields 32 bytes big-endian, targets u16', () => {
    const bytes = encodeProgram([
      { op: 'set', dst: 7, value: 258n },
      { op: 'jump', target: 0 },
    ]);
    expect([...bytes.subarray(0, 3)]).toEqual([BYTECODE_VERSION, 0x01, 7]);
    expect([...bytes.subarray(33, 35)]).toEqual([1, 2]);
    expect([...bytes.subarray(35)]).toEqual([0x20, 0, 0]);
  });

  test('the version byte alone is the empty program', () => {
    expect(decodeProgram(new Uint8Array([BYTECODE_VERSION]))).toEqual([]);
  });

  test('empty bytecode and a wrong version are refused', () => {
    expect(refused(new Uint8Array())).toThrow(/empty/);
    expect(refused(new Uint8Array([BYTECODE_VERSION + 1]))).toThrow(/version 2 is not 1/);
  });

  test('an unknown opcode is refused, naming the byte offset', () => {
    expect(refused(new Uint8Array([BYTECODE_VERSION, 0x02, 0, 0, 0xff]))).toThrow(
      /instruction 1: unknown opcode 0xff at byte 4/,
    );
  });

  test('an instruction cut short is refused', () => {
    const bytes = assemble([{ op: 'set', dst: 0, value: 5 }]);
    expect(refused(bytes.subarray(0, bytes.length - 1))).toThrow(/cut short/);
  });

  test('a field constant at or above the modulus is refused', () => {
    const bytes = assemble([{ op: 'set', dst: 0, value: 0 }]);
    bytes.set(Buffer.from(FR_MODULUS.toString(16).padStart(64, '0'), 'hex'), 3);
    expect(refused(bytes)).toThrow(CodecError);
    expect(() => encodeProgram([{ op: 'set', dst: 0, value: FR_MODULUS }])).toThrow(/not a field element/);
  });

  test('a jump target outside the program is refused', () => {
    expect(() => encodeProgram([{ op: 'jump', target: 1 }])).toThrow(
      /jump target 1 is outside the program's 1 instructions/,
    );
    const bytes = encodeProgram([{ op: 'jump', target: 0 }]);
    bytes[3] = 1;
    expect(refused(bytes)).toThrow(/jump target 1/);
  });

  test('register ranges must stay inside the register file and within their counts', () => {
    expect(() => encodeProgram([{ op: 'return', start: 200, count: 57 }])).toThrow(/run past r255/);
    expect(() => encodeProgram([{ op: 'emitlog', tag: 0, start: 0, count: LOG_FIELDS_MAX + 1 }])).toThrow(
      /outside \[0, 16\]/,
    );
    expect(() => encodeProgram([{ op: 'hash', dst: 0, start: 0, count: 0 }])).toThrow(/outside \[1, 16\]/);
    const bytes = encodeProgram([{ op: 'return', start: 255, count: 1 }]);
    bytes[3] = 2;
    expect(refused(bytes)).toThrow(/run past r255/);
  });

  test('operands that do not fit their encoding are refused on encode', () => {
    expect(() => encodeProgram([{ op: 'mov', dst: 256, src: 0 }])).toThrow(/past r255/);
    expect(() => encodeProgram([{ op: 'mov', dst: -1, src: 0 }])).toThrow(/non-negative integer/);
  });

  test('programs over the instruction or byte bound are refused', () => {
    const tooMany = Array.from({ length: PROGRAM_INSTRUCTIONS_MAX + 1 }, (): Instruction => ({
      op: 'mov',
      dst: 0,
      src: 0,
    }));
    expect(() => encodeProgram(tooMany)).toThrow(/at most 16384 instructions/);
    const longBytes = new Uint8Array(1 + 3 * (PROGRAM_INSTRUCTIONS_MAX + 1)).fill(0x02);
    longBytes[0] = BYTECODE_VERSION;
    expect(refused(longBytes)).toThrow(/at most 16384 instructions/);
    expect(refused(new Uint8Array(PUBLIC_BYTECODE_BYTES_MAX + 1))).toThrow(/exceeds/);
  });

  test('mana: the base cost plus the per-field cost of every range', () => {
    expect(instructionMana({ op: 'add', dst: 0, a: 0, b: 0 })).toBe(INSTRUCTION_SET.add.mana);
    expect(instructionMana({ op: 'emitlog', tag: 0, start: 0, count: 4 })).toBe(300 + 4 * 30);
    expect(
      instructionMana({ op: 'call', success: 0, address: 0, argsStart: 0, argsCount: 3, retStart: 0, retCount: 2 }),
    ).toBe(600 + 5 * 3);
    expect(INSTRUCTION_SET.sstore.mana).toBeGreaterThan(INSTRUCTION_SET.sload.mana);
  });
});
