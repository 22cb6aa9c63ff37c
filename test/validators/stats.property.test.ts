/**
 * Validator statistics for all slot histories: every recorded duty is counted exactly once (made or missed), a
 * validator's proposals made plus missed equal the kept slots it was proposer of, slots older than the window are
 * forgotten, and one validator's history over the whole window agrees with its counts in svc_getValidatorsStats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VALIDATOR_STATS_SLOT_WINDOW } from '../../spec/validators/constants.js';
import { ValidatorStatsHistory, type SlotRecord } from '../../core/validators/stats.js';
import { testAddress } from './validatorFixtures.js';

const ADDRESSES = [0, 1, 2, 3, 4, 5].map(testAddress);

const slotArbitrary = fc.record({
  gap: fc.integer({ min: 1, max: 60 }),
  proposer: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  proposed: fc.boolean(),
  committee: fc.subarray([0, 1, 2, 3, 4, 5]),
  attesterMask: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
});

describe('validator statistics for all histories', () => {
  it('count every duty of the window once, consistently between the two queries', () => {
    fc.assert(
      fc.property(fc.array(slotArbitrary, { minLength: 10, maxLength: 80 }), (slots) => {
        const history = new ValidatorStatsHistory();
        const records: SlotRecord[] = [];
        let slot = 0;
        for (const s of slots) {
          slot += s.gap;
          const committee = s.committee.map((i) => ADDRESSES[i]!);
          const record: SlotRecord = {
            slot,
            proposer: s.proposer === undefined ? undefined : ADDRESSES[s.proposer],
            proposed: s.proposed,
            committee,
            attesters: new Set(committee.filter((_, i) => s.attesterMask[i])),
          };
          history.record(record);
          records.push(record);
        }
        const stats = history.validatorsStats();
        const kept = records.filter((r) => r.slot > slot - VALIDATOR_STATS_SLOT_WINDOW);
        const totalDuties = kept.reduce((n, r) => n + (r.proposer === undefined ? 0 : 1) + r.committee.length, 0);
        const counted = stats.validators.reduce(
          (n, v) => n + v.proposalsMade + v.proposalsMissed + v.attestationsSent + v.attestationsMissed,
          0,
        );
        expect(counted).toBe(totalDuties);
        expect(stats.initialSlot).toBe(kept[0]?.slot ?? null);
        for (const v of stats.validators) {
          expect(v.proposalsMade + v.proposalsMissed).toBe(kept.filter((r) => r.proposer === v.address).length);
          const single = history.validatorStats(v.address, 0, slot)!;
          expect(single.validator).toEqual(v);
          expect(single.history).toHaveLength(
            v.proposalsMade + v.proposalsMissed + v.attestationsSent + v.attestationsMissed,
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});
