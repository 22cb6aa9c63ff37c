/**
 * Worlds, contracts and txs for the public VM's tests. Addresses are small field values (`address(n)`); a contract's
 * class id is the hash of its bytecode, so equal programs share a class.
 */
import type { CallResult, ExecutionContext } from '../../core/publicVm/interpreter.js';
import { executeCall } from '../../core/publicVm/interpreter.js';
import type { JournalCapacity } from '../../core/publicVm/journal.js';
import { StateJournal } from '../../core/publicVm/journal.js';
import { ManaMeter } from '../../core/publicVm/manaMeter.js';
import { ProgramCache } from '../../core/publicVm/programCache.js';
import type { PublicCallInput, PublicTxInput } from '../../core/publicVm/publicTxTypes.js';
import type { PublicStateView } from '../../core/publicVm/stateView.js';
import { memoryPublicState } from '../../core/publicVm/stateView.js';
import type { GasFees, Hex } from '../../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { hashToField } from '../../spec/hash.js';
import type { AsmItem } from '../../spec/vm/assembler.js';
import { assemble } from '../../spec/vm/assembler.js';
import { fieldToHex } from '../../spec/vm/field.js';
import { feePayerBalanceStorageSlot } from '../../spec/vm/storageSlots.js';
import { INSTRUCTIONS_PER_TX_MAX } from '../../spec/vm/vmConstants.js';

export const address = (n: number | bigint): Hex => fieldToHex(BigInt(n));
export const FEE_ASSET: Hex = PROTOCOL_CONTRACT_ADDRESSES.feeAsset;
export const ZERO_FEES: GasFees = { feePerDaGas: 0n, feePerL2Gas: 0n };
/** The contract most tests run, and the sender of their calls. */
export const CONTRACT = address(0x100);
export const SENDER = address(0x200);
export const PAYER = address(0x300);

export interface ContractSpec {
  readonly address: Hex;
  readonly items: readonly AsmItem[];
}

export interface WorldSpec {
  readonly contracts?: readonly ContractSpec[];
  /** Raw bytecode under an address (bad bytecode tests). */
  readonly rawContracts?: readonly { readonly address: Hex; readonly bytecode: Uint8Array }[];
  readonly storage?: readonly { readonly contractAddress: Hex; readonly slot: Hex; readonly value: Hex }[];
  readonly balances?: readonly { readonly payer: Hex; readonly amount: bigint }[];
  readonly nullifiers?: readonly Hex[];
}

export function world(spec: WorldSpec): PublicStateView {
  const raw = [
    ...(spec.contracts ?? []).map((c) => ({ address: c.address, bytecode: assemble(c.items) })),
    ...(spec.rawContracts ?? []),
  ];
  const balances = (spec.balances ?? []).map(({ payer, amount }) => ({
    contractAddress: FEE_ASSET,
    slot: feePayerBalanceStorageSlot(payer),
    value: fieldToHex(amount),
  }));
  return memoryPublicState({
    storage: [...(spec.storage ?? []), ...balances],
    nullifiers: spec.nullifiers ?? [],
    instances: raw.map((c) => ({ address: c.address, classId: hashToField(c.bytecode) })),
    classes: raw.map((c) => ({ classId: hashToField(c.bytecode), bytecode: c.bytecode })),
  });
}

export function callOf(
  contractAddress: Hex,
  calldata: readonly (bigint | number)[] = [],
  options: { sender?: Hex; isStaticCall?: boolean } = {},
): PublicCallInput {
  return {
    contractAddress,
    msgSender: options.sender ?? SENDER,
    isStaticCall: options.isStaticCall ?? false,
    calldata: calldata.map((value) => fieldToHex(BigInt(value))),
  };
}

