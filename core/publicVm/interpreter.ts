/**
 * The public VM interpreter (the machine is specified in spec/vm/instructionSet.ts): runs one call, and the calls
 * it makes, against a tx's journal and mana meter. A frame that reverts has its journal entries dropped; its caller
 * goes on. Bounded everywhere: the meter refuses an instruction past the mana limit or INSTRUCTIONS_PER_TX_MAX, and
 * a call deeper than CALL_DEPTH_MAX fails before it loads its program.
 *
 * Instructions that only touch the frame run synchronously (`stepFrame`); those that read the world or call out
 * (`stepWorld`) are awaited, so a long arithmetic loop costs no promise per instruction.
 */
import type { Hex } from '../../spec/chain.js';
import { fieldToHex, fieldToShortString, hexToField, toField } from '../../spec/vm/field.js';
import type { InstructionOf, OpName } from '../../spec/vm/instructionSet.js';
import type { VmRevertCode } from '../../spec/vm/revertCodes.js';
import {
  hashWords,
  l2ToL1MessageHash,
  publicDataLeafSlot,
  siloNoteHash,
  siloNullifier,
} from '../../spec/vm/storageSlots.js';
import { CALL_DEPTH_MAX, ETH_ADDRESS_MAX, REGISTERS_PER_FRAME } from '../../spec/vm/vmConstants.js';
import { assert } from '../assert.js';
import type { StateJournal } from './journal.js';
import type { ManaMeter, MeterFailure } from './manaMeter.js';
import type { LoadedProgram, ProgramCache } from './programCache.js';

/** Why a frame reverted: a stable code, where, a readable message, and the revert data (explicit reverts). */
export interface VmRevert {
  readonly code: VmRevertCode;
  /** The contract whose frame reverted (the innermost one, for a failure inside a call that was not caught). */
  readonly contractAddress: Hex;
  /** Instruction index, or null when the frame failed before running (no program, too deep). */
  readonly pc: number | null;
  readonly message: string;
  readonly data: readonly Hex[];
}

export type CallResult =
  | { readonly success: true; readonly returnValues: readonly bigint[] }
  | { readonly success: false; readonly revert: VmRevert };

export interface CallRequest {
  readonly contractAddress: Hex;
  readonly msgSender: Hex;
  readonly isStaticCall: boolean;
  readonly calldata: readonly bigint[];
  /** 0 for a tx's own public call. */
  readonly depth: number;
}

/** What every frame of one tx shares. */
export interface ExecutionContext {
  readonly journal: StateJournal;
  readonly meter: ManaMeter;
  readonly programs: ProgramCache;
}

interface Frame {
  readonly request: CallRequest;
  readonly program: LoadedProgram;
  readonly registers: bigint[];
  pc: number;
}

/** Runs one call; on a revert, everything it and its callees wrote or emitted is dropped from the journal. */
export async function executeCall(context: ExecutionContext, request: CallRequest): Promise<CallResult> {
  const checkpoint = context.journal.checkpoint();
  const result = await runFrame(context, request);
  if (!result.success) context.journal.revertTo(checkpoint);
  return result;
}

function failure(
  request: CallRequest,
  pc: number | null,
  code: VmRevertCode,
  message: string,
  data: readonly bigint[] = [],
): CallResult {
  return {
    success: false,
    revert: { code, contractAddress: request.contractAddress, pc, message, data: data.map(fieldToHex) },
  };
}

async function runFrame(context: ExecutionContext, request: CallRequest): Promise<CallResult> {
  if (request.depth > CALL_DEPTH_MAX)
    return failure(request, null, 'CALL_DEPTH_EXCEEDED', `call depth ${request.depth} is above ${CALL_DEPTH_MAX}`);
  const loaded = await context.programs.load(request.contractAddress);
  if (!loaded.ok) return failure(request, null, loaded.code, loaded.message);
  const frame: Frame = {
    request,
    program: loaded.program,
    registers: new Array<bigint>(REGISTERS_PER_FRAME).fill(0n),
    pc: 0,
  };
  const { instructions, mana } = loaded.program;
  // Bounded: each pass charges the meter, which refuses past the mana limit and INSTRUCTIONS_PER_TX_MAX.
  while (frame.pc < instructions.length) {
    const instruction = instructions[frame.pc];
    const cost = mana[frame.pc];
    assert(instruction !== undefined && cost !== undefined, `instruction ${frame.pc} exists`);
    const refused = context.meter.charge(cost);
    if (refused !== undefined)
      return failure(request, frame.pc, refused, meterMessage(context.meter, refused, instruction.op, frame.pc, cost));
    const halted = WORLD_OPS.has(instruction.op)
      ? await stepWorld(context, frame, instruction as WorldInstruction)
      : stepFrame(frame, instruction as FrameInstruction);
    if (halted !== undefined) return halted;
  }
  return { success: true, returnValues: [] };
}

