import { describe, expect, test } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { address, openJournal } from '../../test/publicVm/vmFixtures.js';
import { emptyPublicState, memoryPublicState } from './stateView.js';

const slot = (n: number): Hex => address(0x5000 + n);
const value = (n: number): Hex => address(n);

describe('state journal', () => {
  test('reads fall through to the state until written', async () => {
    const state = memoryPublicState({ storage: [] });
    const journal = openJournal(state);
    expect(await journal.storageRead(slot(1))).toBe(address(0));
    journal.storageWrite(slot(1), value(9));
    expect(await journal.storageRead(slot(1))).toBe(value(9));
  });

  test('revertTo restores values, drops new slots and emits, and keeps what came before', () => {
    const journal = openJournal(emptyPublicState);
    journal.storageWrite(slot(1), value(1));
    journal.emitNoteHash(value(10));
    const checkpoint = journal.checkpoint();
    journal.storageWrite(slot(1), value(2));
    journal.storageWrite(slot(2), value(3));
    journal.emitNoteHash(value(11));
    journal.emitPublicLog({ contractAddress: value(1), tag: value(2), fields: [] });
    journal.emitL2ToL1Message(value(12));
    journal.revertTo(checkpoint);
    expect(journal.publicDataWrites()).toEqual([{ leafSlot: slot(1), value: value(1) }]);
    expect(journal.noteHashes).toEqual([value(10)]);
    expect(journal.publicLogs).toEqual([]);
    expect(journal.l2ToL1Messages).toEqual([]);
  });

  test('a reverted nullifier may be emitted again', async () => {
    const journal = openJournal(emptyPublicState);
    const checkpoint = journal.checkpoint();
    expect(await journal.emitNullifier(value(7))).toBeUndefined();
    expect(await journal.emitNullifier(value(7))).toBe('DUPLICATE_NULLIFIER');
    journal.revertTo(checkpoint);
    expect(await journal.emitNullifier(value(7))).toBeUndefined();
  });

  test('a slot whose first write was reverted takes its place from its next write', () => {
    const journal = openJournal(emptyPublicState);
    const checkpoint = journal.checkpoint();
    journal.storageWrite(slot(1), value(1));
    journal.revertTo(checkpoint);
    journal.storageWrite(slot(2), value(2));
    journal.storageWrite(slot(1), value(3));
    expect(journal.publicDataWrites().map((w) => w.leafSlot)).toEqual([slot(2), slot(1)]);
  });

  test('the reserved slot counts against the write bound from the start', () => {
    const journal = openJournal(emptyPublicState, { publicDataWrites: 2 });
    expect(journal.storageWrite(slot(1), value(1))).toBeUndefined();
    expect(journal.storageWrite(slot(2), value(1))).toBe('EFFECT_LIMIT_EXCEEDED');
    expect(journal.storageWrite(address(0xfee), value(1))).toBeUndefined();
    expect(journal.storageWrite(slot(1), value(2))).toBeUndefined();
  });
});
