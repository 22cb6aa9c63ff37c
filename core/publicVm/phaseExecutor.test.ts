import { describe, expect, test } from 'vitest';
import type { GasFees, Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeTxEffects } from '../../spec/codec/txEffect.js';
import {
  L2_TO_L1_MESSAGES_PER_TX_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PRIVATE_LOGS_PER_TX_MAX,
} from '../../spec/constants.js';
import { hashToField } from '../../spec/hash.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { assemble } from '../../spec/vm/assembler.js';
import { fieldToHex, hexToField, shortStringToField } from '../../spec/vm/field.js';
import {
  feePayerBalanceSlot,
  l2ToL1MessageHash,
  publicDataLeafSlot,
  siloNullifier,
} from '../../spec/vm/storageSlots.js';
import { DA_GAS_PER_BYTE, TX_BASE_MANA } from '../../spec/vm/vmConstants.js';
import {
  COUNTER_SELECTORS as S,
  counterContract,
  FEE_ASSET_SELECTORS,
  feeAssetContract,
} from '../../test/publicVm/vmContracts.js';
import type { ContractSpec, TxSpec, WorldSpec } from '../../test/publicVm/vmFixtures.js';
import {
  address,
  callOf,
  CONTRACT,
  FEE_ASSET,
  makeTx,
  PAYER,
  world,
  ZERO_FEES,
} from '../../test/publicVm/vmFixtures.js';
import { executePublicTx } from './phaseExecutor.js';
import type { PublicTxExecuted, PublicTxInput, PublicTxInvalid, PublicTxOutcome } from './publicTxTypes.js';

const FEES: GasFees = { feePerDaGas: 2n, feePerL2Gas: 3n };
const RICH = 10n ** 30n;
const counterWorld = (extra: WorldSpec = {}): WorldSpec => ({
  ...extra,
  contracts: [{ address: CONTRACT, items: counterContract() }, ...(extra.contracts ?? [])],
  balances: extra.balances ?? [{ payer: PAYER, amount: RICH }],
});

async function execute(
  tx: TxSpec,
  spec: WorldSpec = counterWorld(),
  options: { gasFees?: GasFees; skipFeeEnforcement?: boolean } = {},
): Promise<PublicTxOutcome> {
  return executePublicTx({
    tx: makeTx(tx),
    gasFees: options.gasFees ?? FEES,
    feeAsset: FEE_ASSET,
    state: world(spec),
    skipFeeEnforcement: options.skipFeeEnforcement,
  });
}

function executed(outcome: PublicTxOutcome): PublicTxExecuted {
  if (outcome.kind !== 'executed') throw new Error(`expected an executed tx, got ${outcome.code}: ${outcome.reason}`);
  return outcome;
}

function invalid(outcome: PublicTxOutcome): PublicTxInvalid {
  if (outcome.kind !== 'invalid') throw new Error(`expected an invalid tx, got ${outcome.executionResult}`);
  return outcome;
}

const counterSlot = (slot: bigint): Hex => publicDataLeafSlot(CONTRACT, fieldToHex(slot));
const balanceSlot = feePayerBalanceSlot(FEE_ASSET, PAYER);
const inc = () => callOf(CONTRACT, [S.increment]);
const fail = () => callOf(CONTRACT, [S.fail]);