function meterMessage(meter: ManaMeter, refused: MeterFailure, op: OpName, pc: number, cost: number): string {
  if (refused === 'OUT_OF_GAS')
    return `${op} at ${pc} needs ${cost} mana, more than is left of the tx's ${meter.manaLimit} public mana`;
  return `${op} at ${pc}: the tx has executed its ${meter.instructionsMax} instructions`;
}

function read(frame: Frame, register: number): bigint {
  const value = frame.registers[register];
  assert(value !== undefined, `register r${register} exists (checked when the program was decoded)`);
  return value;
}

function readRange(frame: Frame, start: number, count: number): bigint[] {
  return frame.registers.slice(start, start + count);
}

/** Writes a register and moves to the next instruction. */
function write(frame: Frame, register: number, value: bigint): undefined {
  frame.registers[register] = value;
  frame.pc++;
  return undefined;
}

const truth = (value: boolean): bigint => (value ? 1n : 0n);

type BinaryOp = 'add' | 'sub' | 'mul' | 'div' | 'mod' | 'eq' | 'lt' | 'lte' | 'and' | 'or';

/** Binary operations on canonical field values; undefined means division by zero. */
const BINARY: Readonly<Record<BinaryOp, (a: bigint, b: bigint) => bigint | undefined>> = {
  add: (a, b) => toField(a + b),
  sub: (a, b) => toField(a - b),
  mul: (a, b) => toField(a * b),
  div: (a, b) => (b === 0n ? undefined : a / b),
  mod: (a, b) => (b === 0n ? undefined : a % b),
  eq: (a, b) => truth(a === b),
  lt: (a, b) => truth(a < b),
  lte: (a, b) => truth(a <= b),
  and: (a, b) => truth(a !== 0n && b !== 0n),
  or: (a, b) => truth(a !== 0n || b !== 0n),
};

const WORLD_OPS: ReadonlySet<OpName> = new Set([
  'sload',
  'sstore',
  'emitlog',
  'emitnotehash',
  'emitnullifier',
  'emitmessage',
  'call',
  'staticcall',
]);
type WorldOp =
  'sload' | 'sstore' | 'emitlog' | 'emitnotehash' | 'emitnullifier' | 'emitmessage' | 'call' | 'staticcall';
type WorldInstruction = { [Op in WorldOp]: InstructionOf<Op> }[WorldOp];
type FrameInstruction = { [Op in Exclude<OpName, WorldOp>]: InstructionOf<Op> }[Exclude<OpName, WorldOp>];

function stepBinary(frame: Frame, instruction: InstructionOf<BinaryOp>): CallResult | undefined {
  const result = BINARY[instruction.op](read(frame, instruction.a), read(frame, instruction.b));
  if (result === undefined)
    return failure(frame.request, frame.pc, 'DIVISION_BY_ZERO', `${instruction.op} by zero at ${frame.pc}`);
  write(frame, instruction.dst, result);
  return undefined;
}

/** Runs an instruction that touches only the frame; answers the call's result when it ends the frame. */
function stepFrame(frame: Frame, instruction: FrameInstruction): CallResult | undefined {
  switch (instruction.op) {
    case 'set':
      return write(frame, instruction.dst, instruction.value);
    case 'mov':
      return write(frame, instruction.dst, read(frame, instruction.src));
    case 'not':
      return write(frame, instruction.dst, truth(read(frame, instruction.a) === 0n));
    case 'jump':
      frame.pc = instruction.target;
      return undefined;
    case 'jumpi':
      frame.pc = read(frame, instruction.cond) !== 0n ? instruction.target : frame.pc + 1;
      return undefined;
    case 'calldatasize':
      return write(frame, instruction.dst, BigInt(frame.request.calldata.length));
    case 'calldataload':
      return stepCalldataLoad(frame, instruction);
    case 'sender':
      return write(frame, instruction.dst, hexToField(frame.request.msgSender));
    case 'address':
      return write(frame, instruction.dst, hexToField(frame.request.contractAddress));
    case 'hash':
      return write(
        frame,
        instruction.dst,
        hexToField(hashWords(readRange(frame, instruction.start, instruction.count).map(fieldToHex))),
      );
    case 'return':
      return { success: true, returnValues: readRange(frame, instruction.start, instruction.count) };
    case 'revert':
      return explicitRevert(frame, readRange(frame, instruction.start, instruction.count));
    default:
      return stepBinary(frame, instruction);
  }
}

