/**
 * The journaled write overlay of one tx's public execution: storage writes by leaf slot and the emitted note hashes,
 * nullifiers, L2-to-L1 message hashes and public logs, in emission order. `checkpoint` marks a point and `revertTo`
 * drops everything recorded after it, so a reverted frame (or phase) loses exactly its own writes and emits while
 * its caller's stay.
 *
 * Storage writes keep one entry per leaf slot, its value the last one written; slots keep the order of their first
 * write (a slot whose first write was reverted counts from its next write). Per-tx bounds: `capacity` is what the
 * tx's private side effects left of each `*_PER_TX_MAX`; the fee payer's balance slot is reserved, since the fee
 * write always lands in the tx effect.
 */
import type { Hex, PublicDataWrite, PublicLog } from '../../spec/chain.js';
import { assert } from '../assert.js';
import type { PublicStateView } from './stateView.js';

export interface JournalCapacity {
  readonly noteHashes: number;
  readonly nullifiers: number;
  readonly l2ToL1Messages: number;
  readonly publicLogs: number;
  /** Distinct leaf slots written, the reserved slot included. */
  readonly publicDataWrites: number;
}

export interface JournalCheckpoint {
  readonly storageUndoLength: number;
  readonly noteHashes: number;
  readonly nullifiers: number;
  readonly l2ToL1Messages: number;
  readonly publicLogs: number;
}

export type JournalFailure = 'EFFECT_LIMIT_EXCEEDED' | 'DUPLICATE_NULLIFIER';

interface StorageUndo {
  readonly leafSlot: Hex;
  /** The slot's journal value before the write; undefined when the journal did not hold the slot. */
  readonly previous: Hex | undefined;
}

export class StateJournal {
  private readonly storage = new Map<Hex, Hex>();
  private readonly storageUndo: StorageUndo[] = [];
  private readonly noteHashList: Hex[] = [];
  private readonly nullifierList: Hex[] = [];
  private readonly nullifierSet = new Set<Hex>();
  private readonly messageList: Hex[] = [];
  private readonly publicLogList: PublicLog[] = [];

  constructor(
    private readonly state: PublicStateView,
    private readonly capacity: JournalCapacity,
    /** Nullifiers the tx already emits privately: public code may not emit them again. */
    private readonly txNullifiers: ReadonlySet<Hex>,
    /** A leaf slot counted against the write bound from the start (the fee payer's balance). */
    private readonly reservedLeafSlot: Hex,
  ) {
    assert(
      Object.values(capacity).every((n) => Number.isSafeInteger(n) && n >= 0),
      'journal capacities are non-negative integers',
    );
    assert(capacity.publicDataWrites >= 1, 'the reserved slot fits the write bound');
  }

  async storageRead(leafSlot: Hex): Promise<Hex> {
    return this.storage.get(leafSlot) ?? this.state.publicDataRead(leafSlot);
  }

  storageWrite(leafSlot: Hex, value: Hex): JournalFailure | undefined {
    const previous = this.storage.get(leafSlot);
    const newSlot = previous === undefined && leafSlot !== this.reservedLeafSlot;
    const reservedPending = this.storage.has(this.reservedLeafSlot) ? 0 : 1;
    if (newSlot && this.storage.size + reservedPending >= this.capacity.publicDataWrites)
      return 'EFFECT_LIMIT_EXCEEDED';
    this.storageUndo.push({ leafSlot, previous });
    this.storage.set(leafSlot, value);
    return undefined;
  }

  emitNoteHash(noteHash: Hex): JournalFailure | undefined {
    return pushBounded(this.noteHashList, noteHash, this.capacity.noteHashes);
  }

  async emitNullifier(nullifier: Hex): Promise<JournalFailure | undefined> {
    if (this.nullifierSet.has(nullifier) || this.txNullifiers.has(nullifier)) return 'DUPLICATE_NULLIFIER';
    if (this.nullifierList.length >= this.capacity.nullifiers) return 'EFFECT_LIMIT_EXCEEDED';
    if (await this.state.nullifierExists(nullifier)) return 'DUPLICATE_NULLIFIER';
    this.nullifierList.push(nullifier);
    this.nullifierSet.add(nullifier);
    return undefined;
  }

  emitL2ToL1Message(messageHash: Hex): JournalFailure | undefined {
    return pushBounded(this.messageList, messageHash, this.capacity.l2ToL1Messages);
  }

  emitPublicLog(log: PublicLog): JournalFailure | undefined {
    return pushBounded(this.publicLogList, log, this.capacity.publicLogs);
  }

  checkpoint(): JournalCheckpoint {
    return {
      storageUndoLength: this.storageUndo.length,
      noteHashes: this.noteHashList.length,
      nullifiers: this.nullifierList.length,
      l2ToL1Messages: this.messageList.length,
      publicLogs: this.publicLogList.length,
    };
  }

  /** Drops every write and emit recorded after `checkpoint`. */
  revertTo(checkpoint: JournalCheckpoint): void {
    assert(checkpoint.storageUndoLength <= this.storageUndo.length, 'a checkpoint is not reverted twice');
    // Bounded by the undo log's length.
    while (this.storageUndo.length > checkpoint.storageUndoLength) {
      const undo = this.storageUndo.pop();
      assert(undo !== undefined, 'the undo log is longer than the checkpoint');
      if (undo.previous === undefined) this.storage.delete(undo.leafSlot);
      else this.storage.set(undo.leafSlot, undo.previous);
    }
    this.noteHashList.length = checkpoint.noteHashes;
    for (const nullifier of this.nullifierList.splice(checkpoint.nullifiers)) this.nullifierSet.delete(nullifier);
    this.messageList.length = checkpoint.l2ToL1Messages;
    this.publicLogList.length = checkpoint.publicLogs;
  }

  /** Storage writes: one per leaf slot, last value, in first-write order. */
  publicDataWrites(): PublicDataWrite[] {
    return [...this.storage].map(([leafSlot, value]) => ({ leafSlot, value }));
  }

  hasWritten(leafSlot: Hex): boolean {
    return this.storage.has(leafSlot);
  }

  get noteHashes(): readonly Hex[] {
    return this.noteHashList;
  }

  get nullifiers(): readonly Hex[] {
    return this.nullifierList;
  }

  get l2ToL1Messages(): readonly Hex[] {
    return this.messageList;
  }

  get publicLogs(): readonly PublicLog[] {
    return this.publicLogList;
  }
}

function pushBounded<T>(list: T[], item: T, max: number): JournalFailure | undefined {
  if (list.length >= max) return 'EFFECT_LIMIT_EXCEEDED';
  list.push(item);
  return undefined;
}
