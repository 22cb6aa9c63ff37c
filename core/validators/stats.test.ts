import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { singleValidatorStats, validatorsStats } from '../../spec/wire/validator.js';
import { VALIDATOR_STATS_SLOT_WINDOW, VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX } from '../../spec/validators/constants.js';
import { testAddress, testDuties, testValidatorSet } from '../../test/validators/validatorFixtures.js';
import { NodeError } from '../errors.js';
import { ValidatorStatsHistory, slotRecordOf, statsSlotsEnd, type SlotRecord } from './stats.js';

const [a, b, c] = [testAddress(0), testAddress(1), testAddress(2)];
const record = (slot: number, proposer: Hex, proposed: boolean, attesters: Hex[]): SlotRecord => ({
  slot,
  proposer,
  proposed,
  committee: [a, b, c],
  attesters: new Set(attesters),
});

describe('ValidatorStatsHistory', () => {
  it('counts proposals and attestations made and missed, per validator', () => {
    const history = new ValidatorStatsHistory();
    history.record(record(10, a, true, [a, b]));
    history.record(record(11, b, false, [a]));
    history.record(record(12, a, true, [a, b, c]));
    const stats = history.validatorsStats();
    expect(stats).toMatchObject({ slotWindow: VALIDATOR_STATS_SLOT_WINDOW, initialSlot: 10, lastProcessedSlot: 12 });
    expect(stats.validators).toEqual([
      {
        address: a,
        proposalsMade: 2,
        proposalsMissed: 0,
        attestationsSent: 3,
        attestationsMissed: 0,
        lastProposalSlot: 12,
        lastAttestationSlot: 12,
      },
      {
        address: b,
        proposalsMade: 0,
        proposalsMissed: 1,
        attestationsSent: 2,
        attestationsMissed: 1,
        lastProposalSlot: null,
        lastAttestationSlot: 12,
      },
      {
        address: c,
        proposalsMade: 0,
        proposalsMissed: 0,
        attestationsSent: 1,
        attestationsMissed: 2,
        lastProposalSlot: null,
        lastAttestationSlot: 12,
      },
    ]);
    expect(validatorsStats.encode(stats)).toMatchObject({ initialSlot: '10', lastProcessedSlot: '12' });
  });

  it("answers one validator's duties in a slot range", () => {
    const history = new ValidatorStatsHistory();
    for (let slot = 1; slot <= 5; slot++)
      history.record(record(slot, slot % 2 === 0 ? b : a, slot !== 3, slot === 4 ? [a] : [a, b]));
    const single = history.validatorStats(b, 2, 4)!;
    expect(single.history).toEqual([
      { slot: 2, duty: 'proposed' },
      { slot: 2, duty: 'attested' },
      { slot: 3, duty: 'attested' },
      { slot: 4, duty: 'proposed' },
      { slot: 4, duty: 'missedAttestation' },
    ]);
    expect(single.validator).toMatchObject({ proposalsMade: 2, attestationsSent: 2, attestationsMissed: 1 });
    expect(singleValidatorStats.encode(single)).toMatchObject({ fromSlot: '2', toSlot: '4' });
    expect(history.validatorStats(b)).toMatchObject({ fromSlot: 0, toSlot: 5 });
    expect(history.validatorStats(b.toUpperCase().replace('0X', '0x') as Hex, 2, 4)).toEqual(single);
  });

  it('answers undefined for an unknown validator or before any slot, INVALID_PARAMS for a reversed range', () => {
    const history = new ValidatorStatsHistory();
    expect(history.validatorStats(a)).toBeUndefined();
    expect(history.validatorsStats()).toMatchObject({ initialSlot: null, lastProcessedSlot: null, validators: [] });
    history.record(record(1, a, true, []));
    expect(history.validatorStats(testAddress(9))).toBeUndefined();
    expect(() => history.validatorStats(a, 5, 4)).toThrow(NodeError);
  });

  it('records each slot once, in order, and keeps only the window', () => {
    const history = new ValidatorStatsHistory();
    expect(history.record(record(100, a, true, []))).toBe(true);
    expect(history.record(record(100, b, true, []))).toBe(false);
    expect(history.record(record(99, b, true, []))).toBe(false);
    history.record(record(100 + VALIDATOR_STATS_SLOT_WINDOW, b, true, []));
    expect(history.validatorsStats()).toMatchObject({
      initialSlot: 100 + VALIDATOR_STATS_SLOT_WINDOW,
      lastProcessedSlot: 100 + VALIDATOR_STATS_SLOT_WINDOW,
    });
    expect(history.validatorStats(a)).toMatchObject({
      validator: { proposalsMade: 0 },
      history: expect.not.arrayContaining([{ slot: 100, duty: 'proposed' }]),
    });
  });

  it("builds a slot's record from its duties and the pool's activity", () => {
    const duties = testDuties(testValidatorSet(4))(3);
    const proposer = duties.proposer!.address;
    const members = duties.committee.members.map((m) => m.address);
    const seen = slotRecordOf(
      duties,
      { checkpointProposers: new Set([proposer]), attesters: new Set(members.slice(0, 2)) },
      undefined,
    );
    expect(seen).toMatchObject({ slot: 3, proposer, proposed: true, committee: members });
    const nothingHeard = { checkpointProposers: new Set<Hex>(), attesters: new Set<Hex>() };
    expect(slotRecordOf(duties, nothingHeard, undefined).proposed).toBe(false);
    expect(slotRecordOf(duties, nothingHeard, { attesters: new Set() }).proposed).toBe(true);
  });

  it('counts a member whose attestation only the checkpoint on L1 carries as having attested', () => {
    const duties = testDuties(testValidatorSet(4))(3);
    const members = duties.committee.members.map((m) => m.address);
    const [heard, onL1Only, both, missing] = members as [Hex, Hex, Hex, Hex];
    const activity = { checkpointProposers: new Set<Hex>(), attesters: new Set([heard, both]) };
    // The chain store keeps attesters lowercase; a member's address may come in any case.
    const landed = { attesters: new Set([onL1Only, both].map((m) => m.toLowerCase() as Hex)) };
    const history = new ValidatorStatsHistory();
    history.record(slotRecordOf(duties, activity, landed));
    const byAddress = new Map(history.validatorsStats().validators.map((v) => [v.address, v]));
    for (const member of [heard, onL1Only, both])
      expect(byAddress.get(member.toLowerCase() as Hex)).toMatchObject({ attestationsSent: 1, attestationsMissed: 0 });
    expect(byAddress.get(missing.toLowerCase() as Hex)).toMatchObject({ attestationsSent: 0, attestationsMissed: 1 });
    // The proposer's checkpoint landed: its proposal counts though the pool never heard it.
    expect(byAddress.get(duties.proposer!.address.toLowerCase() as Hex)).toMatchObject({ proposalsMade: 1 });
    // Without the checkpoint, only what the pool heard counts.
    const unheard = new ValidatorStatsHistory();
    unheard.record(slotRecordOf(duties, activity, undefined));
    expect(unheard.validatorStats(onL1Only)?.validator).toMatchObject({ attestationsSent: 0, attestationsMissed: 1 });
  });
});

describe('statsSlotsEnd', () => {
  it('records a slot once the L1 sync has passed it, or once it waited long enough', () => {
    // The clock is in slot 100: slots up to 99 are over.
    expect(statsSlotsEnd(100, 99)).toBe(100);
    expect(statsSlotsEnd(100, 150)).toBe(100);
    // Synced up to slot 97: 98 and 99 wait for the sync...
    expect(statsSlotsEnd(100, 97)).toBe(98);
    // ...but not longer than VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX slots after they end.
    expect(statsSlotsEnd(100, 10)).toBe(100 - VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX);
    expect(statsSlotsEnd(100, undefined)).toBe(100 - VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX);
    expect(statsSlotsEnd(3, undefined)).toBe(0);
    expect(statsSlotsEnd(0, 0)).toBe(0);
  });
});
