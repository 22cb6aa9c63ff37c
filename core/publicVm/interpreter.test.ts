import { describe, expect, test } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { FR_MODULUS } from '../../spec/constants.js';
import type { AsmItem } from '../../spec/vm/assembler.js';
import { fieldToHex, hexToField, shortStringToField } from '../../spec/vm/field.js';
import { instructionMana } from '../../spec/vm/instructionSet.js';
import {
  hashWords,
  l2ToL1MessageHash,
  publicDataLeafSlot,
  siloNoteHash,
  siloNullifier,
} from '../../spec/vm/storageSlots.js';
import { CALL_DEPTH_MAX } from '../../spec/vm/vmConstants.js';
import { address, CONTRACT, returned, revertCode, runProgram, SENDER } from '../../test/publicVm/vmFixtures.js';

const P = FR_MODULUS;

/** r1 = a, r2 = b, r0 = r1 <op> r2, return r0. */
async function binary(
  op: 'add' | 'sub' | 'mul' | 'div' | 'mod' | 'eq' | 'lt' | 'lte' | 'and' | 'or',
  a: bigint,
  b: bigint,
) {
  return runProgram([
    { op: 'set', dst: 1, value: a },
    { op: 'set', dst: 2, value: b },
    { op, dst: 0, a: 1, b: 2 },
    { op: 'return', start: 0, count: 1 },
  ]);
}

const first = async (items: readonly AsmItem[], options?: Parameters<typeof runProgram>[1]) =>
  returned(await runProgram(items, options))[0];

describe('public VM instructions', () => {
  test('set, mov and return; falling off the end returns nothing', async () => {
    const run = await runProgram([
      { op: 'set', dst: 3, value: 42 },
      { op: 'mov', dst: 4, src: 3 },
      { op: 'return', start: 3, count: 2 },
    ]);
    expect(returned(run)).toEqual([42n, 42n]);
    expect(returned(await runProgram([{ op: 'set', dst: 0, value: 1 }]))).toEqual([]);
    expect(returned(await runProgram([]))).toEqual([]);
  });

  test('registers start at zero', async () => {
    expect(returned(await runProgram([{ op: 'return', start: 250, count: 3 }]))).toEqual([0n, 0n, 0n]);
  });

  test('add, sub and mul wrap modulo the field', async () => {
    expect(returned(await binary('add', P - 1n, 2n))).toEqual([1n]);
    expect(returned(await binary('sub', 0n, 1n))).toEqual([P - 1n]);
    expect(returned(await binary('mul', P - 1n, P - 1n))).toEqual([1n]);
    expect(returned(await binary('mul', 1n << 200n, 1n << 100n))).toEqual([(1n << 300n) % P]);
  });

  test('div and mod are integer operations; a zero divisor reverts', async () => {
    expect(returned(await binary('div', 17n, 5n))).toEqual([3n]);
    expect(returned(await binary('mod', 17n, 5n))).toEqual([2n]);
    expect(revertCode(await binary('div', 17n, 0n))).toBe('DIVISION_BY_ZERO');
    expect(revertCode(await binary('mod', 17n, 0n))).toBe('DIVISION_BY_ZERO');
  });

  test('comparisons and logic give 1 or 0', async () => {
    expect(returned(await binary('eq', 5n, 5n))).toEqual([1n]);
    expect(returned(await binary('eq', 5n, 6n))).toEqual([0n]);
    expect(returned(await binary('lt', 5n, 6n))).toEqual([1n]);
    expect(returned(await binary('lt', 6n, 6n))).toEqual([0n]);
    expect(returned(await binary('lte', 6n, 6n))).toEqual([1n]);
    expect(returned(await binary('lt', P - 1n, 0n))).toEqual([0n]);
    expect(returned(await binary('and', 7n, 9n))).toEqual([1n]);
    expect(returned(await binary('and', 7n, 0n))).toEqual([0n]);
    expect(returned(await binary('or', 0n, 9n))).toEqual([1n]);
    expect(returned(await binary('or', 0n, 0n))).toEqual([0n]);
    expect(
      await first([
        { op: 'not', dst: 0, a: 1 },
        { op: 'return', start: 0, count: 1 },
      ]),
    ).toBe(1n);
    expect(
      await first([
        { op: 'set', dst: 1, value: 3 },
        { op: 'not', dst: 0, a: 1 },
        { op: 'return', start: 0, count: 1 },
      ]),
    ).toBe(0n);
  });

  test('jump and jumpi: a loop summing 1..10', async () => {
    const sum: AsmItem[] = [
      { op: 'set', dst: 1, value: 10 }, // counter
      { op: 'set', dst: 2, value: 1 }, // one
      { label: 'loop' },
      { op: 'add', dst: 0, a: 0, b: 1 },
      { op: 'sub', dst: 1, a: 1, b: 2 },
      { op: 'jumpi', cond: 1, target: 'loop' },
      { op: 'jump', target: 'done' },
      { op: 'set', dst: 0, value: 999 },
      { label: 'done' },
      { op: 'return', start: 0, count: 1 },
    ];
    expect(await first(sum)).toBe(55n);
  });

  test('calldatasize and calldataload; an index past the end reverts', async () => {
    const load: AsmItem[] = [
      { op: 'calldatasize', dst: 0 },
      { op: 'set', dst: 3, value: 2 },
      { op: 'calldataload', dst: 1, index: 3 },
      { op: 'return', start: 0, count: 2 },
    ];
    expect(returned(await runProgram(load, { calldata: [7, 8, 9] }))).toEqual([3n, 9n]);
    expect(revertCode(await runProgram(load, { calldata: [7, 8] }))).toBe('CALLDATA_OUT_OF_RANGE');
  });

  test('sender and address', async () => {
    const run = await runProgram([
      { op: 'sender', dst: 0 },
      { op: 'address', dst: 1 },
      { op: 'return', start: 0, count: 2 },
    ]);
    expect(returned(run).map(fieldToHex)).toEqual([SENDER, CONTRACT]);
  });

  test('hash is hashToField of the range, 32 bytes a field', async () => {
    const run = await runProgram([
      { op: 'set', dst: 1, value: 11 },
      { op: 'set', dst: 2, value: 22 },
      { op: 'hash', dst: 0, start: 1, count: 2 },
      { op: 'return', start: 0, count: 1 },
    ]);
    expect(returned(run)).toEqual([hexToField(hashWords([fieldToHex(11n), fieldToHex(22n)]))]);
  });
});

