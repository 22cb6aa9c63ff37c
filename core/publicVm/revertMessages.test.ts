/**
 * What a reverted call tells its caller (the code and a readable message, both in the tx's revert reason), the
 * return-value window of a call, and the bounds the meter and the journal are opened with.
 */
import { describe, expect, test } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import type { AsmItem } from '../../spec/vm/assembler.js';
import { fieldToHex } from '../../spec/vm/field.js';
import { instructionMana } from '../../spec/vm/instructionSet.js';
import { CALL_DEPTH_MAX } from '../../spec/vm/vmConstants.js';
import {
  address,
  CONTRACT,
  openJournal,
  returned,
  runProgram,
  world,
  type SingleCallRun,
} from '../../test/publicVm/vmFixtures.js';
import { executeCall } from './interpreter.js';
import { StateJournal } from './journal.js';
import { ManaMeter } from './manaMeter.js';
import { ProgramCache } from './programCache.js';
import { emptyPublicState, memoryPublicState, overlayOfTxEffects, overlayPublicState } from './stateView.js';

function revertOf(run: SingleCallRun) {
  if (run.result.success) throw new Error('expected a revert, got success');
  return run.result.revert;
}

const message = async (items: readonly AsmItem[], options?: Parameters<typeof runProgram>[1]) =>
  revertOf(await runProgram(items, options)).message;

describe('revert messages', () => {
  test('say what the frame ran into, and where', async () => {
    const binary = (op: 'div' | 'mod'): AsmItem[] => [
      { op: 'set', dst: 1, value: 7 },
      { op, dst: 0, a: 1, b: 2 },
    ];
    expect(await message(binary('div'))).toBe('div by zero at 1');
    expect(await message(binary('mod'))).toBe('mod by zero at 1');
    const load: AsmItem[] = [
      { op: 'set', dst: 0, value: 2 },
      { op: 'calldataload', dst: 1, index: 0 },
    ];
    expect(await message(load, { calldata: [5, 6] })).toBe('calldata[2] is past the 2 calldata fields');
    expect(await message([{ op: 'emitnotehash', value: 0 }], { isStaticCall: true })).toBe(
      'emitnotehash at 0 in a static call',
    );
    const tooWide = (1n << 160n) + 3n;
    const send: AsmItem[] = [
      { op: 'set', dst: 0, value: 1 },
      { op: 'set', dst: 1, value: tooWide },
      { op: 'emitmessage', recipient: 1, content: 0 },
    ];
    expect(await message(send)).toBe(`emitmessage at 2: recipient ${fieldToHex(tooWide)} is not an EthAddress`);
    const twice: AsmItem[] = [
      { op: 'emitnullifier', value: 0 },
      { op: 'emitnullifier', value: 0 },
    ];
    expect(revertOf(await runProgram(twice))).toMatchObject({
      code: 'DUPLICATE_NULLIFIER',
      message: 'emitnullifier at 1',
    });
  });

  test('out of mana names the instruction, its cost and the limit; the instruction budget its size', async () => {
    const loop: AsmItem[] = [{ label: 'top' }, { op: 'jump', target: 'top' }];
    const cost = instructionMana({ op: 'jump', target: 0 });
    expect(await message(loop, { manaLimit: 1_001 })).toBe(
      `jump at 0 needs ${cost} mana, more than is left of the tx's 1001 public mana`,
    );
    expect(await message(loop, { instructionsMax: 50 })).toBe('jump at 0: the tx has executed its 50 instructions');
  });

  test('a call too deep fails before it loads anything', async () => {
    const state = world({ contracts: [{ address: CONTRACT, items: [{ op: 'return', start: 0, count: 0 }] }] });
    const context = {
      journal: openJournal(state),
      meter: new ManaMeter(10_000, 100),
      programs: new ProgramCache(state),
    };
    const call = (depth: number) =>
      executeCall(context, {
        contractAddress: CONTRACT,
        msgSender: CONTRACT,
        isStaticCall: false,
        calldata: [],
        depth,
      });
    expect((await call(CALL_DEPTH_MAX)).success).toBe(true);
    expect(await call(CALL_DEPTH_MAX + 1)).toEqual({
      success: false,
      revert: {
        code: 'CALL_DEPTH_EXCEEDED',
        contractAddress: CONTRACT,
        pc: null,
        message: `call depth ${CALL_DEPTH_MAX + 1} is above ${CALL_DEPTH_MAX}`,
        data: [],
      },
    });
  });

  test('a missing contract or class is named', async () => {
    const nobody = address(0x404);
    expect(await new ProgramCache(emptyPublicState).load(nobody)).toEqual({
      ok: false,
      code: 'CONTRACT_NOT_FOUND',
      message: `no contract instance at ${nobody}`,
    });
    const orphan = memoryPublicState({ instances: [{ address: nobody, classId: address(0xc1) }] });
    expect(await new ProgramCache(orphan).load(nobody)).toEqual({
      ok: false,
      code: 'CONTRACT_NOT_FOUND',
      message: `the instance at ${nobody} points to unknown class ${address(0xc1)}`,
    });
  });
});

