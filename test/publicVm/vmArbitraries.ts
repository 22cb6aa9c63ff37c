/**
 * Random valid programs for the public VM's property suites, built from the instruction table so a new opcode is
 * covered without touching this file. Registers lean towards r0..r7 and field constants towards small values and a
 * known contract address, so that random programs branch, divide by zero, hit calldata and call a real contract.
 */
import fc from 'fast-check';
import { FR_MODULUS } from '../../spec/constants.js';
import type { Program } from '../../spec/vm/bytecode.js';
import type { Instruction, OperandKind, OpName } from '../../spec/vm/instructionSet.js';
import { OP_NAMES, opcodeSpec } from '../../spec/vm/instructionSet.js';
import { REGISTERS_PER_FRAME } from '../../spec/vm/vmConstants.js';

export const anyField = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n });

export function fieldArbitrary(interesting: readonly bigint[] = []): fc.Arbitrary<bigint> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 0n, max: 10n }) },
    { weight: 2, arbitrary: anyField },
    { weight: 1, arbitrary: fc.constantFrom(FR_MODULUS - 1n, 1n << 160n, ...interesting) },
  );
}

const registerArbitrary = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 7 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: REGISTERS_PER_FRAME - 1 }) },
);

type Operands = Record<string, number | bigint>;

function operandArbitrary(
  kind: OperandKind,
  programLength: number,
  fields: fc.Arbitrary<bigint>,
): fc.Arbitrary<number | bigint> {
  switch (kind) {
    case 'register':
      return registerArbitrary;
    case 'field':
      return fields;
    case 'target':
      return fc.integer({ min: 0, max: programLength - 1 });
    case 'count':
      return fc.integer({ min: 0, max: 255 });
  }
}

function rangeArbitrary(start: string, count: string, countMin: number, countMax: number): fc.Arbitrary<Operands> {
  const counts = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: countMin, max: Math.min(countMax, countMin + 4) }) },
    { weight: 1, arbitrary: fc.integer({ min: countMin, max: countMax }) },
  );
  return counts.chain((n) =>
    fc
      .integer({ min: 0, max: Math.min(REGISTERS_PER_FRAME - 1, REGISTERS_PER_FRAME - n) })
      .map((first): Operands => ({ [start]: first, [count]: n })),
  );
}

function operandsArbitrary(op: OpName, programLength: number, fields: fc.Arbitrary<bigint>): fc.Arbitrary<Operands> {
  const spec = opcodeSpec(op);
  const ranged = new Set(spec.ranges.flatMap((r) => [r.start, r.count]));
  const parts: fc.Arbitrary<Operands>[] = Object.entries(spec.operands)
    .filter(([name]) => !ranged.has(name))
    .map(([name, kind]) => operandArbitrary(kind, programLength, fields).map((value): Operands => ({ [name]: value })));
  for (const r of spec.ranges) parts.push(rangeArbitrary(r.start, r.count, r.countMin, r.countMax));
  return fc.tuple(...parts).map((objects) => Object.assign({}, ...objects) as Operands);
}

export function instructionArbitrary(
  programLength: number,
  ops: readonly OpName[] = OP_NAMES,
  fields = fieldArbitrary(),
): fc.Arbitrary<Instruction> {
  return fc
    .constantFrom(...ops)
    .chain((op) =>
      operandsArbitrary(op, programLength, fields).map((operands) => ({ op, ...operands }) as unknown as Instruction),
    );
}

/** A valid program of 1..maxLength instructions. */
export function programArbitrary(
  options: { maxLength?: number; ops?: readonly OpName[]; fields?: fc.Arbitrary<bigint> } = {},
): fc.Arbitrary<Program> {
  return fc
    .integer({ min: 1, max: options.maxLength ?? 24 })
    .chain((length) =>
      fc.array(instructionArbitrary(length, options.ops, options.fields), { minLength: length, maxLength: length }),
    );
}