describe('phase executor: a successful tx', () => {
  test('effects, return values, gas and the fee taken from the balance', async () => {
    const result = executed(await execute({ appLogic: [inc(), inc()] }));
    expect(result.executionResult).toBe('success');
    expect(result.revertReason).toBeNull();
    expect(result.calls.map((c) => [c.phase, c.status, c.returnValues])).toEqual([
      ['appLogic', 'success', [fieldToHex(1n)]],
      ['appLogic', 'success', [fieldToHex(2n)]],
    ]);
    const { totalGas, publicGas } = result.gasUsed;
    expect(totalGas.l2Gas).toBe(TX_BASE_MANA + publicGas.l2Gas);
    expect(publicGas.l2Gas).toBe(result.calls.reduce((sum, c) => sum + c.manaUsed, 0));
    expect(totalGas.daGas).toBe(encodeTxEffects([result.effect]).length * DA_GAS_PER_BYTE);
    expect(result.transactionFee).toBe(BigInt(totalGas.l2Gas) * 3n + BigInt(totalGas.daGas) * 2n);
    expect(result.effect.transactionFee).toBe(result.transactionFee);
    expect(result.effect.publicDataWrites).toEqual([
      { leafSlot: counterSlot(0n), value: fieldToHex(2n) },
      { leafSlot: balanceSlot, value: fieldToHex(RICH - result.transactionFee) },
    ]);
    expect(result.effect.publicLogs.map((log) => log.fields)).toEqual([[fieldToHex(1n)], [fieldToHex(2n)]]);
    expect(result.effect.nullifiers).toEqual([address(0xbeef)]);
  });

  test('a tx with no public calls pays base mana and its DA gas, and still writes the balance', async () => {
    const result = executed(await execute({}));
    expect(result.gasUsed.totalGas.l2Gas).toBe(TX_BASE_MANA);
    expect(result.gasUsed.publicGas).toEqual({ l2Gas: 0, daGas: 0 });
    expect(result.effect.publicDataWrites).toEqual([
      { leafSlot: balanceSlot, value: fieldToHex(RICH - result.transactionFee) },
    ]);
  });

  test('only the last write per leaf slot is kept, in first-write order', async () => {
    const result = executed(await execute({ setup: [inc()], appLogic: [inc(), inc()] }));
    expect(result.effect.publicDataWrites.map((w) => w.leafSlot)).toEqual([counterSlot(0n), balanceSlot]);
    expect(result.effect.publicDataWrites[0]?.value).toBe(fieldToHex(3n));
  });

  test("the tx's private side effects come first; messages become their hashes", async () => {
    const recipient: Hex = `0x${'ab'.repeat(20)}`;
    const tx = {
      noteHashes: [address(0x11)],
      l2ToL1Messages: [{ recipient, content: address(0x22) }],
      privateLogs: [{ tag: address(0x33), fields: [address(0x44)] }],
      appLogic: [callOf(CONTRACT, [S.nullify, 5])],
    };
    const effect = executed(await execute(tx)).effect;
    expect(effect.noteHashes).toEqual([address(0x11)]);
    expect(effect.nullifiers).toEqual([address(0xbeef), siloNullifier(CONTRACT, fieldToHex(5n))]);
    expect(effect.l2ToL1Messages).toEqual([l2ToL1MessageHash(recipient, address(0x22))]);
    expect(effect.privateLogs).toEqual([{ tag: address(0x33), fields: [address(0x44)] }]);
  });

  test('public code may not emit a nullifier the tx already emits privately', async () => {
    const own = siloNullifier(CONTRACT, fieldToHex(5n));
    const result = executed(await execute({ nullifiers: [own], appLogic: [callOf(CONTRACT, [S.nullify, 5])] }));
    expect(result.executionResult).toBe('appLogicReverted');
    expect(result.reverts[0]?.code).toBe('DUPLICATE_NULLIFIER');
  });

  test("the tx's own contract publications are callable", async () => {
    const bytecode = assemble(counterContract());
    const classId = hashToField(bytecode);
    const fresh = address(0x999);
    const publications = {
      contractClassPublications: [
        {
          id: classId,
          version: 1,
          artifactHash: classId,
          privateFunctionsRoot: classId,
          publicBytecodeCommitment: classId,
          packedBytecode: bytesToHex(bytecode),
        },
      ],
      contractInstancePublications: [
        {
          address: fresh,
          version: 1,
          salt: classId,
          deployer: fresh,
          currentContractClassId: classId,
          originalContractClassId: classId,
          initializationHash: classId,
          publicKeysHash: classId,
        },
      ],
    };
    const result = executed(
      await execute(
        { publications, appLogic: [callOf(fresh, [S.increment])] },
        { balances: [{ payer: PAYER, amount: RICH }] },
      ),
    );
    expect(result.executionResult).toBe('success');
  });

  test('a wire TxValue is an executable input', () => {
    const accepts = (tx: TxValue): PublicTxInput => tx;
    expect(typeof accepts).toBe('function');
  });
});

