/**
 * Validator statistics (svc_getValidatorsStats, svc_getValidatorStats): for every validator with a duty in the
 * recent slots, how many proposals and attestations it made and missed.
 *
 * The node records each slot once it is over and its L1 data is in (`record`), from what it knows then: the slot's
 * proposer and committee (core/validators/committee.ts), whether the proposer proposed (its checkpoint proposal reached
 * the attestation pool, or its checkpoint landed on L1), and which members attested (the pool saw their attestation,
 * or the checkpoint that landed on L1 carries their signature). A proposer also sits in the committee, so its slot
 * gives it two duties: the proposal and its attestation. The history keeps the slots within
 * VALIDATOR_STATS_SLOT_WINDOW of the last recorded one.
 *
 * When a slot is recorded (`statsSlotsEnd`): a checkpoint lands on L1 within its own slot (the rollup contract refuses
 * it in any other), so once the node's L1 sync has passed the slot, whether it landed and what it carries is known
 * for good. A slot is recorded then, or VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX slots after it ends when the sync lags,
 * from what the node knows at that point; a record is never amended. (An L1 reorg that moves the checkpoint within
 * its slot after the record was made is the one case left, and it changes nothing the record holds.)
 */
import type { z } from 'zod';
import type { Hex } from '../../spec/chain.js';
import type {
  singleValidatorStats,
  validatorStats,
  validatorsStats,
  VALIDATOR_DUTIES,
} from '../../spec/wire/validator.js';
import {
  ATTESTATION_POOL_SLOTS_KEPT,
  COMMITTEE_SIZE,
  VALIDATOR_STATS_SLOT_WINDOW,
  VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX,
} from '../../spec/validators/constants.js';
import { assert } from '../assert.js';
import { NodeError } from '../errors.js';
import type { SlotDuties } from './committee.js';

export type ValidatorStatsValue = z.output<typeof validatorStats>;
export type ValidatorsStatsValue = z.output<typeof validatorsStats>;
export type SingleValidatorStatsValue = z.output<typeof singleValidatorStats>;
export type ValidatorDuty = (typeof VALIDATOR_DUTIES)[number];

/** What happened in one slot, as the node saw it. */
export interface SlotRecord {
  readonly slot: number;
  /** The slot's proposer; undefined when the committee was empty (nobody had a duty). */
  readonly proposer: Hex | undefined;
  readonly proposed: boolean;
  /** The committee's addresses. */
  readonly committee: readonly Hex[];
  /** Members whose attestation for the slot was seen. */
  readonly attesters: ReadonlySet<Hex>;
}

interface DutyEntry {
  readonly slot: number;
  readonly address: Hex;
  readonly duty: ValidatorDuty;
}

/** A checkpoint of the node's chain, as the statistics see it: the attesters whose signatures it carries on L1. */
export interface LandedCheckpoint {
  /** Lowercase addresses (the chain store keeps each attestation with its attester resolved). */
  readonly attesters: ReadonlySet<Hex>;
}

/**
 * The record of a finished slot from its duties, what the pool saw (`AttestationPool.slotActivity`) and the slot's
 * checkpoint on the node's chain, if one landed: a member attested if the pool heard it or the checkpoint carries its
 * signature; the proposer proposed if the pool heard its proposal or its checkpoint landed.
 */
export function slotRecordOf(
  duties: SlotDuties,
  activity: { readonly checkpointProposers: ReadonlySet<Hex>; readonly attesters: ReadonlySet<Hex> },
  landed: LandedCheckpoint | undefined,
): SlotRecord {
  const proposer = duties.proposer?.address;
  const proposed = proposer !== undefined && (landed !== undefined || activity.checkpointProposers.has(proposer));
  const attesters =
    landed === undefined || landed.attesters.size === 0
      ? activity.attesters
      : new Set([...activity.attesters, ...landed.attesters]);
  return {
    slot: duties.slot,
    proposer,
    proposed,
    committee: duties.committee.members.map((m) => m.address),
    attesters,
  };
}

/**
 * The end (exclusive) of the slots the statistics may record with the clock in `clockSlot` and the node's L1 sync
 * complete up to `syncedSlot` (core/chain/chainService.ts `syncedSlotAt`): every slot that is over and synced, and
 * every slot that ended VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX slots ago, synced or not.
 */
export function statsSlotsEnd(clockSlot: number, syncedSlot: number | undefined): number {
  const waitedEnough = clockSlot - VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX;
  const synced = syncedSlot === undefined ? 0 : syncedSlot + 1;
  return Math.max(0, Math.min(clockSlot, Math.max(waitedEnough, synced)));
}

assert(
  VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX < ATTESTATION_POOL_SLOTS_KEPT / 2,
  'a slot is recorded while the attestation pool still holds its gossip',
);