function stepCalldataLoad(frame: Frame, instruction: InstructionOf<'calldataload'>): CallResult | undefined {
  const index = read(frame, instruction.index);
  const value = index < BigInt(frame.request.calldata.length) ? frame.request.calldata[Number(index)] : undefined;
  if (value === undefined) {
    return failure(
      frame.request,
      frame.pc,
      'CALLDATA_OUT_OF_RANGE',
      `calldata[${index}] is past the ${frame.request.calldata.length} calldata fields`,
    );
  }
  return write(frame, instruction.dst, value);
}

function explicitRevert(frame: Frame, data: readonly bigint[]): CallResult {
  const first = data[0];
  const text = first === undefined ? undefined : fieldToShortString(first);
  const message = text === undefined ? `reverted at ${frame.pc}` : `reverted at ${frame.pc}: ${text}`;
  return failure(frame.request, frame.pc, 'EXPLICIT_REVERT', message, data);
}

/** Runs an instruction that reads or writes the world, or calls out. */
async function stepWorld(
  context: ExecutionContext,
  frame: Frame,
  instruction: WorldInstruction,
): Promise<CallResult | undefined> {
  if (instruction.op === 'call' || instruction.op === 'staticcall') return stepCall(context, frame, instruction);
  if (instruction.op === 'sload') {
    const leafSlot = publicDataLeafSlot(frame.request.contractAddress, fieldToHex(read(frame, instruction.slot)));
    return write(frame, instruction.dst, hexToField(await context.journal.storageRead(leafSlot)));
  }
  if (frame.request.isStaticCall) {
    return failure(frame.request, frame.pc, 'STATIC_CALL_WRITE', `${instruction.op} at ${frame.pc} in a static call`);
  }
  const refused = await applyWrite(context.journal, frame, instruction);
  if (refused !== undefined) return failure(frame.request, frame.pc, refused.code, refused.message);
  frame.pc++;
  return undefined;
}

type WriteInstruction = Exclude<
  WorldInstruction,
  InstructionOf<'sload'> | InstructionOf<'call'> | InstructionOf<'staticcall'>
>;

/** A storage write or an emit of the running contract; answers why it was refused, if it was. */
async function applyWrite(
  journal: StateJournal,
  frame: Frame,
  instruction: WriteInstruction,
): Promise<{ code: VmRevertCode; message: string } | undefined> {
  const contract = frame.request.contractAddress;
  const at = `${instruction.op} at ${frame.pc}`;
  let refused: VmRevertCode | undefined;
  switch (instruction.op) {
    case 'sstore': {
      const leafSlot = publicDataLeafSlot(contract, fieldToHex(read(frame, instruction.slot)));
      refused = journal.storageWrite(leafSlot, fieldToHex(read(frame, instruction.value)));
      break;
    }
    case 'emitnotehash':
      refused = journal.emitNoteHash(siloNoteHash(contract, fieldToHex(read(frame, instruction.value))));
      break;
    case 'emitnullifier':
      refused = await journal.emitNullifier(siloNullifier(contract, fieldToHex(read(frame, instruction.value))));
      break;
    case 'emitmessage': {
      const recipient = read(frame, instruction.recipient);
      if (recipient > ETH_ADDRESS_MAX)
        return { code: 'INVALID_RECIPIENT', message: `${at}: recipient ${fieldToHex(recipient)} is not an EthAddress` };
      refused = journal.emitL2ToL1Message(
        l2ToL1MessageHash(fieldToHex(recipient), fieldToHex(read(frame, instruction.content))),
      );
      break;
    }
    case 'emitlog': {
      const fields = readRange(frame, instruction.start, instruction.count).map(fieldToHex);
      refused = journal.emitPublicLog({
        contractAddress: contract,
        tag: fieldToHex(read(frame, instruction.tag)),
        fields,
      });
      break;
    }
  }
  return refused === undefined ? undefined : { code: refused, message: at };
}

async function stepCall(
  context: ExecutionContext,
  frame: Frame,
  instruction: InstructionOf<'call' | 'staticcall'>,
): Promise<undefined> {
  const result = await executeCall(context, {
    contractAddress: fieldToHex(read(frame, instruction.address)),
    msgSender: frame.request.contractAddress,
    isStaticCall: frame.request.isStaticCall || instruction.op === 'staticcall',
    calldata: readRange(frame, instruction.argsStart, instruction.argsCount),
    depth: frame.request.depth + 1,
  });
  const returned = result.success ? result.returnValues : [];
  for (let i = 0; i < instruction.retCount; i++) frame.registers[instruction.retStart + i] = returned[i] ?? 0n;
  write(frame, instruction.success, truth(result.success));
  return undefined;
}
