/**
 * svc_simulatePublicCalls: a tx's public execution on an ephemeral fork. The overrides (storage values by contract
 * and slot, contract instances pointing to other classes) are layered over the state view and vanish with the
 * simulation; nothing is written anywhere. `skipFeeEnforcement` skips the max-fee and balance checks, as it does
 * for a real execution.
 */
import type { ExecutionResult, Hex } from '../../spec/chain.js';
import { executePublicTx } from './phaseExecutor.js';
import type { Gas, PublicSimulationInput, PublicTxExecuted, PublicTxOutcome } from './publicTxTypes.js';
import { overlayOfSimulationOverrides, overlayPublicState } from './stateView.js';

export async function simulatePublicTx(input: PublicSimulationInput): Promise<PublicTxOutcome> {
  const { overrides, ...execution } = input;
  const state =
    overrides === undefined ? input.state : overlayPublicState(input.state, overlayOfSimulationOverrides(overrides));
  return executePublicTx({ ...execution, state });
}

/** The wire's PublicSimulationOutput, from an executed simulation. */
export interface PublicSimulationOutputValue {
  readonly executionResult: ExecutionResult;
  readonly gasUsed: { readonly totalGas: Gas; readonly publicGas: Gas };
  /** One entry per public call: setup, app logic, teardown; empty for a reverted or skipped call. */
  readonly publicReturnValues: readonly (readonly Hex[])[];
}

export function publicSimulationOutputOf(outcome: PublicTxExecuted): PublicSimulationOutputValue {
  return {
    executionResult: outcome.executionResult,
    gasUsed: outcome.gasUsed,
    publicReturnValues: outcome.calls.map((call) => call.returnValues),
  };
}
