import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommitteeAttestation } from '../../spec/validators/checkpointAttestations.js';
import { COMMITTEE_SIZE } from '../../spec/validators/constants.js';
import {
  TEST_EPOCH_DURATION_SLOTS,
  hex32,
  secretKeyOf,
  testPayload,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import { signCheckpointAttestation } from './bls.js';
import { drawCommittee } from './committee.js';
import { checkQuorum } from './quorum.js';
import { committeeSignatures } from './syncQuorum.js';

const seatAddress = (seat: number) => `0x${seat.toString(16).padStart(40, '0')}` as const;
const seatSignature = (seat: number) => `0x${seat.toString(16).padStart(192, '0')}` as const;

describe('committeeSignatures', () => {
  it('for any order of distinct seats: sorted by seat, each signature kept with the attester of its own entry', () => {
    const seatLists = fc.uniqueArray(fc.integer({ min: 0, max: COMMITTEE_SIZE - 1 }), { maxLength: COMMITTEE_SIZE });
    fc.assert(
      fc.property(seatLists, (seats) => {
        const attestations: CommitteeAttestation[] = seats.map((seat) => ({
          committeeIndex: seat,
          signature: seatSignature(seat),
        }));
        const kept = committeeSignatures(attestations, seats.map(seatAddress));
        const sorted = [...seats].sort((a, b) => a - b);
        expect(kept).toEqual(sorted.map((seat) => ({ attester: seatAddress(seat), signature: seatSignature(seat) })));
      }),
    );
  });

  it('names the members a passing quorum check resolved, in seat order', () => {
    const committee = drawCommittee(testValidatorSet(7), 0, hex32(1));
    const payload = testPayload(3);
    const attestations = [5, 0, 3, 6, 1].map((seat) => ({
      committeeIndex: seat,
      signature: signCheckpointAttestation(secretKeyOf(committee.members[seat]!.address), payload).signature,
    }));
    const verdict = checkQuorum(committee, payload, attestations, TEST_EPOCH_DURATION_SLOTS);
    expect(verdict.valid).toBe(true);
    if (!verdict.valid) return;
    const kept = committeeSignatures(attestations, verdict.attesters);
    expect(kept.map((entry) => entry.attester)).toEqual(
      [0, 1, 3, 5, 6].map((seat) => committee.members[seat]!.address),
    );
    expect(kept.map((entry) => entry.signature)).toEqual(
      [0, 1, 3, 5, 6].map((seat) => attestations.find((a) => a.committeeIndex === seat)!.signature),
    );
  });
});
