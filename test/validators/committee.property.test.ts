/**
 * The committee draw's rules for all inputs: it is a function of (set, epoch, seed source); its members are distinct
 * entries of the set, COMMITTEE_SIZE of them or the whole set; each slot's proposer is a member; the uniform sampler
 * never returns a value at or above its bound and skips exactly the draws in the biased tail. And, on fixed seeds,
 * that members and proposers come out with the frequencies a uniform draw gives (chi-square).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { COMMITTEE_SIZE } from '../../spec/validators/constants.js';
import { DRAW_RANGE } from '../../spec/validators/committeeDraws.js';
import { drawCommittee, proposerOf, uniformBelow } from '../../core/validators/committee.js';
import { hex32, testValidatorSet } from './validatorFixtures.js';

const SET = testValidatorSet(150);
const EPOCH_SLOTS = 32;
const seedSourceArbitrary = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bytesToHex(bytes) as Hex);

describe('drawCommittee for all sets, epochs and seeds', () => {
  it('is deterministic, draws distinct members of the set, min(COMMITTEE_SIZE, n) of them, and proposers among them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: SET.length }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        seedSourceArbitrary,
        (size, epoch, seedSource) => {
          const set = SET.slice(0, size);
          const committee = drawCommittee(set, epoch, seedSource);
          expect(drawCommittee(set, epoch, seedSource)).toEqual(committee);
          expect(committee.members).toHaveLength(Math.min(COMMITTEE_SIZE, size));
          expect(new Set(committee.members.map((m) => m.validatorIndex)).size).toBe(committee.members.length);
          for (const member of committee.members) {
            expect(member.validatorIndex).toBeLessThan(size);
            expect(set[member.validatorIndex]!.address).toBe(member.address);
          }
          for (const slot of [epoch * EPOCH_SLOTS, epoch * EPOCH_SLOTS + 17, epoch * EPOCH_SLOTS + EPOCH_SLOTS - 1]) {
            const proposer = proposerOf(committee, slot, EPOCH_SLOTS);
            if (size === 0) expect(proposer).toBeUndefined();
            else expect(committee.members).toContain(proposer);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('uniformBelow for all bounds and draw streams', () => {
  it('returns the first draw below the largest multiple of the bound, reduced modulo the bound', () => {
    const drawArbitrary = fc.bigInt({ min: 0n, max: DRAW_RANGE - 1n });
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: DRAW_RANGE }),
        fc.array(drawArbitrary, { minLength: 1, maxLength: 8 }),
        (bound, draws) => {
          const limit = DRAW_RANGE - (DRAW_RANGE % bound);
          // End the stream with an accepted draw so that the sampler always has one.
          const stream = [...draws, 0n];
          const expectedIndex = stream.findIndex((v) => v < limit);
          const result = uniformBelow(bound, (attempt) => stream[attempt]!);
          expect(result).toBeLessThan(bound);
          expect(result).toBe(stream[expectedIndex]! % bound);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** Pearson's chi-square statistic of observed counts against a uniform expectation. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

describe('uniformity on fixed seeds', () => {
  it('every validator of a 60-validator set is drawn as often as the others', () => {
    const set = SET.slice(0, 60);
    const counts = new Array<number>(set.length).fill(0);
    for (let epoch = 0; epoch < 300; epoch++)
      for (const m of drawCommittee(set, epoch, hex32(1)).members) counts[m.validatorIndex]! += 1;
    // 59 degrees of freedom: the 0.999 quantile is about 99.6. (Draws without replacement spread even less.)
    expect(chiSquare(counts)).toBeLessThan(99.6);
  });

  it('every seat of a 7-member committee proposes as often as the others', () => {
    const committee = drawCommittee(SET.slice(0, 7), 0, hex32(2));
    const counts = new Array<number>(7).fill(0);
    const slots = 7_000;
    // One committee, many slots: the proposer draw hashes the slot, so reuse the epoch check with epochs of `slots` slots.
    for (let slot = 0; slot < slots; slot++) counts[proposerOf(committee, slot, slots)!.committeeIndex]! += 1;
    // 6 degrees of freedom: the 0.999 quantile is about 22.5.
    expect(chiSquare(counts)).toBeLessThan(22.5);
  });
});
