/**
 * Seat numbers a quorum check refuses before looking a member up (negative or fractional ones), the sync check's
 * answer for an attestation list that does not decode, and the one-attester-per-attestation invariant.
 */
import { describe, expect, it } from 'vitest';
import type { L1RollupConstants } from '../../spec/chain.js';
import type { CommitteeAttestation } from '../../spec/validators/checkpointAttestations.js';
import {
  TEST_EPOCH_DURATION_SLOTS,
  hex32,
  secretKeyOf,
  testPayload,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import type { CheckpointProposedLog } from '../ports.js';
import { signCheckpointAttestation } from './bls.js';
import { drawCommittee } from './committee.js';
import { checkQuorum } from './quorum.js';
import { committeeSignatures, createSyncQuorumCheck } from './syncQuorum.js';
import type { ValidatorDuties } from './validatorDuties.js';

const committee = drawCommittee(testValidatorSet(7), 0, hex32(1));
const payload = testPayload(3);
const attest = (seat: number): CommitteeAttestation => ({
  committeeIndex: seat,
  signature: signCheckpointAttestation(secretKeyOf(committee.members[seat]!.address), payload).signature,
});

describe('checkQuorum refusing seats that are not seats', () => {
  it.each([-1, 1.5])('names seat %d as an unknown attester', (seat) => {
    const list = [0, 1, 2, 3, 4].map(attest);
    list.splice(2, 0, { committeeIndex: seat, signature: list[0]!.signature });
    expect(checkQuorum(committee, payload, list, TEST_EPOCH_DURATION_SLOTS)).toMatchObject({
      valid: false,
      failure: { reason: 'unknownAttester', position: 2, committeeIndex: seat },
    });
  });
});

describe('the sync quorum check', () => {
  it('refuses a checkpoint whose attestation list does not decode, saying so', async () => {
    const check = createSyncQuorumCheck({} as ValidatorDuties, { epochDuration: 32 } as L1RollupConstants);
    const verdict = await check({ attestations: '0x01' } as unknown as CheckpointProposedLog);
    expect(verdict).toMatchObject({
      accepted: false,
      reason: expect.stringMatching(/^its attestation list does not decode: .+/),
    });
  });

  it('asserts one attester per attestation', () => {
    expect(() => committeeSignatures([attest(0), attest(1)], [committee.members[0]!.address])).toThrow(
      'one attester per attestation',
    );
  });
});
