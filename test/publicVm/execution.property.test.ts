import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { executePublicTx } from '../../core/publicVm/phaseExecutor.js';
import type { PublicCallInput } from '../../core/publicVm/publicTxTypes.js';
import { encodeTxEffects } from '../../spec/codec/txEffect.js';
import { FR_MODULUS } from '../../spec/constants.js';
import type { AsmItem } from '../../spec/vm/assembler.js';
import { fieldToHex, hexToField } from '../../spec/vm/field.js';
import { publicDataLeafSlot } from '../../spec/vm/storageSlots.js';
import { CALL_DEPTH_MAX, DA_GAS_PER_BYTE, TX_BASE_MANA } from '../../spec/vm/vmConstants.js';
import { anyField, programArbitrary } from './vmArbitraries.js';
import { COUNTER_SELECTORS, counterContract } from './vmContracts.js';
import type { SingleCallRun } from './vmFixtures.js';
import { address, callOf, CONTRACT, FEE_ASSET, makeTx, PAYER, returned, runProgram, world } from './vmFixtures.js';

const P = FR_MODULUS;

/** Runs r0 = a <op> b for each op, returning all results. */
function arithmetic(a: bigint, b: bigint): AsmItem[] {
  const ops = ['add', 'sub', 'mul', 'eq', 'lt', 'lte', 'and', 'or'] as const;
  return [
    { op: 'set', dst: 1, value: a },
    { op: 'set', dst: 2, value: b },
    ...ops.map((op, i): AsmItem => ({ op, dst: 10 + i, a: 1, b: 2 })),
    { op: 'return', start: 10, count: ops.length },
  ];
}