function dutiesOf(record: SlotRecord): DutyEntry[] {
  const { slot } = record;
  const entries: DutyEntry[] = [];
  if (record.proposer !== undefined)
    entries.push({
      slot,
      address: record.proposer.toLowerCase() as Hex,
      duty: record.proposed ? 'proposed' : 'missedProposal',
    });
  for (const member of record.committee) {
    const address = member.toLowerCase() as Hex;
    const attested = record.attesters.has(member) || record.attesters.has(address);
    entries.push({ slot, address, duty: attested ? 'attested' : 'missedAttestation' });
  }
  return entries;
}

function emptyStats(address: Hex): { -readonly [K in keyof ValidatorStatsValue]: ValidatorStatsValue[K] } {
  return {
    address,
    proposalsMade: 0,
    proposalsMissed: 0,
    attestationsSent: 0,
    attestationsMissed: 0,
    lastProposalSlot: null,
    lastAttestationSlot: null,
  };
}

/** Counts of one validator over `entries` (its own, in slot order). */
function countDuties(address: Hex, entries: readonly DutyEntry[]): ValidatorStatsValue {
  const stats = emptyStats(address);
  for (const { slot, duty } of entries) {
    if (duty === 'proposed') [stats.proposalsMade, stats.lastProposalSlot] = [stats.proposalsMade + 1, slot];
    else if (duty === 'missedProposal') stats.proposalsMissed += 1;
    else if (duty === 'attested')
      [stats.attestationsSent, stats.lastAttestationSlot] = [stats.attestationsSent + 1, slot];
    else stats.attestationsMissed += 1;
  }
  return stats;
}

/** Duty entries the history may hold: a proposer and a full committee for every slot of the window. */
const ENTRIES_MAX = VALIDATOR_STATS_SLOT_WINDOW * (1 + COMMITTEE_SIZE);

export class ValidatorStatsHistory {
  /** Duty entries of the kept slots, in slot order. */
  private entries: DutyEntry[] = [];
  /** The kept slots (recorded, within the window of the last), in order, duties or not. */
  private slots: number[] = [];

  get lastProcessedSlot(): number | undefined {
    return this.slots.at(-1);
  }

  /** The recorded slots the history keeps, in order. */
  get keptSlots(): readonly number[] {
    return this.slots;
  }

  /** Records a finished slot; a slot at or before the last recorded one is ignored (false). */
  record(record: SlotRecord): boolean {
    assert(Number.isSafeInteger(record.slot) && record.slot >= 0, 'a slot is a non-negative safe integer');
    assert(record.committee.length <= COMMITTEE_SIZE, `a committee has at most ${COMMITTEE_SIZE} members`);
    const last = this.slots.at(-1);
    if (last !== undefined && record.slot <= last) return false;
    this.slots.push(record.slot);
    this.entries.push(...dutiesOf(record));
    const oldestKept = record.slot - VALIDATOR_STATS_SLOT_WINDOW + 1;
    if (this.slots[0]! < oldestKept) {
      this.slots = this.slots.filter((slot) => slot >= oldestKept);
      this.entries = this.entries.filter((e) => e.slot >= oldestKept);
    }
    assert(
      this.slots.length <= VALIDATOR_STATS_SLOT_WINDOW && this.entries.length <= ENTRIES_MAX,
      'the history stays within its slot window',
    );
    return true;
  }

  /** svc_getValidatorsStats: every validator with a duty in the window, by address. */
  validatorsStats(): ValidatorsStatsValue {
    const byAddress = new Map<Hex, DutyEntry[]>();
    for (const entry of this.entries) {
      const list = byAddress.get(entry.address);
      if (list === undefined) byAddress.set(entry.address, [entry]);
      else list.push(entry);
    }
    const validators = [...byAddress.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([address, list]) => countDuties(address, list));
    return {
      slotWindow: VALIDATOR_STATS_SLOT_WINDOW,
      initialSlot: this.slots[0] ?? null,
      lastProcessedSlot: this.slots.at(-1) ?? null,
      validators,
    };
  }

  /**
   * svc_getValidatorStats: one validator's counts and duties in [fromSlot, toSlot] (default: the window up to the last
   * recorded slot). Undefined when the validator had no duty in the kept history; INVALID_PARAMS when fromSlot > toSlot.
   */
  validatorStats(address: Hex, fromSlot?: number, toSlot?: number): SingleValidatorStatsValue | undefined {
    const last = this.slots.at(-1);
    if (last === undefined) return undefined;
    const to = toSlot ?? last;
    const from = fromSlot ?? Math.max(0, to - VALIDATOR_STATS_SLOT_WINDOW + 1);
    if (from > to)
      throw new NodeError('INVALID_PARAMS', `fromSlot ${from} is after toSlot ${to}`, { fromSlot: from, toSlot: to });
    const wanted = address.toLowerCase() as Hex;
    const own = this.entries.filter((e) => e.address === wanted);
    if (own.length === 0) return undefined;
    const inRange = own.filter((e) => e.slot >= from && e.slot <= to);
    return {
      validator: countDuties(wanted, inRange),
      fromSlot: from,
      toSlot: to,
      history: inRange.map(({ slot, duty }) => ({ slot, duty })),
    };
  }
}
