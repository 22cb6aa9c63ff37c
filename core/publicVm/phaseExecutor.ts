/**
 * A tx's public execution, phase by phase, and its fee. Pure: reads go through the state view, writes and emits
 * into the tx's journal; the caller applies the returned effect.
 *
 * 1. Checks before running: gasLimits.l2Gas covers TX_BASE_MANA; the tx's max fees per gas cover the block's fees
 *    (skipped with skipFeeEnforcement). Failing either, the tx is invalid.
 * 2. Setup calls, in order. A revert (out of mana included) makes the tx invalid (SETUP_REVERTED); so do effects
 *    that, with the tx's private side effects, already exceed gasLimits.daGas (DA_GAS_LIMIT_EXCEEDED).
 * 3. App logic calls, in order. The first revert stops the phase (later calls are skipped) and drops everything
 *    app logic wrote or emitted; effects pushing the tx over gasLimits.daGas count as a revert
 *    (DA_GAS_LIMIT_EXCEEDED). The tx is still mined and pays.
 * 4. The teardown call, if any, under the same rule; it runs whether app logic reverted or not.
 * 5. The fee: manaUsed = TX_BASE_MANA + the mana of every phase (reverted ones included; never above
 *    gasLimits.l2Gas, since the meter stops there), daGasUsed from the final effect's size, transactionFee at the
 *    block's fees. It is taken from the fee payer's balance in the fee asset's storage, as it stands after teardown
 *    (so setup can fund it). A balance below the fee makes the tx invalid (INSUFFICIENT_FEE_PAYER_BALANCE), unless
 *    skipFeeEnforcement, where the balance becomes zero. The balance write is always part of the effect, even for a
 *    zero fee, so a tx's DA gas does not depend on the fee.
 *
 * Non-revertible: the tx's private side effects (nullifiers, note hashes, L2-to-L1 messages, private logs) and
 * setup's effects stay whatever the later phases do. The tx's own contract publications are callable in every
 * phase. Execution results: success, appLogicReverted, teardownReverted, bothReverted.
 */
import type { ExecutionResult, Hex } from '../../spec/chain.js';
import {
  L2_TO_L1_MESSAGES_PER_TX_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PRIVATE_LOGS_PER_TX_MAX,
  PUBLIC_DATA_WRITES_PER_TX_MAX,
  PUBLIC_LOGS_PER_TX_MAX,
} from '../../spec/constants.js';
import { fieldToHex, hexToField } from '../../spec/vm/field.js';
import { feePayerBalanceSlot } from '../../spec/vm/storageSlots.js';
import { INSTRUCTIONS_PER_TX_MAX, TX_BASE_MANA } from '../../spec/vm/vmConstants.js';
import { assert } from '../assert.js';
import type { ExecutionContext } from './interpreter.js';
import { executeCall } from './interpreter.js';
import { StateJournal } from './journal.js';
import { ManaMeter } from './manaMeter.js';
import { ProgramCache } from './programCache.js';
import type {
  PhaseRevert,
  PublicCallInput,
  PublicCallOutcome,
  PublicPhase,
  PublicTxExecuted,
  PublicTxExecutionInput,
  PublicTxInvalid,
  PublicTxOutcome,
} from './publicTxTypes.js';
import { overlayOfPublications, overlayPublicState } from './stateView.js';
import {
  assembleTxEffect,
  daGasOf,
  daGasWith,
  noPublicEffects,
  publicEffectsOf,
  transactionFeeOf,
} from './txEffectAssembly.js';

interface TxRun {
  readonly input: PublicTxExecutionInput;
  readonly context: ExecutionContext;
  readonly feeSlot: Hex;
}

interface PhaseResult {
  readonly calls: readonly PublicCallOutcome[];
  readonly revert: PhaseRevert | null;
}

/** Runs a tx's public phases and charges its fee; the outcome is invalid, or an effect to mine. */
export async function executePublicTx(input: PublicTxExecutionInput): Promise<PublicTxOutcome> {
  const refused = checkBeforeExecution(input);
  if (refused !== undefined) return refused;
  const run = startRun(input);
  const { publicCalls } = input.tx;
  const setup = await runPhase(run, 'setup', publicCalls.setup);
  if (setup.revert !== null)
    return { kind: 'invalid', code: 'SETUP_REVERTED', reason: setup.revert.reason, details: setup.revert };
  const daGasLimit = input.tx.gasSettings.gasLimits.daGas;
  const daGasUsed = daGasWith(input.tx, publicEffectsOf(run.context.journal, run.feeSlot));
  if (daGasUsed > daGasLimit) {
    const reason = `the tx's non-revertible effects need ${daGasUsed} DA gas, above its limit of ${daGasLimit}`;
    return { kind: 'invalid', code: 'DA_GAS_LIMIT_EXCEEDED', reason, details: { daGasUsed, daGasLimit } };
  }
  const appLogic = await runRevertiblePhase(run, 'appLogic', publicCalls.appLogic);
  const teardown = await runRevertiblePhase(
    run,
    'teardown',
    publicCalls.teardown === null ? [] : [publicCalls.teardown],
  );
  return settle(run, [setup, appLogic, teardown]);
}

