/**
 * Programs of the contracts one tx calls, decoded once per class. An address resolves to its class through the
 * state view (instance -> current class id), the class to its packed bytecode, the bytecode to a checked program with
 * each instruction's mana computed up front. Failures are answers, not exceptions: a call to a contract that is not
 * there, or whose bytecode does not decode, reverts that call.
 */
import type { Hex } from '../../spec/chain.js';
import { CodecError } from '../../spec/codec/bytes.js';
import type { Program } from '../../spec/vm/bytecode.js';
import { decodeProgram } from '../../spec/vm/bytecode.js';
import { instructionMana } from '../../spec/vm/instructionSet.js';
import type { PublicStateView } from './stateView.js';

export interface LoadedProgram {
  readonly instructions: Program;
  /** Mana of each instruction, by index. */
  readonly mana: readonly number[];
}

export type ProgramLoad =
  | { readonly ok: true; readonly program: LoadedProgram }
  | { readonly ok: false; readonly code: 'CONTRACT_NOT_FOUND' | 'BYTECODE_INVALID'; readonly message: string };

/** Decodes bytecode into a program with its mana table; a decoding failure is an answer. */
export function loadProgram(bytecode: Uint8Array): ProgramLoad {
  try {
    const instructions = decodeProgram(bytecode);
    return { ok: true, program: { instructions, mana: instructions.map(instructionMana) } };
  } catch (error) {
    if (error instanceof CodecError) return { ok: false, code: 'BYTECODE_INVALID', message: error.message };
    throw error;
  }
}

/**
 * One tx's cache. It holds at most one entry per class the tx loads; each load is a call, which the tx's mana and
 * INSTRUCTIONS_PER_TX_MAX bound.
 */
export class ProgramCache {
  private readonly byClass = new Map<Hex, ProgramLoad>();

  constructor(private readonly state: PublicStateView) {}

  async load(address: Hex): Promise<ProgramLoad> {
    const classId = await this.state.contractClassId(address);
    if (classId === undefined)
      return { ok: false, code: 'CONTRACT_NOT_FOUND', message: `no contract instance at ${address}` };
    const cached = this.byClass.get(classId);
    if (cached !== undefined) return cached;
    const bytecode = await this.state.contractClassBytecode(classId);
    const loaded: ProgramLoad =
      bytecode === undefined
        ? {
            ok: false,
            code: 'CONTRACT_NOT_FOUND',
            message: `the instance at ${address} points to unknown class ${classId}`,
          }
        : loadProgram(bytecode);
    this.byClass.set(classId, loaded);
    return loaded;
  }
}