describe('calls', () => {
  test('or is 1 when either side is non-zero', async () => {
    const or = (a: number, b: number): AsmItem[] => [
      { op: 'set', dst: 1, value: a },
      { op: 'set', dst: 2, value: b },
      { op: 'or', dst: 0, a: 1, b: 2 },
      { op: 'return', start: 0, count: 1 },
    ];
    expect(returned(await runProgram(or(9, 0)))).toEqual([1n]);
    expect(returned(await runProgram(or(0, 9)))).toEqual([1n]);
  });

  test('a call writes exactly its return window: the register after it keeps its value', async () => {
    const callee: AsmItem[] = [
      { op: 'set', dst: 0, value: 4 },
      { op: 'set', dst: 1, value: 5 },
      { op: 'set', dst: 2, value: 6 },
      { op: 'return', start: 0, count: 3 },
    ];
    const caller: AsmItem[] = [
      { op: 'set', dst: 3, value: 77 },
      { op: 'set', dst: 9, value: 0x101 },
      { op: 'call', success: 0, address: 9, argsStart: 0, argsCount: 0, retStart: 1, retCount: 2 },
      { op: 'return', start: 0, count: 4 },
    ];
    const run = await runProgram(caller, { others: [{ address: address(0x101), items: callee }] });
    expect(returned(run)).toEqual([1n, 4n, 5n, 77n]);
  });
});

describe('bounds the meter and the journal are opened with', () => {
  test('the meter takes safe non-negative integers only', () => {
    expect(new ManaMeter(0, 0).charge(0)).toBe('INSTRUCTION_LIMIT_EXCEEDED');
    expect(() => new ManaMeter(-1, 10)).toThrow('mana limit -1 is a safe non-negative integer');
    expect(() => new ManaMeter(1.5, 10)).toThrow('mana limit 1.5 is a safe non-negative integer');
    expect(() => new ManaMeter(10, -1)).toThrow('instruction budget -1 is a safe non-negative integer');
    expect(() => new ManaMeter(10, 2.5)).toThrow('instruction budget 2.5 is a safe non-negative integer');
  });

  test('journal capacities are non-negative integers, with room for the reserved slot', () => {
    const open = (capacity: Partial<Record<string, number>>) =>
      new StateJournal(
        emptyPublicState,
        { noteHashes: 1, nullifiers: 1, l2ToL1Messages: 1, publicLogs: 1, publicDataWrites: 1, ...capacity },
        new Set(),
        address(0xfee),
      );
    expect(open({ noteHashes: 0 }).emitNoteHash(address(1))).toBe('EFFECT_LIMIT_EXCEEDED');
    expect(open({}).storageWrite(address(0xfee), address(1))).toBeUndefined();
    for (const bad of [{ nullifiers: -1 }, { publicLogs: 0.5 }])
      expect(() => open(bad)).toThrow('journal capacities are non-negative integers');
    expect(() => open({ publicDataWrites: 0 })).toThrow('the reserved slot fits the write bound');
  });

  test('a checkpoint cannot be reverted to after an earlier one was', () => {
    const journal = openJournal(emptyPublicState);
    const early = journal.checkpoint();
    journal.storageWrite(address(1), address(2));
    const late = journal.checkpoint();
    journal.revertTo(early);
    expect(() => journal.revertTo(late)).toThrow('a checkpoint is not reverted twice');
  });
});

describe('the state a block leaves for its next tx', () => {
  test("earlier txs' writes shadow the view, the last one winning, and their nullifiers count", async () => {
    const effect = (writes: [Hex, Hex][], nullifiers: Hex[]) =>
      ({ publicDataWrites: writes.map(([leafSlot, value]) => ({ leafSlot, value })), nullifiers }) as never;
    const base = memoryPublicState({ nullifiers: [address(0x33)] });
    const view = overlayPublicState(
      base,
      overlayOfTxEffects([
        effect([[address(1), address(10)]], [address(0x11)]),
        effect([[address(1), address(11)]], [address(0x22)]),
      ]),
    );
    expect(await view.publicDataRead(address(1))).toBe(address(11));
    expect(await view.publicDataRead(address(2))).toBe(address(0));
    for (const n of [0x11, 0x22, 0x33]) expect(await view.nullifierExists(address(n))).toBe(true);
    expect(await view.nullifierExists(address(0x44))).toBe(false);
  });
});
