/**
 * The public VM's instruction set, as data.
 *
 * THE MACHINE. A register machine over field elements (bigints modulo FR_MODULUS). Each call frame has
 * REGISTERS_PER_FRAME registers r0..r255, all zero when the frame starts, and a program counter that indexes the
 * program's instructions (not bytes). Frames share nothing but the tx's state journal and mana meter: a callee gets
 * its own registers and its arguments as calldata. Every operand is an immediate in the bytecode: a register index,
 * a field constant, a jump target (an instruction index, checked when the program is decoded) or a small count.
 * A range operand pair (`start`, `count`) names registers r[start] .. r[start+count-1], checked at decode time to
 * lie inside the register file.
 *
 * ARITHMETIC. add, sub and mul are modulo the field. div and mod are integer division and remainder of the canonical
 * representatives (values in [0, FR_MODULUS)); a zero divisor reverts the frame (DIVISION_BY_ZERO). eq, lt and lte
 * compare the canonical representatives and write 1 or 0. and, or and not are logical: any non-zero value is true,
 * the result is 1 or 0.
 *
 * CONTROL. Execution starts at instruction 0 and runs until `return`, `revert`, a failure, or past the last
 * instruction (the same as `return` with no values). `jumpi` jumps when its condition register is non-zero.
 *
 * DISPATCH. calldata[0] is the function selector (a field holding the 4-byte selector of spec/config/allowList.ts's
 * `functionSelector`); calldata[1..] are the arguments. The VM does not dispatch: a program reads calldata[0] with
 * `calldataload`, compares it with `eq` against each selector it implements and `jumpi`s to that function's code;
 * a selector it does not know falls through to the program's own fallback (usually a `revert`).
 *
 * ENVIRONMENT. `calldataload` reads calldata[r[index]] (an index past the end reverts, CALLDATA_OUT_OF_RANGE);
 * `sender` is msg_sender, `address` the running contract.
 *
 * STATE AND EFFECTS (spec/vm/storageSlots.ts has every derivation). `sload`/`sstore` address the running contract's
 * own slots; `sstore` in a static frame reverts (STATIC_CALL_WRITE). `emitnotehash` and `emitnullifier` silo the
 * value with the running contract; a nullifier that already exists (in state, in the tx, or earlier in this
 * execution) reverts (DUPLICATE_NULLIFIER). `emitmessage` sends `content` to the L1 address held in `recipient`
 * (a value of 2^160 or more reverts, INVALID_RECIPIENT). `emitlog` emits a public log of the running contract: tag
 * r[tag] and fields r[start..start+count). Any emit in a static frame reverts (STATIC_CALL_WRITE); an emit past the
 * tx's per-tx bound (spec/constants.ts) reverts (EFFECT_LIMIT_EXCEEDED). `hash` writes hashToField of the range's
 * fields, each as 32 bytes, so programs derive map slots the way `feePayerBalanceStorageSlot` does.
 *
 * CALLS. `call`/`staticcall` run the contract at r[address] with calldata r[argsStart..+argsCount), msg_sender the
 * caller, at one depth more (at most CALL_DEPTH_MAX). A static frame's calls are static too. The callee gets all the
 * mana left. On success r[success] = 1 and the first retCount return values land in r[retStart..] (missing ones
 * are zero); on a revert r[success] = 0, the ret registers are zeroed and everything the callee wrote or emitted is
 * dropped, while the caller continues. `return` ends the frame with the range as return values; `revert` ends it as
 * reverted with the range as revert data (a first field packing a short string is shown as the reason).
 *
 * MANA. Each instruction costs `mana` plus `manaPerField` for every register its ranges cover, charged before it
 * runs; a call's callee pays for its own instructions. Storage writes and emits cost the most. Running out reverts
 * the frame (OUT_OF_GAS) and leaves no mana, so the frames above fail in turn.
 */
import { LOG_FIELDS_MAX } from '../constants.js';
import { HASH_INPUT_FIELDS_MAX, RANGE_REGISTERS_MAX } from './vmConstants.js';

export type OperandKind = 'register' | 'field' | 'target' | 'count';