describe('public VM arithmetic', () => {
  test('add, sub and mul agree with arithmetic modulo the field; comparisons with the integers', async () => {
    await fc.assert(
      fc.asyncProperty(anyField, anyField, async (a, b) => {
        const results = returned(await runProgram(arithmetic(a, b)));
        const bit = (v: boolean) => (v ? 1n : 0n);
        expect(results).toEqual([
          (a + b) % P,
          (((a - b) % P) + P) % P,
          (a * b) % P,
          bit(a === b),
          bit(a < b),
          bit(a <= b),
          bit(a !== 0n && b !== 0n),
          bit(a !== 0n || b !== 0n),
        ]);
      }),
      { numRuns: 300 },
    );
  });

  test('div and mod satisfy a = q * b + r with r < b', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyField,
        anyField.filter((b) => b !== 0n),
        async (a, b) => {
          const [q, r] = returned(
            await runProgram([
              { op: 'set', dst: 1, value: a },
              { op: 'set', dst: 2, value: b },
              { op: 'div', dst: 3, a: 1, b: 2 },
              { op: 'mod', dst: 4, a: 1, b: 2 },
              { op: 'return', start: 3, count: 2 },
            ]),
          );
          expect(q !== undefined && r !== undefined && q * b + r === a && r < b).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/**
 * A contract that calls itself in a chain. calldata = [level, revertMask, 2^level, lastLevel]. Each frame writes
 * slot 100 + level and emits note hash `level`, calls the next level (if level < lastLevel), writes slot 200 + level,
 * then reverts when bit `level` of the mask is set.
 */
const CHAIN: AsmItem[] = [
  ...[10, 11, 12, 13]
    .map((dst, i): AsmItem[] => [
      { op: 'set', dst: 0, value: i },
      { op: 'calldataload', dst, index: 0 },
    ])
    .flat(),
  { op: 'set', dst: 1, value: 1 },
  { op: 'set', dst: 2, value: 2 },
  { op: 'set', dst: 3, value: 100 },
  { op: 'set', dst: 4, value: 200 },
  { op: 'add', dst: 5, a: 3, b: 10 },
  { op: 'sstore', slot: 5, value: 1 },
  { op: 'emitnotehash', value: 10 },
  { op: 'lt', dst: 6, a: 10, b: 13 },
  { op: 'not', dst: 7, a: 6 },
  { op: 'jumpi', cond: 7, target: 'after' },
  { op: 'add', dst: 20, a: 10, b: 1 },
  { op: 'mov', dst: 21, src: 11 },
  { op: 'mul', dst: 22, a: 12, b: 2 },
  { op: 'mov', dst: 23, src: 13 },
  { op: 'address', dst: 8 },
  { op: 'call', success: 9, address: 8, argsStart: 20, argsCount: 4, retStart: 0, retCount: 0 },
  { label: 'after' },
  { op: 'add', dst: 5, a: 4, b: 10 },
  { op: 'sstore', slot: 5, value: 1 },
  { op: 'div', dst: 6, a: 11, b: 12 },
  { op: 'mod', dst: 6, a: 6, b: 2 },
  { op: 'jumpi', cond: 6, target: 'revert' },
  { op: 'return', start: 0, count: 0 },
  { label: 'revert' },
  { op: 'revert', start: 0, count: 0 },
];

describe('public VM reverts', () => {
  test('a revert drops exactly the reverted frame and the frames it called', async () => {
    const chain = fc.record({
      lastLevel: fc.integer({ min: 0, max: CALL_DEPTH_MAX + 2 }),
      mask: fc.integer({ min: 0, max: 2 ** (CALL_DEPTH_MAX + 3) - 1 }),
    });
    await fc.assert(
      fc.asyncProperty(chain, async ({ lastLevel, mask }) => {
        const run = await runProgram(CHAIN, { calldata: [0, mask, 1, lastLevel] });
        // Frames beyond CALL_DEPTH_MAX never run; a frame's effects stay if neither it nor any caller reverted.
        const levels = Array.from({ length: Math.min(lastLevel, CALL_DEPTH_MAX) + 1 }, (_, level) => level);
        const kept = levels.filter((level) => levels.slice(0, level + 1).every((k) => (mask & (1 << k)) === 0));
        const slot = (n: number) => publicDataLeafSlot(CONTRACT, fieldToHex(BigInt(n)));
        const expectedSlots = [
          ...kept.map((level) => slot(100 + level)),
          ...[...kept].reverse().map((level) => slot(200 + level)),
        ];
        expect(run.journal.publicDataWrites().map((write) => write.leafSlot)).toEqual(expectedSlots);
        expect(run.journal.noteHashes).toHaveLength(kept.length);
        expect(run.result.success).toBe((mask & 1) === 0);
      }),
      { numRuns: 150 },
    );
  });
});

/** What a run produced, in plain data. */
function observe(run: SingleCallRun) {
  return {
    result: run.result,
    writes: run.journal.publicDataWrites(),
    noteHashes: [...run.journal.noteHashes],
    nullifiers: [...run.journal.nullifiers],
    messages: [...run.journal.l2ToL1Messages],
    logs: [...run.journal.publicLogs],
    mana: run.meter.manaUsed,
    instructions: run.meter.instructionsExecuted,
  };
}

const MANA_LIMIT = 60_000;

describe('public VM determinism', () => {
  test('any valid program runs to a result, the same twice, within its bounds; a top-level revert leaves nothing', async () => {
    const fields = fc.oneof(fc.bigInt({ min: 0n, max: 10n }), fc.constant(hexToField(CONTRACT)), anyField);
    const programs = programArbitrary({ maxLength: 30, fields });
    const calldata = fc.array(fc.bigInt({ min: 0n, max: 5n }), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(programs, calldata, fc.boolean(), async (program, args, isStaticCall) => {
        const items = program as readonly AsmItem[];
        const options = { calldata: args, isStaticCall, manaLimit: MANA_LIMIT, instructionsMax: 20_000 };
        const first = observe(await runProgram(items, options));
        const second = observe(await runProgram(items, options));
        expect(second).toEqual(first);
        expect(first.mana).toBeLessThanOrEqual(MANA_LIMIT);
        expect(first.instructions).toBeLessThanOrEqual(20_000);
        if (!first.result.success || isStaticCall) {
          expect([first.writes, first.noteHashes, first.nullifiers, first.messages, first.logs]).toEqual([
            [],
            [],
            [],
            [],
            [],
          ]);
        }
      }),
      { numRuns: 300 },
    );
  });

  const S = COUNTER_SELECTORS;
  const selectorArbitrary = (safe: boolean) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(S.increment, S.get, S.nullify, S.shout) },
      { weight: safe ? 0 : 1, arbitrary: fc.constantFrom(S.fail, S.burn, 12345n) },
    );
  const callArbitrary = (safe: boolean): fc.Arbitrary<PublicCallInput> =>
    fc
      .record({
        selector: selectorArbitrary(safe),
        argument: fc.integer({ min: 0, max: 3 }),
        target: fc.oneof(
          { weight: 9, arbitrary: fc.constant(CONTRACT) },
          { weight: safe ? 0 : 1, arbitrary: fc.constant(address(0x404)) },
        ),
        isStaticCall: fc.oneof(
          { weight: 4, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
      })
      .map(({ selector, argument, target, isStaticCall }) => callOf(target, [selector, argument], { isStaticCall }));
  // Setup calls are mostly harmless (a setup revert only makes the tx invalid); the later phases may do anything.
  const txArbitrary = fc.record({
    setup: fc.array(
      fc.oneof({ weight: 6, arbitrary: callArbitrary(true) }, { weight: 1, arbitrary: callArbitrary(false) }),
      { maxLength: 2 },
    ),
    appLogic: fc.array(callArbitrary(false), { maxLength: 3 }),
    teardown: fc.option(callArbitrary(false), { nil: null }),
    l2Gas: fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: TX_BASE_MANA - 10, max: TX_BASE_MANA + 2_000 }) },
      { weight: 6, arbitrary: fc.integer({ min: TX_BASE_MANA, max: TX_BASE_MANA + 60_000 }) },
    ),
    daGas: fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 5_000 }) },
      { weight: 6, arbitrary: fc.integer({ min: 5_000, max: 20_000 }) },
    ),
  });
  const feesArbitrary = fc.record({
    feePerDaGas: fc.bigInt({ min: 0n, max: 3n }),
    feePerL2Gas: fc.bigInt({ min: 0n, max: 3n }),
  });

  test('a tx executes the same twice; mana, DA gas and the fee follow their rules', async () => {
    const state = world({
      contracts: [{ address: CONTRACT, items: counterContract() }],
      balances: [{ payer: PAYER, amount: 200_000n }],
    });
    await fc.assert(
      fc.asyncProperty(txArbitrary, feesArbitrary, async (spec, gasFees) => {
        const input = { tx: makeTx(spec), gasFees, feeAsset: FEE_ASSET, state };
        const outcome = await executePublicTx(input);
        expect(await executePublicTx(input)).toEqual(outcome);
        if (outcome.kind === 'invalid') return;
        const { totalGas } = outcome.gasUsed;
        expect(totalGas.l2Gas).toBeLessThanOrEqual(spec.l2Gas);
        expect(totalGas.daGas).toBeLessThanOrEqual(spec.daGas);
        expect(totalGas.daGas).toBe(encodeTxEffects([outcome.effect]).length * DA_GAS_PER_BYTE);
        expect(outcome.transactionFee).toBe(
          BigInt(totalGas.l2Gas) * gasFees.feePerL2Gas + BigInt(totalGas.daGas) * gasFees.feePerDaGas,
        );
        const reverted = new Set(outcome.reverts.map((r) => r.phase));
        const expected = reverted.has('appLogic')
          ? reverted.has('teardown')
            ? 'bothReverted'
            : 'appLogicReverted'
          : reverted.has('teardown')
            ? 'teardownReverted'
            : 'success';
        expect(outcome.executionResult).toBe(expected);
        expect(outcome.calls).toHaveLength(spec.setup.length + spec.appLogic.length + (spec.teardown === null ? 0 : 1));
      }),
      { numRuns: 200 },
    );
  });
});
