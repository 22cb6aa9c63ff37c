import { describe, expect, test } from 'vitest';
import type { GasFees } from '../../spec/chain.js';
import { hashToField } from '../../spec/hash.js';
import { assemble } from '../../spec/vm/assembler.js';
import { fieldToHex } from '../../spec/vm/field.js';
import { feePayerBalanceStorageSlot } from '../../spec/vm/storageSlots.js';
import { COUNTER_SELECTORS as S, counterContract } from '../../test/publicVm/vmContracts.js';
import { address, callOf, CONTRACT, FEE_ASSET, makeTx, PAYER, world } from '../../test/publicVm/vmFixtures.js';
import { publicSimulationOutputOf, simulatePublicTx } from './simulation.js';

const FEES: GasFees = { feePerDaGas: 1n, feePerL2Gas: 1n };
const counter = { address: CONTRACT, items: counterContract() };

describe('public simulation', () => {
  test('storage overrides are read; nothing is written to the view', async () => {
    const state = world({ contracts: [counter], balances: [{ payer: PAYER, amount: 10n ** 20n }] });
    const tx = makeTx({ appLogic: [callOf(CONTRACT, [S.increment])] });
    const overrides = { publicStorage: [{ contractAddress: CONTRACT, slot: fieldToHex(0n), value: fieldToHex(41n) }] };
    const outcome = await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state, overrides });
    expect(outcome.kind).toBe('executed');
    if (outcome.kind !== 'executed') return;
    const output = publicSimulationOutputOf(outcome);
    expect(output.publicReturnValues).toEqual([[fieldToHex(42n)]]);
    expect(output.executionResult).toBe('success');
    expect(output.gasUsed).toEqual(outcome.gasUsed);
    const again = await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state });
    expect(again.kind === 'executed' && again.calls[0]?.returnValues).toEqual([fieldToHex(1n)]);
  });

  test('an instance override points an address at another class', async () => {
    const bytecode = assemble(counterContract());
    const classId = hashToField(bytecode);
    const other = address(0x777);
    const state = world({ contracts: [counter], balances: [{ payer: PAYER, amount: 10n ** 20n }] });
    const tx = makeTx({ appLogic: [callOf(other, [S.increment])] });
    const plain = await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state });
    expect(plain.kind === 'executed' && plain.executionResult).toBe('appLogicReverted');
    const overrides = { contractInstances: [{ address: other, currentContractClassId: classId }] };
    const overridden = await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state, overrides });
    expect(overridden.kind === 'executed' && overridden.executionResult).toBe('success');
  });

  test('skipFeeEnforcement runs a tx whose payer cannot pay', async () => {
    const state = world({ contracts: [counter] });
    const tx = makeTx({ appLogic: [callOf(CONTRACT, [S.increment])] });
    expect((await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state })).kind).toBe('invalid');
    const skipped = await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state, skipFeeEnforcement: true });
    expect(skipped.kind).toBe('executed');
    // A balance given by override is what the fee is charged against.
    const funded = {
      publicStorage: [
        { contractAddress: FEE_ASSET, slot: feePayerBalanceStorageSlot(PAYER), value: fieldToHex(10n ** 9n) },
      ],
    };
    expect((await simulatePublicTx({ tx, gasFees: FEES, feeAsset: FEE_ASSET, state, overrides: funded })).kind).toBe(
      'executed',
    );
  });
});