describe('public VM storage', () => {
  test("sload reads the contract's slot from state, zero when never written", async () => {
    const storage = [{ contractAddress: CONTRACT, slot: fieldToHex(5n), value: fieldToHex(77n) }];
    const read: AsmItem[] = [
      { op: 'set', dst: 1, value: 5 },
      { op: 'sload', dst: 0, slot: 1 },
      { op: 'set', dst: 1, value: 6 },
      { op: 'sload', dst: 2, slot: 1 },
      { op: 'return', start: 0, count: 3 },
    ];
    expect(returned(await runProgram(read, { spec: { storage } }))).toEqual([77n, 6n, 0n]);
  });

  test('sstore then sload in the same execution reads the new value; the journal has one write per slot', async () => {
    const run = await runProgram([
      { op: 'set', dst: 1, value: 5 },
      { op: 'set', dst: 2, value: 8 },
      { op: 'sstore', slot: 1, value: 2 },
      { op: 'set', dst: 2, value: 9 },
      { op: 'sstore', slot: 1, value: 2 },
      { op: 'sload', dst: 0, slot: 1 },
      { op: 'return', start: 0, count: 1 },
    ]);
    expect(returned(run)).toEqual([9n]);
    expect(run.journal.publicDataWrites()).toEqual([
      { leafSlot: publicDataLeafSlot(CONTRACT, fieldToHex(5n)), value: fieldToHex(9n) },
    ]);
  });

  test('a static call may neither write nor emit', async () => {
    for (const items of [
      [{ op: 'sstore', slot: 0, value: 0 }],
      [{ op: 'emitnotehash', value: 0 }],
      [{ op: 'emitnullifier', value: 0 }],
      [{ op: 'emitmessage', recipient: 0, content: 0 }],
      [{ op: 'emitlog', tag: 0, start: 0, count: 0 }],
    ] satisfies AsmItem[][]) {
      expect(revertCode(await runProgram(items, { isStaticCall: true }))).toBe('STATIC_CALL_WRITE');
    }
    expect(returned(await runProgram([{ op: 'sload', dst: 0, slot: 0 }], { isStaticCall: true }))).toEqual([]);
  });

  test('a new slot past the write bound reverts; rewriting a written slot does not', async () => {
    const twoSlots: AsmItem[] = [
      { op: 'set', dst: 1, value: 1 },
      { op: 'sstore', slot: 0, value: 1 },
      { op: 'sstore', slot: 0, value: 0 },
      { op: 'sstore', slot: 1, value: 1 },
    ];
    // One slot of two is reserved (the fee payer's balance), so one slot is left.
    expect(revertCode(await runProgram(twoSlots, { capacity: { publicDataWrites: 2 } }))).toBe('EFFECT_LIMIT_EXCEEDED');
    expect(returned(await runProgram(twoSlots.slice(0, 3), { capacity: { publicDataWrites: 2 } }))).toEqual([]);
  });
});

