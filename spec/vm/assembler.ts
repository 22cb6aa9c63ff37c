/**
 * A small assembler for public VM programs (tests, the simulator's workload, the local network's contracts).
 * Items are instructions written as objects, plus `{ label }` markers. A jump target may be a label name or an
 * instruction index; a field constant may be a bigint, a safe non-negative integer or 32-byte hex, and must already be
 * below the field modulus (`encodeProgram` refuses it otherwise). Example, a function returning its first argument
 * plus one:
 *
 *   assemble([
 *     { op: 'set', dst: 0, value: 1 }, { op: 'calldataload', dst: 1, index: 0 },   // r1 = calldata[1]
 *     { op: 'set', dst: 2, value: 1 }, { op: 'add', dst: 1, a: 1, b: 2 },
 *     { op: 'return', start: 1, count: 1 },
 *   ])
 *
 * `dispatch` writes the usual selector switch (see instructionSet.ts, DISPATCH).
 */
import type { Hex } from '../chain.js';
import { bytesToHex, CodecError } from '../codec/bytes.js';
import { functionSelector } from '../config/allowList.js';
import type { Program } from './bytecode.js';
import { encodeProgram } from './bytecode.js';
import { shortStringToField } from './field.js';
import type { Instruction, OpName, OperandsOf } from './instructionSet.js';
import { opcodeSpec } from './instructionSet.js';

type AsmOperandValue<Kind> = Kind extends 'field'
  ? bigint | number | Hex
  : Kind extends 'target'
    ? number | string
    : number;

export type AsmInstructionOf<Op extends OpName> = { readonly op: Op } & {
  readonly [Name in keyof OperandsOf<Op>]: AsmOperandValue<OperandsOf<Op>[Name]>;
};
export type AsmInstruction = { [Op in OpName]: AsmInstructionOf<Op> }[OpName];
export interface AsmLabel {
  readonly label: string;
}
export type AsmItem = AsmInstruction | AsmLabel;

const isLabel = (item: AsmItem): item is AsmLabel => 'label' in item;

function labelIndexes(items: readonly AsmItem[]): Map<string, number> {
  const labels = new Map<string, number>();
  let index = 0;
  for (const item of items) {
    if (!isLabel(item)) {
      index++;
      continue;
    }
    if (labels.has(item.label)) throw new CodecError(`assembler: label "${item.label}" is defined twice`);
    labels.set(item.label, index);
  }
  return labels;
}

function fieldValue(value: bigint | number | Hex): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new CodecError(`assembler: ${value} is not a safe non-negative integer`);
    return BigInt(value);
  }
  return BigInt(value);
}

function resolve(item: AsmInstruction, labels: ReadonlyMap<string, number>): Instruction {
  const resolved: Record<string, number | bigint | string> = { op: item.op };
  for (const [name, kind] of Object.entries(opcodeSpec(item.op).operands)) {
    const value = (item as unknown as Record<string, bigint | number | string>)[name];
    if (value === undefined) throw new CodecError(`assembler: ${item.op} needs operand ${name}`);
    if (kind === 'field') resolved[name] = fieldValue(value as bigint | number | Hex);
    else if (kind === 'target' && typeof value === 'string') {
      const target = labels.get(value);
      if (target === undefined) throw new CodecError(`assembler: unknown label "${value}"`);
      resolved[name] = target;
    } else resolved[name] = value;
  }
  return resolved as unknown as Instruction;
}

/** The program the items describe, labels resolved (not yet checked: `encodeProgram` checks). */
export function assembleProgram(items: readonly AsmItem[]): Program {
  const labels = labelIndexes(items);
  return items.filter((item): item is AsmInstruction => !isLabel(item)).map((item) => resolve(item, labels));
}

/** Bytecode of the items; throws CodecError when they do not make a valid program. */
export function assemble(items: readonly AsmItem[]): Uint8Array {
  return encodeProgram(assembleProgram(items));
}

/** Bytecode as hex, the form of a contract class's `packedBytecode`. */
export function assembleHex(items: readonly AsmItem[]): Hex {
  return bytesToHex(assemble(items));
}

/** The selector field of a function signature: calldata[0] of a call to it. */
export function selectorField(signature: string): bigint {
  return BigInt(functionSelector(signature));
}

export interface DispatchOptions {
  /** Register that receives calldata[0]; default r255. */
  readonly selectorRegister?: number;
  /** Scratch register for the comparisons; default r254. */
  readonly scratchRegister?: number;
}

/**
 * The selector switch: loads calldata[0], jumps to the label of the matching selector, and reverts with
 * "unknown selector" when none matches (a call with no calldata reverts with CALLDATA_OUT_OF_RANGE).
 */
export function dispatch(
  routes: readonly { readonly selector: bigint; readonly label: string }[],
  options: DispatchOptions = {},
): AsmItem[] {
  const selector = options.selectorRegister ?? 255;
  const scratch = options.scratchRegister ?? 254;
  const items: AsmItem[] = [
    { op: 'set', dst: scratch, value: 0 },
    { op: 'calldataload', dst: selector, index: scratch },
  ];
  for (const route of routes) {
    items.push({ op: 'set', dst: scratch, value: route.selector });
    items.push({ op: 'eq', dst: scratch, a: selector, b: scratch });
    items.push({ op: 'jumpi', cond: scratch, target: route.label });
  }
  items.push({ op: 'set', dst: scratch, value: shortStringToField('unknown selector') });
  items.push({ op: 'revert', start: scratch, count: 1 });
  return items;
}