describe('phase executor: reverts', () => {
  test('a setup revert makes the tx invalid, with the reason', async () => {
    const outcome = invalid(await execute({ setup: [inc(), fail()], appLogic: [inc()] }));
    expect(outcome.code).toBe('SETUP_REVERTED');
    expect(outcome.reason).toMatch(/^setup call 1 to 0x0+100: EXPLICIT_REVERT: reverted at \d+: fail$/);
  });

  test('an app logic revert drops all app logic effects, skips its later calls, keeps setup, and pays', async () => {
    const result = executed(
      await execute({ setup: [inc()], appLogic: [inc(), fail(), inc()], teardown: callOf(CONTRACT, [S.get]) }),
    );
    expect(result.executionResult).toBe('appLogicReverted');
    expect(result.calls.map((c) => c.status)).toEqual(['success', 'success', 'reverted', 'skipped', 'success']);
    expect(result.calls[4]?.returnValues).toEqual([fieldToHex(1n)]); // teardown sees setup's write, not app logic's
    expect(result.effect.publicDataWrites.map((w) => [w.leafSlot, w.value])).toEqual([
      [counterSlot(0n), fieldToHex(1n)],
      [balanceSlot, fieldToHex(RICH - result.transactionFee)],
    ]);
    expect(result.effect.noteHashes).toEqual([]);
    expect(result.effect.publicLogs).toHaveLength(1);
    expect(result.transactionFee).toBeGreaterThan(0n);
    expect(result.revertReason).toMatch(/^appLogic call 1 to 0x0+100: EXPLICIT_REVERT: reverted at \d+: fail$/);
    expect(result.effect.executionResult).toBe('appLogicReverted');
  });

  test('a teardown revert drops only teardown effects', async () => {
    const result = executed(await execute({ appLogic: [inc()], teardown: fail() }));
    expect(result.executionResult).toBe('teardownReverted');
    expect(result.effect.publicDataWrites[0]).toEqual({ leafSlot: counterSlot(0n), value: fieldToHex(1n) });
  });

  test('both phases reverting is bothReverted, with both reasons', async () => {
    const result = executed(await execute({ appLogic: [fail()], teardown: fail() }));
    expect(result.executionResult).toBe('bothReverted');
    expect(result.reverts.map((r) => r.phase)).toEqual(['appLogic', 'teardown']);
    expect(result.revertReason?.split('; ')).toHaveLength(2);
  });

  test('a call to an address with no contract reverts its phase', async () => {
    const result = executed(await execute({ appLogic: [callOf(address(0x404), [1])] }));
    expect(result.reverts[0]?.code).toBe('CONTRACT_NOT_FOUND');
  });
});

describe('phase executor: gas', () => {
  test('out of mana in app logic reverts it; the tx pays its whole L2 gas limit', async () => {
    const l2Gas = TX_BASE_MANA + 50_000;
    const result = executed(await execute({ l2Gas, appLogic: [inc(), callOf(CONTRACT, [S.burn])], teardown: inc() }));
    expect(result.executionResult).toBe('bothReverted');
    expect(result.reverts.map((r) => r.code)).toEqual(['OUT_OF_GAS', 'OUT_OF_GAS']);
    expect(result.gasUsed.totalGas.l2Gas).toBe(l2Gas);
    expect(result.transactionFee).toBe(BigInt(l2Gas) * 3n + BigInt(result.gasUsed.totalGas.daGas) * 2n);
  });

  test('out of mana in setup makes the tx invalid', async () => {
    expect(invalid(await execute({ setup: [callOf(CONTRACT, [S.burn])] })).code).toBe('SETUP_REVERTED');
  });

  test('an L2 gas limit below the base mana is invalid', async () => {
    expect(invalid(await execute({ l2Gas: TX_BASE_MANA - 1 })).code).toBe('L2_GAS_LIMIT_BELOW_BASE');
    expect(executed(await execute({ l2Gas: TX_BASE_MANA })).gasUsed.totalGas.l2Gas).toBe(TX_BASE_MANA);
  });

  test('DA gas above the limit: invalid for non-revertible effects, a revert for app logic', async () => {
    const bare = executed(await execute({}, counterWorld(), { gasFees: ZERO_FEES })).gasUsed.totalGas.daGas;
    expect(invalid(await execute({ daGas: bare - 1 })).code).toBe('DA_GAS_LIMIT_EXCEEDED');
    const logBytes = 32 + 32 + 1 + 32; // contract, tag, field count, one field
    const result = executed(
      await execute({ daGas: bare + 3 * logBytes * DA_GAS_PER_BYTE - 1, appLogic: [callOf(CONTRACT, [S.shout, 3])] }),
    );
    expect(result.executionResult).toBe('appLogicReverted');
    expect(result.reverts[0]).toMatchObject({ phase: 'appLogic', callIndex: null, code: 'DA_GAS_LIMIT_EXCEEDED' });
    expect(result.effect.publicLogs).toEqual([]);
    expect(result.gasUsed.totalGas.daGas).toBe(bare);
    const fits = executed(
      await execute({ daGas: bare + 3 * logBytes * DA_GAS_PER_BYTE, appLogic: [callOf(CONTRACT, [S.shout, 3])] }),
    );
    expect(fits.effect.publicLogs).toHaveLength(3);
    expect(fits.gasUsed.totalGas.daGas).toBe(bare + 3 * logBytes * DA_GAS_PER_BYTE);
  });
});