describe('public VM emits', () => {
  test('note hashes and nullifiers are siloed with the contract', async () => {
    const run = await runProgram([
      { op: 'set', dst: 0, value: 3 },
      { op: 'emitnotehash', value: 0 },
      { op: 'emitnullifier', value: 0 },
    ]);
    expect(run.journal.noteHashes).toEqual([siloNoteHash(CONTRACT, fieldToHex(3n))]);
    expect(run.journal.nullifiers).toEqual([siloNullifier(CONTRACT, fieldToHex(3n))]);
  });

  test('a nullifier already in state, or emitted twice, reverts', async () => {
    const once: AsmItem[] = [
      { op: 'set', dst: 0, value: 3 },
      { op: 'emitnullifier', value: 0 },
    ];
    expect(revertCode(await runProgram([...once, { op: 'emitnullifier', value: 0 }]))).toBe('DUPLICATE_NULLIFIER');
    const existing = siloNullifier(CONTRACT, fieldToHex(3n));
    expect(revertCode(await runProgram(once, { spec: { nullifiers: [existing] } }))).toBe('DUPLICATE_NULLIFIER');
  });

  test('emits past their per-tx capacity revert', async () => {
    const twice = (op: 'emitnotehash' | 'emitnullifier'): AsmItem[] => [
      { op, value: 0 },
      { op: 'set', dst: 0, value: 1 },
      { op, value: 0 },
    ];
    expect(revertCode(await runProgram(twice('emitnotehash'), { capacity: { noteHashes: 1 } }))).toBe(
      'EFFECT_LIMIT_EXCEEDED',
    );
    expect(revertCode(await runProgram(twice('emitnullifier'), { capacity: { nullifiers: 1 } }))).toBe(
      'EFFECT_LIMIT_EXCEEDED',
    );
    const logs: AsmItem[] = [
      { op: 'emitlog', tag: 0, start: 0, count: 0 },
      { op: 'emitlog', tag: 0, start: 0, count: 0 },
    ];
    expect(revertCode(await runProgram(logs, { capacity: { publicLogs: 1 } }))).toBe('EFFECT_LIMIT_EXCEEDED');
    const messages: AsmItem[] = [
      { op: 'emitmessage', recipient: 0, content: 0 },
      { op: 'emitmessage', recipient: 0, content: 0 },
    ];
    expect(revertCode(await runProgram(messages, { capacity: { l2ToL1Messages: 1 } }))).toBe('EFFECT_LIMIT_EXCEEDED');
  });

  test('an L2-to-L1 message is hashed with its recipient; a recipient of 2^160 or more reverts', async () => {
    const recipient = (1n << 160n) - 1n;
    const send = (to: bigint): AsmItem[] => [
      { op: 'set', dst: 0, value: to },
      { op: 'set', dst: 1, value: 5 },
      { op: 'emitmessage', recipient: 0, content: 1 },
    ];
    const run = await runProgram(send(recipient));
    const recipientHex = `0x${'ff'.repeat(20)}` as Hex;
    expect(run.journal.l2ToL1Messages).toEqual([l2ToL1MessageHash(recipientHex, fieldToHex(5n))]);
    expect(revertCode(await runProgram(send(recipient + 1n)))).toBe('INVALID_RECIPIENT');
  });

  test('a public log carries the contract, the tag and the range', async () => {
    const run = await runProgram([
      { op: 'set', dst: 0, value: shortStringToField('transfer') },
      { op: 'set', dst: 5, value: 1 },
      { op: 'set', dst: 6, value: 2 },
      { op: 'emitlog', tag: 0, start: 5, count: 2 },
    ]);
    expect(run.journal.publicLogs).toEqual([
      {
        contractAddress: CONTRACT,
        tag: fieldToHex(shortStringToField('transfer')),
        fields: [fieldToHex(1n), fieldToHex(2n)],
      },
    ]);
  });
});

