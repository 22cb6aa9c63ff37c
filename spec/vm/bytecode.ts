/**
 * Bytecode of a public VM program, as a contract class's `packedBytecode` carries it:
 *   version u8 (BYTECODE_VERSION) | instruction*
 *   instruction = opcode u8 | operands in the order spec/vm/instructionSet.ts lists them
 *   operand = register u8 | field 32 bytes big-endian (below FR_MODULUS) | target u16 (instruction index) | count u8
 * A program is valid when every opcode is known, no instruction is cut short, every field constant is a field
 * element, every jump target is an instruction of the program, every register range lies inside the register file
 * with its count within the opcode's bounds, and the program has at most PROGRAM_INSTRUCTIONS_MAX instructions in at
 * most PUBLIC_BYTECODE_BYTES_MAX bytes. Anything else is refused with a CodecError naming the instruction and the
 * byte offset. An empty program (the version byte alone) is valid: a call to it returns nothing.
 */
import { ByteReader, ByteWriter, CodecError } from '../codec/bytes.js';
import { PUBLIC_BYTECODE_BYTES_MAX } from '../constants.js';
import { isField } from './field.js';
import type { Instruction, OpcodeSpec, OperandKind } from './instructionSet.js';
import { OP_NAME_BY_CODE, OPERAND_BYTES, opcodeSpec, operandOf } from './instructionSet.js';
import { BYTECODE_VERSION, PROGRAM_INSTRUCTIONS_MAX, REGISTERS_PER_FRAME } from './vmConstants.js';

/** A decoded program: its instructions, indexed by the program counter. */
export type Program = readonly Instruction[];

function fail(index: number, message: string): never {
  throw new CodecError(`bytecode instruction ${index}: ${message}`);
}

function checkOperand(
  kind: OperandKind,
  name: string,
  value: number | bigint,
  index: number,
  programLength: number,
): void {
  if (kind === 'field') {
    if (typeof value !== 'bigint' || !isField(value)) fail(index, `operand ${name} is not a field element`);
    return;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    fail(index, `operand ${name} is not a non-negative integer`);
  if (kind === 'target' && value >= programLength)
    fail(index, `jump target ${value} is outside the program's ${programLength} instructions`);
  if (kind === 'register' && value >= REGISTERS_PER_FRAME)
    fail(index, `operand ${name} = r${value} is past r${REGISTERS_PER_FRAME - 1}`);
  if (value >= 2 ** (8 * OPERAND_BYTES[kind]))
    fail(index, `operand ${name} = ${value} does not fit its ${OPERAND_BYTES[kind]}-byte encoding`);
}

function checkRanges(spec: OpcodeSpec, instruction: Instruction, index: number): void {
  for (const { start, count, countMin, countMax } of spec.ranges) {
    const first = Number(operandOf(instruction, start));
    const length = Number(operandOf(instruction, count));
    if (length < countMin || length > countMax)
      fail(index, `${count} = ${length} is outside [${countMin}, ${countMax}]`);
    if (first + length > REGISTERS_PER_FRAME)
      fail(index, `registers ${first}..${first + length - 1} run past r${REGISTERS_PER_FRAME - 1}`);
  }
}

/** Checks one instruction of a program of `programLength` instructions; throws CodecError when it is not valid. */
export function checkInstruction(instruction: Instruction, index: number, programLength: number): void {
  const spec = opcodeSpec(instruction.op);
  if ((spec as OpcodeSpec | undefined) === undefined) fail(index, `unknown instruction ${String(instruction.op)}`);
  for (const [name, kind] of Object.entries(spec.operands)) {
    checkOperand(kind, name, operandOf(instruction, name), index, programLength);
  }
  checkRanges(spec, instruction, index);
}

function checkProgramLength(length: number): void {
  if (length > PROGRAM_INSTRUCTIONS_MAX)
    throw new CodecError(`a program has at most ${PROGRAM_INSTRUCTIONS_MAX} instructions, got ${length}`);
}

export function encodeProgram(program: Program): Uint8Array {
  checkProgramLength(program.length);
  const w = new ByteWriter().uint(BYTECODE_VERSION, 1);
  program.forEach((instruction, index) => {
    checkInstruction(instruction, index, program.length);
    const spec = opcodeSpec(instruction.op);
    w.uint(spec.code, 1);
    for (const [name, kind] of Object.entries(spec.operands)) w.uint(operandOf(instruction, name), OPERAND_BYTES[kind]);
  });
  const bytes = w.finish();
  if (bytes.length > PUBLIC_BYTECODE_BYTES_MAX)
    throw new CodecError(`bytecode of ${bytes.length} bytes exceeds ${PUBLIC_BYTECODE_BYTES_MAX}`);
  return bytes;
}

function readInstruction(r: ByteReader, index: number, offset: number): Instruction {
  const code = r.number(1);
  const op = OP_NAME_BY_CODE.get(code);
  if (op === undefined) fail(index, `unknown opcode 0x${code.toString(16).padStart(2, '0')} at byte ${offset}`);
  const instruction: Record<string, number | bigint | string> = { op };
  for (const [name, kind] of Object.entries(opcodeSpec(op).operands)) {
    if (r.remaining < OPERAND_BYTES[kind])
      fail(index, `${op} at byte ${offset} is cut short (operand ${name} missing)`);
    instruction[name] = kind === 'field' ? r.bigint(OPERAND_BYTES[kind]) : r.number(OPERAND_BYTES[kind]);
  }
  return instruction as unknown as Instruction;
}

/** Decodes and checks bytecode; throws CodecError when it is not a valid program. */
export function decodeProgram(bytecode: Uint8Array): Program {
  if (bytecode.length > PUBLIC_BYTECODE_BYTES_MAX)
    throw new CodecError(`bytecode of ${bytecode.length} bytes exceeds ${PUBLIC_BYTECODE_BYTES_MAX}`);
  if (bytecode.length === 0) throw new CodecError('bytecode is empty: it needs at least the version byte');
  if (bytecode[0] !== BYTECODE_VERSION)
    throw new CodecError(`bytecode version ${bytecode[0]} is not ${BYTECODE_VERSION}`);
  const r = new ByteReader(bytecode.subarray(1));
  const program: Instruction[] = [];
  // Bounded: each instruction consumes at least its opcode byte, and the count is checked as it grows.
  while (r.remaining > 0) {
    checkProgramLength(program.length + 1);
    program.push(readInstruction(r, program.length, bytecode.length - r.remaining));
  }
  program.forEach((instruction, index) => checkInstruction(instruction, index, program.length));
  return program;
}