describe('phase executor: fees', () => {
  test('max fees below the block fees are invalid unless fee enforcement is skipped', async () => {
    const tx = { maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n } };
    expect(invalid(await execute(tx)).code).toBe('MAX_FEE_BELOW_BLOCK_FEE');
    expect(executed(await execute(tx, counterWorld(), { skipFeeEnforcement: true })).executionResult).toBe('success');
  });

  test('a balance below the fee is invalid; skipping fee enforcement leaves it at zero', async () => {
    const poor = counterWorld({ balances: [{ payer: PAYER, amount: 5n }] });
    const outcome = invalid(await execute({ appLogic: [inc()] }, poor));
    expect(outcome.code).toBe('INSUFFICIENT_FEE_PAYER_BALANCE');
    expect(outcome.details).toMatchObject({ feePayer: PAYER, balance: 5n });
    const skipped = executed(await execute({ appLogic: [inc()] }, poor, { skipFeeEnforcement: true }));
    expect(skipped.effect.publicDataWrites.at(-1)).toEqual({ leafSlot: balanceSlot, value: fieldToHex(0n) });
  });

  test('setup may fund the payer: the balance is read after the phases', async () => {
    const spec: WorldSpec = { contracts: [{ address: FEE_ASSET, items: feeAssetContract() }], balances: [] };
    const mint = callOf(FEE_ASSET, [FEE_ASSET_SELECTORS.mint, hexToField(PAYER), 10n ** 12n]);
    const result = executed(await execute({ setup: [mint] }, spec));
    expect(result.effect.publicDataWrites).toEqual([
      { leafSlot: balanceSlot, value: fieldToHex(10n ** 12n - result.transactionFee) },
    ]);
  });

  test('a zero fee still writes the unchanged balance', async () => {
    const result = executed(await execute({}, counterWorld(), { gasFees: ZERO_FEES }));
    expect(result.transactionFee).toBe(0n);
    expect(result.effect.publicDataWrites).toEqual([{ leafSlot: balanceSlot, value: fieldToHex(RICH) }]);
  });

  test('a revert reason packed as a short string is readable', async () => {
    const result = executed(await execute({ appLogic: [fail()] }));
    expect(result.reverts[0]?.revert?.data).toEqual([fieldToHex(shortStringToField('fail'))]);
  });
});

describe('phase executor: the rules at their edges, and what an invalid tx says', () => {
  test('max fees must cover both of the block fees; equal fees are enough', async () => {
    const below = (fees: GasFees) => execute({ maxFeesPerGas: fees });
    expect(invalid(await below({ feePerDaGas: 2n, feePerL2Gas: 2n })).reason).toBe(
      "the tx's max fees per gas (L2 2, DA 2) are below the block's (L2 3, DA 2)",
    );
    expect(invalid(await below({ feePerDaGas: 1n, feePerL2Gas: 3n })).code).toBe('MAX_FEE_BELOW_BLOCK_FEE');
    expect(executed(await below(FEES)).executionResult).toBe('success');
  });

  test('an L2 gas limit below the base mana says both', async () => {
    expect(invalid(await execute({ l2Gas: TX_BASE_MANA - 1 })).reason).toBe(
      `the tx's L2 gas limit ${TX_BASE_MANA - 1} is below the base mana of ${TX_BASE_MANA}`,
    );
  });

  test('DA gas exactly at the limit is within it; above it, the reasons give both figures', async () => {
    const bare = executed(await execute({}, counterWorld(), { gasFees: ZERO_FEES })).gasUsed.totalGas.daGas;
    expect(executed(await execute({ daGas: bare })).gasUsed.totalGas.daGas).toBe(bare);
    expect(invalid(await execute({ daGas: bare - 1 })).reason).toBe(
      `the tx's non-revertible effects need ${bare} DA gas, above its limit of ${bare - 1}`,
    );
    const logBytes = 32 + 32 + 1 + 32;
    const needed = bare + logBytes * DA_GAS_PER_BYTE;
    const result = executed(await execute({ daGas: needed - 1, appLogic: [callOf(CONTRACT, [S.shout, 1])] }));
    expect(result.reverts[0]?.reason).toBe(
      `appLogic: DA_GAS_LIMIT_EXCEEDED: the phase's effects need ${needed} DA gas, above the tx's limit of ${needed - 1}`,
    );
  });

  test('a balance equal to the fee pays it; one below says by how much', async () => {
    const fee = executed(await execute({ appLogic: [inc()] })).transactionFee;
    const exact = counterWorld({ balances: [{ payer: PAYER, amount: fee }] });
    const paid = executed(await execute({ appLogic: [inc()] }, exact));
    expect(paid.effect.publicDataWrites.at(-1)).toEqual({ leafSlot: balanceSlot, value: fieldToHex(0n) });
    const short = counterWorld({ balances: [{ payer: PAYER, amount: fee - 1n }] });
    expect(invalid(await execute({ appLogic: [inc()] }, short)).reason).toBe(
      `fee payer ${PAYER} has a balance of ${fee - 1n}, below the transaction fee of ${fee}`,
    );
  });
});