function checkBeforeExecution({
  tx,
  gasFees,
  skipFeeEnforcement,
}: PublicTxExecutionInput): PublicTxInvalid | undefined {
  const { gasLimits, maxFeesPerGas } = tx.gasSettings;
  if (gasLimits.l2Gas < TX_BASE_MANA) {
    const reason = `the tx's L2 gas limit ${gasLimits.l2Gas} is below the base mana of ${TX_BASE_MANA}`;
    return {
      kind: 'invalid',
      code: 'L2_GAS_LIMIT_BELOW_BASE',
      reason,
      details: { l2GasLimit: gasLimits.l2Gas, baseMana: TX_BASE_MANA },
    };
  }
  const feesCovered =
    maxFeesPerGas.feePerL2Gas >= gasFees.feePerL2Gas && maxFeesPerGas.feePerDaGas >= gasFees.feePerDaGas;
  if (!feesCovered && skipFeeEnforcement !== true) {
    const reason = `the tx's max fees per gas (L2 ${maxFeesPerGas.feePerL2Gas}, DA ${maxFeesPerGas.feePerDaGas}) are below the block's (L2 ${gasFees.feePerL2Gas}, DA ${gasFees.feePerDaGas})`;
    return { kind: 'invalid', code: 'MAX_FEE_BELOW_BLOCK_FEE', reason, details: { maxFeesPerGas, gasFees } };
  }
  return undefined;
}

function startRun(input: PublicTxExecutionInput): TxRun {
  const { sideEffects, gasSettings, feePayer } = input.tx;
  assert(
    sideEffects.noteHashes.length <= NOTE_HASHES_PER_TX_MAX &&
      sideEffects.nullifiers.length <= NULLIFIERS_PER_TX_MAX &&
      sideEffects.l2ToL1Messages.length <= L2_TO_L1_MESSAGES_PER_TX_MAX &&
      sideEffects.privateLogs.length <= PRIVATE_LOGS_PER_TX_MAX,
    "a tx's private side effects are within the per-tx bounds (checked at the wire edge)",
  );
  const state = overlayPublicState(input.state, overlayOfPublications(sideEffects));
  const feeSlot = feePayerBalanceSlot(input.feeAsset, feePayer);
  const capacity = {
    noteHashes: NOTE_HASHES_PER_TX_MAX - sideEffects.noteHashes.length,
    nullifiers: NULLIFIERS_PER_TX_MAX - sideEffects.nullifiers.length,
    l2ToL1Messages: L2_TO_L1_MESSAGES_PER_TX_MAX - sideEffects.l2ToL1Messages.length,
    publicLogs: PUBLIC_LOGS_PER_TX_MAX,
    publicDataWrites: PUBLIC_DATA_WRITES_PER_TX_MAX,
  };
  const journal = new StateJournal(state, capacity, new Set(sideEffects.nullifiers), feeSlot);
  const meter = new ManaMeter(gasSettings.gasLimits.l2Gas - TX_BASE_MANA, INSTRUCTIONS_PER_TX_MAX);
  return { input, context: { journal, meter, programs: new ProgramCache(state) }, feeSlot };
}