/** Encoded width of each operand kind, in bytes. */
export const OPERAND_BYTES: Readonly<Record<OperandKind, number>> = { register: 1, field: 32, target: 2, count: 1 };

/** A register range: the operand naming its first register and the operand giving its length, with bounds. */
export interface OperandRange {
  readonly start: string;
  readonly count: string;
  readonly countMin: number;
  readonly countMax: number;
}

export interface OpcodeSpec {
  /** The opcode byte. */
  readonly code: number;
  /** Operand names and kinds, in encoding order. */
  readonly operands: Readonly<Record<string, OperandKind>>;
  /** Mana charged before the instruction runs. */
  readonly mana: number;
  /** Extra mana per register covered by the instruction's ranges. */
  readonly manaPerField: number;
  readonly ranges: readonly OperandRange[];
  readonly summary: string;
}

function opcode<const Operands extends Record<string, OperandKind>>(
  code: number,
  operands: Operands,
  mana: number,
  summary: string,
  extra: { readonly manaPerField?: number; readonly ranges?: readonly OperandRange[] } = {},
) {
  return { code, operands, mana, manaPerField: extra.manaPerField ?? 0, ranges: extra.ranges ?? [], summary };
}

const range = (start: string, count: string, countMax: number, countMin = 0): OperandRange => ({
  start,
  count,
  countMin,
  countMax,
});

const BINARY = { dst: 'register', a: 'register', b: 'register' } as const;
const CALL = {
  success: 'register',
  address: 'register',
  argsStart: 'register',
  argsCount: 'count',
  retStart: 'register',
  retCount: 'count',
} as const;
const CALL_RANGES = [
  range('argsStart', 'argsCount', RANGE_REGISTERS_MAX),
  range('retStart', 'retCount', RANGE_REGISTERS_MAX),
];
const OUTPUT = { start: 'register', count: 'count' } as const;
const OUTPUT_RANGES = [range('start', 'count', RANGE_REGISTERS_MAX)];

/** Every instruction: opcode byte, operands in encoding order, mana. */
export const INSTRUCTION_SET = {
  set: opcode(0x01, { dst: 'register', value: 'field' }, 1, 'r[dst] = value'),
  mov: opcode(0x02, { dst: 'register', src: 'register' }, 1, 'r[dst] = r[src]'),
  add: opcode(0x10, BINARY, 2, 'r[dst] = r[a] + r[b] mod p'),
  sub: opcode(0x11, BINARY, 2, 'r[dst] = r[a] - r[b] mod p'),
  mul: opcode(0x12, BINARY, 3, 'r[dst] = r[a] * r[b] mod p'),
  div: opcode(0x13, BINARY, 5, 'r[dst] = floor(r[a] / r[b]); reverts when r[b] = 0'),
  mod: opcode(0x14, BINARY, 5, 'r[dst] = r[a] mod r[b]; reverts when r[b] = 0'),
  eq: opcode(0x18, BINARY, 2, 'r[dst] = r[a] == r[b] ? 1 : 0'),
  lt: opcode(0x19, BINARY, 2, 'r[dst] = r[a] < r[b] ? 1 : 0'),
  lte: opcode(0x1a, BINARY, 2, 'r[dst] = r[a] <= r[b] ? 1 : 0'),
  and: opcode(0x1b, BINARY, 2, 'r[dst] = r[a] != 0 && r[b] != 0 ? 1 : 0'),
  or: opcode(0x1c, BINARY, 2, 'r[dst] = r[a] != 0 || r[b] != 0 ? 1 : 0'),
  not: opcode(0x1d, { dst: 'register', a: 'register' }, 2, 'r[dst] = r[a] == 0 ? 1 : 0'),
  jump: opcode(0x20, { target: 'target' }, 2, 'pc = target'),
  jumpi: opcode(0x21, { cond: 'register', target: 'target' }, 3, 'pc = target when r[cond] != 0'),
  calldatasize: opcode(0x30, { dst: 'register' }, 1, 'r[dst] = number of calldata fields'),
  calldataload: opcode(0x31, { dst: 'register', index: 'register' }, 3, 'r[dst] = calldata[r[index]]'),
  sender: opcode(0x32, { dst: 'register' }, 1, 'r[dst] = msg_sender'),
  address: opcode(0x33, { dst: 'register' }, 1, 'r[dst] = running contract address'),
  hash: opcode(
    0x38,
    { dst: 'register', start: 'register', count: 'count' },
    20,
    'r[dst] = hashToField(r[start..start+count))',
    {
      manaPerField: 5,
      ranges: [range('start', 'count', HASH_INPUT_FIELDS_MAX, 1)],
    },
  ),
  sload: opcode(0x40, { dst: 'register', slot: 'register' }, 100, 'r[dst] = storage[r[slot]]'),
  sstore: opcode(0x41, { slot: 'register', value: 'register' }, 1_000, 'storage[r[slot]] = r[value]'),
  emitlog: opcode(
    0x50,
    { tag: 'register', start: 'register', count: 'count' },
    300,
    'public log (r[tag], r[start..start+count))',
    {
      manaPerField: 30,
      ranges: [range('start', 'count', LOG_FIELDS_MAX)],
    },
  ),
  emitnotehash: opcode(0x51, { value: 'register' }, 500, 'note hash siloed(r[value])'),
  emitnullifier: opcode(0x52, { value: 'register' }, 700, 'nullifier siloed(r[value])'),
  emitmessage: opcode(0x53, { recipient: 'register', content: 'register' }, 800, 'L2-to-L1 message to r[recipient]'),
  call: opcode(0x60, CALL, 600, 'call r[address] with r[args..], returns into r[ret..]', {
    manaPerField: 3,
    ranges: CALL_RANGES,
  }),
  staticcall: opcode(0x61, CALL, 600, 'as call, the callee may not write or emit', {
    manaPerField: 3,
    ranges: CALL_RANGES,
  }),
  return: opcode(0x70, OUTPUT, 1, 'end the frame, returning r[start..start+count)', {
    manaPerField: 1,
    ranges: OUTPUT_RANGES,
  }),
  revert: opcode(0x71, OUTPUT, 1, 'end the frame as reverted, with revert data r[start..start+count)', {
    manaPerField: 1,
    ranges: OUTPUT_RANGES,
  }),
} as const satisfies Record<string, OpcodeSpec>;