export interface TxSpec {
  readonly setup?: readonly PublicCallInput[];
  readonly appLogic?: readonly PublicCallInput[];
  readonly teardown?: PublicCallInput | null;
  readonly l2Gas?: number;
  readonly daGas?: number;
  readonly maxFeesPerGas?: GasFees;
  readonly feePayer?: Hex;
  readonly nullifiers?: readonly Hex[];
  readonly noteHashes?: readonly Hex[];
  readonly l2ToL1Messages?: readonly { readonly recipient: Hex; readonly content: Hex }[];
  readonly privateLogs?: readonly { readonly tag: Hex; readonly fields: readonly Hex[] }[];
  readonly publications?: Pick<
    PublicTxInput['sideEffects'],
    'contractClassPublications' | 'contractInstancePublications'
  >;
}

export const L2_GAS_DEFAULT = 1_000_000;
export const DA_GAS_DEFAULT = 1_000_000;

export function makeTx(spec: TxSpec = {}): PublicTxInput {
  return {
    txHash: address(0xa11),
    feePayer: spec.feePayer ?? PAYER,
    gasSettings: {
      gasLimits: { l2Gas: spec.l2Gas ?? L2_GAS_DEFAULT, daGas: spec.daGas ?? DA_GAS_DEFAULT },
      maxFeesPerGas: spec.maxFeesPerGas ?? { feePerDaGas: 1_000n, feePerL2Gas: 1_000n },
    },
    sideEffects: {
      nullifiers: spec.nullifiers ?? [address(0xbeef)],
      noteHashes: spec.noteHashes ?? [],
      privateLogs: spec.privateLogs ?? [],
      l2ToL1Messages: spec.l2ToL1Messages ?? [],
      contractClassPublications: spec.publications?.contractClassPublications ?? [],
      contractInstancePublications: spec.publications?.contractInstancePublications ?? [],
    },
    publicCalls: { setup: spec.setup ?? [], appLogic: spec.appLogic ?? [], teardown: spec.teardown ?? null },
  };
}

/** A journal with generous capacities, reserving a slot no test writes. */
export function openJournal(state: PublicStateView, capacity: Partial<JournalCapacity> = {}): StateJournal {
  const full = { noteHashes: 64, nullifiers: 64, l2ToL1Messages: 8, publicLogs: 64, publicDataWrites: 64, ...capacity };
  return new StateJournal(state, full, new Set(), address(0xfee));
}

export interface SingleCallRun {
  readonly result: CallResult;
  readonly journal: StateJournal;
  readonly meter: ManaMeter;
}

export interface RunOptions {
  readonly calldata?: readonly (bigint | number)[];
  readonly isStaticCall?: boolean;
  readonly manaLimit?: number;
  readonly instructionsMax?: number;
  readonly capacity?: Partial<JournalCapacity>;
  /** Other contracts of the world. */
  readonly others?: readonly ContractSpec[];
  readonly spec?: WorldSpec;
}

/**
 * Runs `items` as CONTRACT's program in one top-level call, beside `others`, with its own journal and meter.
 */
export async function runProgram(items: readonly AsmItem[], options: RunOptions = {}): Promise<SingleCallRun> {
  const state = world({
    ...options.spec,
    contracts: [{ address: CONTRACT, items }, ...(options.others ?? []), ...(options.spec?.contracts ?? [])],
  });
  const journal = openJournal(state, options.capacity);
  const meter = new ManaMeter(options.manaLimit ?? L2_GAS_DEFAULT, options.instructionsMax ?? INSTRUCTIONS_PER_TX_MAX);
  const context: ExecutionContext = { journal, meter, programs: new ProgramCache(state) };
  const result = await executeCall(context, {
    contractAddress: CONTRACT,
    msgSender: SENDER,
    isStaticCall: options.isStaticCall ?? false,
    calldata: (options.calldata ?? []).map(BigInt),
    depth: 0,
  });
  return { result, journal, meter };
}

/** The return values of a successful run (fails the test otherwise). */
export function returned(run: SingleCallRun): readonly bigint[] {
  if (!run.result.success)
    throw new Error(`expected success, got ${run.result.revert.code}: ${run.result.revert.message}`);
  return run.result.returnValues;
}

/** The revert code of a reverted run (fails the test otherwise). */
export function revertCode(run: SingleCallRun): string {
  if (run.result.success) throw new Error('expected a revert, got success');
  return run.result.revert.code;
}