/** Runs a phase's calls in order; the first revert stops the phase (its own frames' effects already dropped). */
async function runPhase(run: TxRun, phase: PublicPhase, calls: readonly PublicCallInput[]): Promise<PhaseResult> {
  const outcomes: PublicCallOutcome[] = [];
  let revert: PhaseRevert | null = null;
  // Bounded by the tx's calls (PUBLIC_CALLS_PER_TX_MAX at the wire edge).
  for (const [callIndex, call] of calls.entries()) {
    if (revert !== null) {
      outcomes.push({
        phase,
        contractAddress: call.contractAddress,
        status: 'skipped',
        returnValues: [],
        manaUsed: 0,
        revert: null,
      });
      continue;
    }
    const manaBefore = run.context.meter.manaUsed;
    const result = await executeCall(run.context, { ...call, calldata: call.calldata.map(hexToField), depth: 0 });
    const manaUsed = run.context.meter.manaUsed - manaBefore;
    if (result.success) {
      outcomes.push({
        phase,
        contractAddress: call.contractAddress,
        status: 'success',
        returnValues: result.returnValues.map(fieldToHex),
        manaUsed,
        revert: null,
      });
      continue;
    }
    const { revert: vmRevert } = result;
    const reason = `${phase} call ${callIndex} to ${call.contractAddress}: ${vmRevert.code}: ${vmRevert.message}`;
    revert = { phase, callIndex, code: vmRevert.code, reason, revert: vmRevert };
    outcomes.push({
      phase,
      contractAddress: call.contractAddress,
      status: 'reverted',
      returnValues: [],
      manaUsed,
      revert: vmRevert,
    });
  }
  return { calls: outcomes, revert };
}

/** App logic or teardown: a revert, or effects above the DA gas limit, drop everything the phase did. */
async function runRevertiblePhase(
  run: TxRun,
  phase: PublicPhase,
  calls: readonly PublicCallInput[],
): Promise<PhaseResult> {
  const { journal } = run.context;
  const checkpoint = journal.checkpoint();
  const result = await runPhase(run, phase, calls);
  if (result.revert !== null) {
    journal.revertTo(checkpoint);
    return result;
  }
  const daGasLimit = run.input.tx.gasSettings.gasLimits.daGas;
  const daGasUsed = daGasWith(run.input.tx, publicEffectsOf(journal, run.feeSlot));
  if (daGasUsed <= daGasLimit) return result;
  journal.revertTo(checkpoint);
  const reason = `${phase}: DA_GAS_LIMIT_EXCEEDED: the phase's effects need ${daGasUsed} DA gas, above the tx's limit of ${daGasLimit}`;
  return {
    calls: result.calls,
    revert: { phase, callIndex: null, code: 'DA_GAS_LIMIT_EXCEEDED', reason, revert: null },
  };
}

function executionResultOf(appLogicReverted: boolean, teardownReverted: boolean): ExecutionResult {
  if (appLogicReverted) return teardownReverted ? 'bothReverted' : 'appLogicReverted';
  return teardownReverted ? 'teardownReverted' : 'success';
}

/** Charges the fee from the payer's balance and assembles the effect. */
async function settle(run: TxRun, phases: readonly PhaseResult[]): Promise<PublicTxOutcome> {
  const { input, context, feeSlot } = run;
  const { journal, meter } = context;
  const daGas = daGasWith(input.tx, publicEffectsOf(journal, feeSlot));
  const publicDaGas = daGas - daGasWith(input.tx, noPublicEffects(feeSlot));
  const totalGas = { l2Gas: TX_BASE_MANA + meter.manaUsed, daGas };
  assert(totalGas.l2Gas <= input.tx.gasSettings.gasLimits.l2Gas, 'the meter keeps mana within the L2 gas limit');
  const transactionFee = transactionFeeOf(totalGas, input.gasFees);
  const balance = hexToField(await journal.storageRead(feeSlot));
  if (balance < transactionFee && input.skipFeeEnforcement !== true) {
    const reason = `fee payer ${input.tx.feePayer} has a balance of ${balance}, below the transaction fee of ${transactionFee}`;
    return {
      kind: 'invalid',
      code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
      reason,
      details: { feePayer: input.tx.feePayer, balance, transactionFee },
    };
  }
  const written = journal.storageWrite(feeSlot, fieldToHex(balance >= transactionFee ? balance - transactionFee : 0n));
  assert(written === undefined, 'the balance slot is reserved in the write bound');
  const [, appLogic, teardown] = phases;
  assert(appLogic !== undefined && teardown !== undefined, 'three phases ran');
  const executionResult = executionResultOf(appLogic.revert !== null, teardown.revert !== null);
  const effect = assembleTxEffect(input.tx, publicEffectsOf(journal, feeSlot), executionResult, transactionFee);
  assert(daGasOf(effect) === daGas, 'the balance write does not change the effect size');
  const reverts = phases.flatMap((phase) => (phase.revert === null ? [] : [phase.revert]));
  const executed: PublicTxExecuted = {
    kind: 'executed',
    effect,
    executionResult,
    transactionFee,
    gasUsed: { totalGas, publicGas: { l2Gas: meter.manaUsed, daGas: publicDaGas } },
    calls: phases.flatMap((phase) => phase.calls),
    reverts,
    revertReason: reverts.length === 0 ? null : reverts.map((revert) => revert.reason).join('; '),
  };
  return executed;
}
