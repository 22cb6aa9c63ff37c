/**
 * Slashable offenses the node has seen (spec: Versioning, note 6): a duplicate proposal (one proposer, one slot, two
 * different payloads) and a duplicate attestation (one attester, one slot, two different payloads), each with the two
 * signed entries that prove it. Penalties are 0 today. Offenses are grouped by slashing round, SLASH_ROUND_SLOTS
 * slots each, and kept beyond the attestation pool's window, at most SLASH_OFFENSES_KEPT_MAX of them (the oldest
 * recorded go first). Each record carries its place in detection order (`sequence`); the node persists the log through
 * its storage (core/validators/validatorStore.ts, by listening to `onChange`) and restores it at start.
 */
import type { z } from 'zod';
import type { Hex } from '../../spec/chain.js';
import type { offense as offenseSchema } from '../../spec/wire/slashing.js';
import {
  DUPLICATE_ATTESTATION_PENALTY,
  DUPLICATE_PROPOSAL_PENALTY,
  SLASH_OFFENSES_KEPT_MAX,
  SLASH_ROUND_SLOTS,
} from '../../spec/validators/constants.js';
import type { BlockProposalPayload, CheckpointProposalPayload } from '../../spec/validators/signingPayloads.js';
import { assert } from '../assert.js';

/** An offense as svcAdmin_getSlashOffenses answers it. */
export type OffenseValue = z.output<typeof offenseSchema>;
export type OffenseType = OffenseValue['offenseType'];

/** A signed entry of the attestation pool, as kept for evidence. */
export type SignedEntry =
  | {
      readonly kind: 'checkpointProposal';
      readonly payload: CheckpointProposalPayload;
      readonly payloadHash: Hex;
      readonly signer: Hex;
      readonly signature: Hex;
    }
  | {
      readonly kind: 'checkpointAttestation';
      readonly payload: CheckpointProposalPayload;
      readonly payloadHash: Hex;
      readonly signer: Hex;
      readonly signature: Hex;
    }
  | {
      readonly kind: 'blockProposal';
      readonly payload: BlockProposalPayload;
      readonly payloadHash: Hex;
      readonly signer: Hex;
      readonly signature: Hex;
    };

export interface OffenseRecord {
  readonly offense: OffenseValue;
  /** The two entries one signer signed for the same slot and duty, with different payloads (first seen first). */
  readonly evidence: readonly [SignedEntry, SignedEntry];
}

/** A record with its place in detection order: sequences only grow, also across restarts. */
export interface SequencedOffenseRecord extends OffenseRecord {
  readonly sequence: number;
}

/** What one newly recorded offense changed: the record added, and the oldest one dropped to stay within the bound. */
export interface OffenseLogChange {
  readonly added: SequencedOffenseRecord;
  readonly dropped: SequencedOffenseRecord | undefined;
}

/** svcAdmin_getSlashOffenses' parameter: a round, 'all', or 'current' (the round of the node's current slot). */
export type SlashRoundQuery = bigint | 'all' | 'current';

export function slashRoundOfSlot(slot: number): bigint {
  assert(Number.isSafeInteger(slot) && slot >= 0, 'a slot is a non-negative safe integer');
  return BigInt(Math.floor(slot / SLASH_ROUND_SLOTS));
}

export function penaltyOf(offenseType: OffenseType): bigint {
  return offenseType === 'duplicateProposal' ? DUPLICATE_PROPOSAL_PENALTY : DUPLICATE_ATTESTATION_PENALTY;
}

const offenseKey = (validator: Hex, offenseType: OffenseType, slot: number): string =>
  `${validator}/${offenseType}/${slot}`;

export class OffenseLog {
  /** Records in the order they were detected. */
  private readonly records: SequencedOffenseRecord[] = [];
  /** The offense recorded for each (validator, type, slot). */
  private readonly byKey = new Map<string, OffenseValue>();
  private nextSequence = 0;
  private readonly listeners: ((change: OffenseLogChange) => void)[] = [];

  /**
   * The log as it stood: `records` (persisted ones, in any order) by sequence, the newest SLASH_OFFENSES_KEPT_MAX of
   * them; later records follow the newest sequence.
   */
  static restore(records: readonly SequencedOffenseRecord[]): OffenseLog {
    const log = new OffenseLog();
    const ordered = [...records].sort((a, b) => a.sequence - b.sequence).slice(-SLASH_OFFENSES_KEPT_MAX);
    for (const record of ordered) {
      const { validator, offenseType, slot } = record.offense;
      const key = offenseKey(validator, offenseType, slot);
      assert(Number.isSafeInteger(record.sequence) && record.sequence >= log.nextSequence, 'sequences are unique');
      if (log.byKey.has(key)) continue;
      log.records.push(record);
      log.byKey.set(key, record.offense);
      log.nextSequence = record.sequence + 1;
    }
    return log;
  }

  /** Calls `listener` with every change a newly recorded offense makes (in order, synchronously). */
  onChange(listener: (change: OffenseLogChange) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Records the offense the two entries prove, once per (validator, type, slot); returns the offense recorded for
   * that key (the earlier one when it was already known).
   */
  record(offenseType: OffenseType, first: SignedEntry, second: SignedEntry): OffenseValue {
    assert(
      first.signer === second.signer && first.payloadHash !== second.payloadHash,
      'evidence is one signer with two payloads',
    );
    const slot = first.payload.slot;
    assert(second.payload.slot === slot, 'evidence is for one slot');
    const key = offenseKey(first.signer, offenseType, slot);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const offense: OffenseValue = {
      validator: first.signer,
      offenseType,
      slot,
      round: slashRoundOfSlot(slot),
      amount: penaltyOf(offenseType),
    };
    const added: SequencedOffenseRecord = { offense, evidence: [first, second], sequence: this.nextSequence++ };
    this.records.push(added);
    this.byKey.set(key, offense);
    let dropped: SequencedOffenseRecord | undefined;
    if (this.records.length > SLASH_OFFENSES_KEPT_MAX) {
      dropped = this.records.shift()!;
      this.byKey.delete(offenseKey(dropped.offense.validator, dropped.offense.offenseType, dropped.offense.slot));
    }
    assert(
      this.records.length <= SLASH_OFFENSES_KEPT_MAX && this.byKey.size === this.records.length,
      'offense log within its bound',
    );
    for (const listener of this.listeners) listener({ added, dropped });
    return offense;
  }

  /** The offenses of a round, of the current slot's round, or all kept, in detection order. */
  offenses(query: SlashRoundQuery, currentSlot: number): OffenseValue[] {
    if (query === 'all') return this.records.map((r) => r.offense);
    const round = query === 'current' ? slashRoundOfSlot(currentSlot) : query;
    return this.records.filter((r) => r.offense.round === round).map((r) => r.offense);
  }

  /** Offenses with their evidence (for submitting slashing proofs to L1 once penalties exist). */
  recordsOf(query: SlashRoundQuery, currentSlot: number): SequencedOffenseRecord[] {
    const wanted = new Set(this.offenses(query, currentSlot));
    return this.records.filter((r) => wanted.has(r.offense));
  }

  get size(): number {
    return this.records.length;
  }
}