const EMITTER = address(0x500);
/** A contract emitting two items of one kind. */
const emitsTwo = (op: 'emitnotehash' | 'emitnullifier' | 'emitmessage'): ContractSpec => ({
  address: EMITTER,
  items: [
    { op: 'set', dst: 0, value: 7 },
    { op: 'set', dst: 1, value: 1 },
    op === 'emitmessage' ? { op, recipient: 0, content: 1 } : { op, value: 1 },
    { op: 'set', dst: 1, value: 2 },
    op === 'emitmessage' ? { op, recipient: 0, content: 1 } : { op, value: 1 },
  ],
});
const hexes = (count: number, from: number): Hex[] => Array.from({ length: count }, (_, i) => address(from + i));

describe("phase executor: public emits share the per-tx bounds with the tx's private side effects", () => {
  const run = (op: Parameters<typeof emitsTwo>[0], tx: TxSpec) =>
    execute({ ...tx, appLogic: [callOf(EMITTER)] }, counterWorld({ contracts: [emitsTwo(op)] }));
  const cases = [
    { op: 'emitnotehash', max: NOTE_HASHES_PER_TX_MAX, tx: (n: number) => ({ noteHashes: hexes(n, 0x1000) }) },
    { op: 'emitnullifier', max: NULLIFIERS_PER_TX_MAX, tx: (n: number) => ({ nullifiers: hexes(n, 0x2000) }) },
    {
      op: 'emitmessage',
      max: L2_TO_L1_MESSAGES_PER_TX_MAX,
      tx: (n: number) => ({ l2ToL1Messages: hexes(n, 0x3000).map((content) => ({ recipient: address(7), content })) }),
    },
  ] as const;

  test.each(cases)('$op: room for one more leaves the second emit reverted', async ({ op, max, tx }) => {
    const oneLeft = executed(await run(op, tx(max - 1)));
    expect(oneLeft.executionResult).toBe('appLogicReverted');
    expect(oneLeft.reverts[0]?.code).toBe('EFFECT_LIMIT_EXCEEDED');
    expect(executed(await run(op, tx(max - 2))).executionResult).toBe('success');
    expect(executed(await run(op, tx(max))).reverts[0]?.code).toBe('EFFECT_LIMIT_EXCEEDED');
  });

  test.each(cases)(
    '$op: private side effects above the bound are refused at the edge, not here',
    async ({ op, max, tx }) => {
      await expect(run(op, tx(max + 1))).rejects.toThrow("a tx's private side effects are within the per-tx bounds");
    },
  );

  test('private logs above their bound are refused too', async () => {
    const logs = (n: number) => hexes(n, 0x4000).map((tag) => ({ tag, fields: [] }));
    expect(executed(await execute({ privateLogs: logs(PRIVATE_LOGS_PER_TX_MAX) })).executionResult).toBe('success');
    await expect(execute({ privateLogs: logs(PRIVATE_LOGS_PER_TX_MAX + 1) })).rejects.toThrow(
      "a tx's private side effects are within the per-tx bounds",
    );
  });
});