export type OpName = keyof typeof INSTRUCTION_SET;

/** The operand names and kinds of opcode `Op`. */
export type OperandsOf<Op extends OpName> = (typeof INSTRUCTION_SET)[Op]['operands'];
type OperandValue<Kind> = Kind extends 'field' ? bigint : number;

/** One decoded instruction of opcode `Op`: its name and its operands by name (field constants as bigints). */
export type InstructionOf<Op extends OpName> = { readonly op: Op } & {
  readonly [Name in keyof OperandsOf<Op>]: OperandValue<OperandsOf<Op>[Name]>;
};

export type Instruction = { [Op in OpName]: InstructionOf<Op> }[OpName];

export const OP_NAMES = Object.keys(INSTRUCTION_SET) as readonly OpName[];

export function opcodeSpec(op: OpName): OpcodeSpec {
  return INSTRUCTION_SET[op];
}

/** Opcode byte -> name. */
export const OP_NAME_BY_CODE: ReadonlyMap<number, OpName> = new Map(
  OP_NAMES.map((op) => [INSTRUCTION_SET[op].code, op]),
);

/** An operand of an instruction, by name (the decoder and encoder walk operands generically). */
export function operandOf(instruction: Instruction, name: string): number | bigint {
  const value = (instruction as unknown as Record<string, number | bigint | undefined>)[name];
  if (value === undefined) throw new TypeError(`instruction ${instruction.op} has no operand ${name}`);
  return value;
}

/** Registers covered by an instruction's ranges (what `manaPerField` is charged for). */
export function rangeFieldCount(instruction: Instruction): number {
  return opcodeSpec(instruction.op).ranges.reduce((sum, { count }) => sum + Number(operandOf(instruction, count)), 0);
}

/** Mana an instruction costs before it runs. */
export function instructionMana(instruction: Instruction): number {
  const spec = opcodeSpec(instruction.op);
  return spec.mana + spec.manaPerField * rangeFieldCount(instruction);
}
