import { describe, expect, it } from 'vitest';
import { COMMITTEE_SEED_LAG_EPOCHS, COMMITTEE_SIZE, VALIDATOR_SET_SIZE_MAX } from '../../spec/validators/constants.js';
import { DRAW_RANGE } from '../../spec/validators/committeeDraws.js';
import { hex32, testValidatorSet } from '../../test/validators/validatorFixtures.js';
import {
  committeeMemberOf,
  drawCommittee,
  epochOfSlot,
  epochSeed,
  proposerOf,
  quorumSize,
  seedSourceSlot,
  uniformBelow,
  type Validator,
} from './committee.js';

describe('quorum', () => {
  it('is floor(2n/3) + 1, and nothing for an empty committee', () => {
    const table: [number, number][] = [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 3],
      [5, 4],
      [6, 5],
      [7, 5],
      [9, 7],
      [48, 33],
    ];
    for (const [size, quorum] of table) expect(quorumSize(size)).toBe(quorum);
  });
});

describe('uniformBelow', () => {
  it('rejects draws at or above the largest multiple of the bound and takes the next', () => {
    const bound = DRAW_RANGE / 2n + 1n; // only one multiple fits: values >= bound are rejected
    const draws = [DRAW_RANGE - 1n, bound, 5n];
    const seen: number[] = [];
    expect(uniformBelow(bound, (attempt) => (seen.push(attempt), draws[attempt]!))).toBe(5n);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('reduces an accepted draw modulo the bound', () => {
    expect(uniformBelow(10n, () => 123n)).toBe(3n);
    expect(uniformBelow(1n, () => DRAW_RANGE - 1n)).toBe(0n);
  });

  it('fails an assertion when every attempt is rejected', () => {
    expect(() => uniformBelow(DRAW_RANGE / 2n + 1n, () => DRAW_RANGE - 1n)).toThrow(/assertion failed/);
  });
});

describe('drawCommittee', () => {
  it('takes the whole set, in a drawn order, when it is smaller than the committee', () => {
    const set = testValidatorSet(5);
    const committee = drawCommittee(set, 3, hex32(1));
    expect(committee.members.map((m) => m.validatorIndex).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(committee.quorum).toBe(4);
    expect(committee.members.map((m) => m.committeeIndex)).toEqual([0, 1, 2, 3, 4]);
  });

  it(`draws ${COMMITTEE_SIZE} distinct members from a larger set`, () => {
    const set = testValidatorSet(200);
    const committee = drawCommittee(set, 1, hex32(7));
    expect(committee.members).toHaveLength(COMMITTEE_SIZE);
    expect(new Set(committee.members.map((m) => m.validatorIndex)).size).toBe(COMMITTEE_SIZE);
    for (const member of committee.members) {
      expect(set[member.validatorIndex]).toEqual({ address: member.address, blsPublicKey: member.blsPublicKey });
      expect(committeeMemberOf(committee, member.address)).toBe(member);
    }
    expect(committee.quorum).toBe(33);
  });

  it('changes with the epoch and with the seed source', () => {
    const set = testValidatorSet(200);
    const seats = (epoch: number, source: number): number[] =>
      drawCommittee(set, epoch, hex32(source)).members.map((m) => m.validatorIndex);
    expect(seats(1, 7)).toEqual(seats(1, 7));
    expect(seats(2, 7)).not.toEqual(seats(1, 7));
    expect(seats(1, 8)).not.toEqual(seats(1, 7));
    expect(drawCommittee(set, 1, hex32(7)).seed).toBe(epochSeed(1, hex32(7)));
  });

  it('is empty for an empty set, with no proposer and no quorum', () => {
    const committee = drawCommittee([], 0, hex32(0));
    expect(committee.members).toEqual([]);
    expect(committee.quorum).toBe(0);
    expect(proposerOf(committee, 5, 32)).toBeUndefined();
  });

  it('refuses a set that repeats an address (the contract registers each once)', () => {
    const set = testValidatorSet(3);
    expect(() =>
      drawCommittee(
        [...set, { ...set[0]!, address: set[0]!.address.toUpperCase().replace('0X', '0x') as `0x${string}` }],
        0,
        hex32(0),
      ),
    ).toThrow(/once/);
  });
});

describe('proposers', () => {
  it('are committee members, fixed per slot, and the slot must be in the epoch', () => {
    const committee = drawCommittee(testValidatorSet(100), 2, hex32(3));
    for (let slot = 64; slot < 96; slot++) {
      const proposer = proposerOf(committee, slot, 32);
      expect(committee.members).toContain(proposer);
      expect(proposerOf(committee, slot, 32)).toBe(proposer);
    }
    expect(() => proposerOf(committee, 96, 32)).toThrow(/epoch/);
  });
});

describe('seed source', () => {
  it(`reads the chain at the start of the epoch ${COMMITTEE_SEED_LAG_EPOCHS} epochs back`, () => {
    expect(seedSourceSlot(0, 32)).toBe(0);
    expect(seedSourceSlot(1, 32)).toBe(0);
    expect(seedSourceSlot(2, 32)).toBe(0);
    expect(seedSourceSlot(5, 32)).toBe((5 - COMMITTEE_SEED_LAG_EPOCHS) * 32);
  });
});

describe('argument checks', () => {
  it('a committee size is a non-negative integer', () => {
    for (const size of [-1, 1.5]) expect(() => quorumSize(size)).toThrow(/a committee size is a non-negative integer/);
  });

  it('an epoch has slots', () => {
    expect(epochOfSlot(65, 32)).toBe(2);
    expect(() => epochOfSlot(5, 0)).toThrow(/an epoch has slots/);
  });

  it('a draw bound is in [1, 2^248], and the largest one is allowed', () => {
    for (const bound of [0n, DRAW_RANGE + 1n])
      expect(() => uniformBelow(bound, () => 1n)).toThrow(/a draw bound is in \[1, 2\^248\]/);
    expect(uniformBelow(DRAW_RANGE, () => 7n)).toBe(7n);
  });

  it('a draw is below 2^248 and not negative', () => {
    for (const bad of [-1n, DRAW_RANGE]) {
      const draws = [bad, 1n];
      expect(() => uniformBelow(3n, (attempt) => draws[attempt]!)).toThrow(/a draw is below 2\^248/);
    }
  });

  it('gives up after 64 rejected draws instead of taking a 65th', () => {
    const bound = DRAW_RANGE / 2n + 1n; // draws at or above the bound are rejected
    expect(() => uniformBelow(bound, (attempt) => (attempt < 64 ? DRAW_RANGE - 1n : 0n))).toThrow(
      /no accepted draw in 64 attempts/,
    );
  });
});

describe('the validator set cap', () => {
  it(`refuses a set of more than ${VALIDATOR_SET_SIZE_MAX} validators, before looking at them`, () => {
    const tooMany = new Array<Validator>(VALIDATOR_SET_SIZE_MAX + 1);
    expect(() => drawCommittee(tooMany, 0, hex32(1))).toThrow(
      `the rollup contract caps its validator set at ${VALIDATOR_SET_SIZE_MAX}`,
    );
  });
});