const CALLEE = address(0x101);

/** Calls CALLEE with r10.. as arguments: r0 = success, r1..r2 = return values. */
function callCallee(op: 'call' | 'staticcall', args: readonly bigint[]): AsmItem[] {
  return [
    { op: 'set', dst: 9, value: BigInt(CALLEE) },
    ...args.map((value, i): AsmItem => ({ op: 'set', dst: 10 + i, value })),
    { op, success: 0, address: 9, argsStart: 10, argsCount: args.length, retStart: 1, retCount: 2 },
    { op: 'return', start: 0, count: 3 },
  ];
}

describe('public VM calls', () => {
  test('a call passes calldata and the caller as sender, and gets the return values', async () => {
    const callee: AsmItem[] = [
      { op: 'set', dst: 9, value: 0 },
      { op: 'calldataload', dst: 0, index: 9 },
      { op: 'sender', dst: 1 },
      { op: 'return', start: 0, count: 2 },
    ];
    const run = await runProgram(callCallee('call', [123n]), { others: [{ address: CALLEE, items: callee }] });
    expect(returned(run)).toEqual([1n, 123n, hexToField(CONTRACT)]);
  });

  test('missing return values are zero', async () => {
    const callee: AsmItem[] = [
      { op: 'set', dst: 0, value: 4 },
      { op: 'return', start: 0, count: 1 },
    ];
    const run = await runProgram(callCallee('call', []), { others: [{ address: CALLEE, items: callee }] });
    expect(returned(run)).toEqual([1n, 4n, 0n]);
  });

  test("a reverted callee gives success 0, its writes are dropped, the caller's stay", async () => {
    const callee: AsmItem[] = [
      { op: 'set', dst: 0, value: 1 },
      { op: 'sstore', slot: 0, value: 0 },
      { op: 'emitnotehash', value: 0 },
      { op: 'set', dst: 1, value: shortStringToField('nope') },
      { op: 'revert', start: 1, count: 1 },
    ];
    const caller: AsmItem[] = [
      { op: 'set', dst: 8, value: 1 },
      { op: 'sstore', slot: 8, value: 8 },
      ...callCallee('call', []),
    ];
    const run = await runProgram(caller, { others: [{ address: CALLEE, items: callee }] });
    expect(returned(run)).toEqual([0n, 0n, 0n]);
    expect(run.journal.publicDataWrites()).toEqual([
      { leafSlot: publicDataLeafSlot(CONTRACT, fieldToHex(1n)), value: fieldToHex(1n) },
    ]);
    expect(run.journal.noteHashes).toEqual([]);
  });

  test('a static call cannot write, and the frames it calls are static too', async () => {
    const writer: AsmItem[] = [{ op: 'sstore', slot: 0, value: 0 }];
    const forwarder: AsmItem[] = [
      { op: 'set', dst: 9, value: 0x102 },
      { op: 'call', success: 0, address: 9, argsStart: 0, argsCount: 0, retStart: 0, retCount: 0 },
      { op: 'return', start: 0, count: 1 },
    ];
    const direct = await runProgram(callCallee('staticcall', []), { others: [{ address: CALLEE, items: writer }] });
    expect(returned(direct)[0]).toBe(0n);
    const nested = await runProgram(callCallee('staticcall', []), {
      others: [
        { address: CALLEE, items: forwarder },
        { address: address(0x102), items: writer },
      ],
    });
    expect(returned(nested)).toEqual([1n, 0n, 0n]); // the forwarder succeeds, its call to the writer failed
    expect(nested.journal.publicDataWrites()).toEqual([]);
  });

  test(`calls nest at most ${CALL_DEPTH_MAX} deep`, async () => {
    // Each frame records its depth (calldata[0]) in storage, then calls itself one deeper; returns the call's success.
    const recurse: AsmItem[] = [
      { op: 'set', dst: 1, value: 1 },
      { op: 'calldataload', dst: 0, index: 200 },
      { op: 'sstore', slot: 0, value: 1 },
      { op: 'add', dst: 0, a: 0, b: 1 },
      { op: 'address', dst: 2 },
      { op: 'call', success: 3, address: 2, argsStart: 0, argsCount: 1, retStart: 4, retCount: 0 },
      { op: 'return', start: 3, count: 1 },
    ];
    const run = await runProgram(recurse, { calldata: [0] });
    expect(returned(run)).toEqual([1n]);
    const depths = run.journal.publicDataWrites().map((write) => write.leafSlot);
    const expected = Array.from({ length: CALL_DEPTH_MAX + 1 }, (_, depth) =>
      publicDataLeafSlot(CONTRACT, fieldToHex(BigInt(depth))),
    );
    expect(depths).toEqual(expected);
  });

  test('a call to an address with no contract, or with bad bytecode, fails', async () => {
    expect(returned(await runProgram(callCallee('call', [])))[0]).toBe(0n);
    const bad = { rawContracts: [{ address: CALLEE, bytecode: new Uint8Array([1, 0xff]) }] };
    expect(returned(await runProgram(callCallee('call', []), { spec: bad }))[0]).toBe(0n);
  });
});

