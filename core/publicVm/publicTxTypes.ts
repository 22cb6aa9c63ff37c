/**
 * Inputs and outcomes of a tx's public execution (phaseExecutor.ts). The input types list only the fields execution
 * reads, so a wire `TxValue` (spec/wire/tx.ts) is accepted as it is.
 */
import type {
  ContractClassPublication,
  ContractInstancePublication,
  ExecutionResult,
  GasFees,
  Hex,
  PrivateLog,
  TxEffect,
} from '../../spec/chain.js';
import type { VmRevertCode } from '../../spec/vm/revertCodes.js';
import type { VmRevert } from './interpreter.js';
import type { PublicSimulationOverrides, PublicStateView } from './stateView.js';

export type PublicPhase = 'setup' | 'appLogic' | 'teardown';

export interface PublicCallInput {
  readonly contractAddress: Hex;
  readonly msgSender: Hex;
  readonly isStaticCall: boolean;
  /** calldata[0] is the function selector. */
  readonly calldata: readonly Hex[];
}

export interface Gas {
  readonly daGas: number;
  readonly l2Gas: number;
}

export interface PublicTxInput {
  readonly txHash: Hex;
  readonly feePayer: Hex;
  readonly gasSettings: { readonly gasLimits: Gas; readonly maxFeesPerGas: GasFees };
  readonly sideEffects: {
    readonly contractClassPublications: readonly ContractClassPublication[];
    readonly contractInstancePublications: readonly ContractInstancePublication[];
    readonly nullifiers: readonly Hex[];
    readonly noteHashes: readonly Hex[];
    readonly privateLogs: readonly PrivateLog[];
    readonly l2ToL1Messages: readonly { readonly recipient: Hex; readonly content: Hex }[];
  };
  readonly publicCalls: {
    readonly setup: readonly PublicCallInput[];
    readonly appLogic: readonly PublicCallInput[];
    readonly teardown: PublicCallInput | null;
  };
}

export interface PublicTxExecutionInput {
  readonly tx: PublicTxInput;
  /** The block's fees per gas: what the tx pays per unit of mana and DA gas. */
  readonly gasFees: GasFees;
  /** The fee asset contract, whose storage holds fee payer balances (spec/vm/storageSlots.ts). */
  readonly feeAsset: Hex;
  /** The world before the tx (for a block's later txs: with the earlier txs' effects overlaid). */
  readonly state: PublicStateView;
  /** Skip the fee checks: max fees against the block's fees, and the payer's balance against the fee. */
  readonly skipFeeEnforcement?: boolean;
}

export interface PublicSimulationInput extends PublicTxExecutionInput {
  readonly overrides?: PublicSimulationOverrides;
}

/** How one public call of the tx went. A call after a reverted one in the same phase is skipped. */
export interface PublicCallOutcome {
  readonly phase: PublicPhase;
  readonly contractAddress: Hex;
  readonly status: 'success' | 'reverted' | 'skipped';
  readonly returnValues: readonly Hex[];
  readonly manaUsed: number;
  readonly revert: VmRevert | null;
}

/** Why a phase reverted: a call's revert, or its effects going over the DA gas limit (callIndex null). */
export interface PhaseRevert {
  readonly phase: PublicPhase;
  readonly callIndex: number | null;
  readonly code: VmRevertCode;
  /** `<phase> call <i> to <address>: <code>: <message>`; the revert reason served to users. */
  readonly reason: string;
  readonly revert: VmRevert | null;
}

/** A tx that cannot be included: nothing it did is kept and it pays nothing. */
export type PublicTxInvalid = { readonly kind: 'invalid'; readonly reason: string } & (
  | {
      readonly code: 'L2_GAS_LIMIT_BELOW_BASE';
      readonly details: { readonly l2GasLimit: number; readonly baseMana: number };
    }
  | {
      readonly code: 'MAX_FEE_BELOW_BLOCK_FEE';
      readonly details: { readonly maxFeesPerGas: GasFees; readonly gasFees: GasFees };
    }
  | { readonly code: 'SETUP_REVERTED'; readonly details: PhaseRevert }
  | {
      readonly code: 'DA_GAS_LIMIT_EXCEEDED';
      readonly details: { readonly daGasUsed: number; readonly daGasLimit: number };
    }
  | {
      readonly code: 'INSUFFICIENT_FEE_PAYER_BALANCE';
      readonly details: { readonly feePayer: Hex; readonly balance: bigint; readonly transactionFee: bigint };
    }
);

export type PublicTxInvalidCode = PublicTxInvalid['code'];

/** A tx that can be mined, possibly with reverted phases; it pays `transactionFee`. */
export interface PublicTxExecuted {
  readonly kind: 'executed';
  readonly effect: TxEffect;
  readonly executionResult: ExecutionResult;
  readonly transactionFee: bigint;
  /** totalGas: everything the tx used (l2Gas includes TX_BASE_MANA); publicGas: the public calls' share. */
  readonly gasUsed: { readonly totalGas: Gas; readonly publicGas: Gas };
  /** Setup calls, then app logic calls, then the teardown call. */
  readonly calls: readonly PublicCallOutcome[];
  readonly reverts: readonly PhaseRevert[];
  /** The reverts' reasons joined by "; ", or null when nothing reverted. */
  readonly revertReason: string | null;
}

export type PublicTxOutcome = PublicTxInvalid | PublicTxExecuted;
