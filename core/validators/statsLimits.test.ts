/**
 * ValidatorStatsHistory at its edges: the records it refuses as broken invariants, the slot window kept to the slot,
 * the validators listed in address order, and the default and reversed ranges of one validator's query.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { COMMITTEE_SIZE, VALIDATOR_STATS_SLOT_WINDOW } from '../../spec/validators/constants.js';
import { testAddress } from '../../test/validators/validatorFixtures.js';
import { ValidatorStatsHistory, type SlotRecord } from './stats.js';

const [a, b, c] = [testAddress(0), testAddress(1), testAddress(2)];

const recordOf = (slot: number, committee: readonly Hex[] = [a], attesters: readonly Hex[] = []): SlotRecord => ({
  slot,
  proposer: committee[0],
  proposed: true,
  committee,
  attesters: new Set(attesters),
});

/** An address with upper-case hex digits, as an L1 registration may spell it. */
const mixedCase = (n: number): Hex => `0x${'AB'.repeat(19)}${n.toString(16).padStart(2, '0')}`;

describe('ValidatorStatsHistory refuses broken records', () => {
  it('asserts a slot is a non-negative safe integer', () => {
    const history = new ValidatorStatsHistory();
    for (const slot of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1])
      expect(() => history.record(recordOf(slot))).toThrow('a slot is a non-negative safe integer');
    expect(history.record(recordOf(0))).toBe(true);
  });

  it('asserts a committee has at most COMMITTEE_SIZE members', () => {
    const members = Array.from({ length: COMMITTEE_SIZE + 1 }, (_, n) => testAddress(n));
    const history = new ValidatorStatsHistory();
    expect(() => history.record(recordOf(1, members))).toThrow(`a committee has at most ${COMMITTEE_SIZE} members`);
    expect(history.record(recordOf(1, members.slice(0, COMMITTEE_SIZE)))).toBe(true);
  });
});

describe('ValidatorStatsHistory over its window', () => {
  it('keeps the slot exactly a window before the last one, and its duties', () => {
    const history = new ValidatorStatsHistory();
    history.record(recordOf(0, [b]));
    history.record(recordOf(1, [a]));
    history.record(recordOf(VALIDATOR_STATS_SLOT_WINDOW, [c]));
    expect(history.keptSlots).toEqual([1, VALIDATOR_STATS_SLOT_WINDOW]);
    expect(history.validatorsStats().validators.map((v) => v.address)).toEqual([a, c]);
  });

  it('holds a full window of full committees', () => {
    const members = Array.from({ length: COMMITTEE_SIZE }, (_, n) => testAddress(n));
    const history = new ValidatorStatsHistory();
    for (let slot = 0; slot <= VALIDATOR_STATS_SLOT_WINDOW; slot++) history.record(recordOf(slot, members, members));
    expect(history.keptSlots).toHaveLength(VALIDATOR_STATS_SLOT_WINDOW);
    expect(history.validatorStats(a)?.validator).toMatchObject({
      proposalsMade: VALIDATOR_STATS_SLOT_WINDOW,
      attestationsSent: VALIDATOR_STATS_SLOT_WINDOW,
    });
  });

  it('answers by default the window up to the last slot, and a one-slot range', () => {
    const history = new ValidatorStatsHistory();
    const last = VALIDATOR_STATS_SLOT_WINDOW + 6;
    for (const slot of [5, 6, 7, last]) history.record(recordOf(slot));
    expect(history.validatorStats(a)).toMatchObject({ fromSlot: 7, toSlot: last });
    expect(history.validatorStats(a)?.history.map((h) => h.slot)).toEqual([7, 7, last, last]);
    expect(history.validatorStats(a, 7, 7)?.history).toEqual([
      { slot: 7, duty: 'proposed' },
      { slot: 7, duty: 'missedAttestation' },
    ]);
  });

  it('names a reversed range in its INVALID_PARAMS error', () => {
    const history = new ValidatorStatsHistory();
    history.record(recordOf(1));
    expect(() => history.validatorStats(a, 5, 4)).toThrow(
      expect.objectContaining({
        code: 'INVALID_PARAMS',
        message: 'fromSlot 5 is after toSlot 4',
        details: { fromSlot: 5, toSlot: 4 },
      }),
    );
  });
});

describe('ValidatorStatsHistory lists validators', () => {
  it('counts a member as attested whatever the case of its address in the committee', () => {
    const member = mixedCase(1);
    const history = new ValidatorStatsHistory();
    history.record(recordOf(1, [member], [member.toLowerCase() as Hex]));
    expect(history.validatorStats(member)?.validator).toMatchObject({ attestationsSent: 1, attestationsMissed: 0 });
  });

  it('in address order, whatever order their duties came in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...Array(40).keys()], { minLength: 2 }), (numbers) => {
        const history = new ValidatorStatsHistory();
        history.record(recordOf(1, numbers.map(testAddress)));
        const listed = history.validatorsStats().validators.map((v) => v.address);
        expect(listed).toEqual([...listed].sort());
        expect(listed).toHaveLength(numbers.length);
      }),
    );
  });
});