describe('public VM reverts and limits', () => {
  test('revert carries its data, and a short string as the message', async () => {
    const run = await runProgram([
      { op: 'set', dst: 0, value: shortStringToField('balance too low') },
      { op: 'set', dst: 1, value: 7 },
      { op: 'revert', start: 0, count: 2 },
    ]);
    expect(run.result.success).toBe(false);
    if (run.result.success) return;
    expect(run.result.revert).toEqual({
      code: 'EXPLICIT_REVERT',
      contractAddress: CONTRACT,
      pc: 2,
      message: 'reverted at 2: balance too low',
      data: [fieldToHex(shortStringToField('balance too low')), fieldToHex(7n)],
    });
  });

  test("a revert drops the frame's own writes and emits", async () => {
    const run = await runProgram([
      { op: 'sstore', slot: 0, value: 0 },
      { op: 'emitnullifier', value: 0 },
      { op: 'revert', start: 0, count: 0 },
    ]);
    expect(revertCode(run)).toBe('EXPLICIT_REVERT');
    expect(run.journal.publicDataWrites()).toEqual([]);
    expect(run.journal.nullifiers).toEqual([]);
  });

  test('an endless loop runs out of mana and uses all of it', async () => {
    const run = await runProgram([{ label: 'top' }, { op: 'jump', target: 'top' }], { manaLimit: 1_001 });
    expect(revertCode(run)).toBe('OUT_OF_GAS');
    expect(run.meter.manaUsed).toBe(1_001);
  });

  test('mana is charged per instruction from the table', async () => {
    const items: AsmItem[] = [
      { op: 'set', dst: 0, value: 1 },
      { op: 'emitlog', tag: 0, start: 0, count: 3 },
      { op: 'return', start: 0, count: 1 },
    ];
    const run = await runProgram(items);
    expect(run.meter.manaUsed).toBe(1 + instructionMana({ op: 'emitlog', tag: 0, start: 0, count: 3 }) + 2);
    expect(revertCode(await runProgram(items, { manaLimit: run.meter.manaUsed - 1 }))).toBe('OUT_OF_GAS');
  });

  test('the instruction budget stops a cheap loop too', async () => {
    const run = await runProgram([{ label: 'top' }, { op: 'jump', target: 'top' }], { instructionsMax: 50 });
    expect(revertCode(run)).toBe('INSTRUCTION_LIMIT_EXCEEDED');
    expect(run.meter.instructionsExecuted).toBe(50);
  });
});
