import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import type { CommitteeAttestation } from '../../spec/validators/checkpointAttestations.js';
import {
  checkpointProposalPayloadHash,
  type CheckpointProposalPayload,
} from '../../spec/validators/signingPayloads.js';
import {
  TEST_EPOCH_DURATION_SLOTS,
  hex32,
  secretKeyOf,
  testPayload,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import { signCheckpointAttestation, signCheckpointProposal } from './bls.js';
import { drawCommittee, type EpochCommittee } from './committee.js';
import { checkQuorum, describeQuorumFailure, type QuorumVerdict } from './quorum.js';

/** The quorum check with the fixtures' epoch length. */
const check = (
  of: EpochCommittee,
  signed: CheckpointProposalPayload,
  list: readonly CommitteeAttestation[],
): QuorumVerdict => checkQuorum(of, signed, list, TEST_EPOCH_DURATION_SLOTS);

const committee = drawCommittee(testValidatorSet(7), 0, hex32(1)); // quorum 5
const payload = testPayload(3);
const attest = (seat: number): CommitteeAttestation => ({
  committeeIndex: seat,
  signature: signCheckpointAttestation(secretKeyOf(committee.members[seat]!.address), payload).signature,
});

describe('checkQuorum', () => {
  it('accepts distinct members reaching the quorum, and names them', () => {
    const verdict = check(committee, payload, [4, 0, 2, 6, 1].map(attest));
    expect(verdict).toEqual({
      valid: true,
      payloadHash: checkpointProposalPayloadHash(payload),
      attesters: [4, 0, 2, 6, 1].map((s) => committee.members[s]!.address),
    });
  });

  it('refuses one attestation short of the quorum', () => {
    const verdict = check(committee, payload, [0, 1, 2, 3].map(attest));
    expect(verdict).toMatchObject({
      valid: false,
      failure: { reason: 'tooFewAttestations', count: 4, quorum: 5, committeeSize: 7 },
    });
  });

  it('refuses a seat the committee does not have', () => {
    const list = [...[0, 1, 2, 3, 4].map(attest), { committeeIndex: 7, signature: attest(5).signature }];
    expect(check(committee, payload, list)).toMatchObject({
      valid: false,
      failure: { reason: 'unknownAttester', position: 5, committeeIndex: 7 },
    });
  });

  it('refuses a seat named twice, even with enough others', () => {
    const list = [0, 1, 2, 1, 3, 4, 5].map(attest);
    expect(check(committee, payload, list)).toMatchObject({
      valid: false,
      failure: { reason: 'duplicateAttester', position: 3, firstPosition: 1, committeeIndex: 1 },
    });
  });

  it('refuses a bad signature even when the others reach the quorum', () => {
    const list = [0, 1, 2, 3, 4, 5].map(attest);
    list[2] = {
      committeeIndex: 2,
      signature: signCheckpointProposal(secretKeyOf(committee.members[2]!.address), payload).signature,
    };
    const verdict = check(committee, payload, list);
    expect(verdict).toMatchObject({
      valid: false,
      failure: {
        reason: 'badSignature',
        position: 2,
        committeeIndex: 2,
        attester: committee.members[2]!.address,
        problem: 'verificationFailed',
      },
    });
    list[2] = { committeeIndex: 2, signature: '0x1234' as Hex };
    expect(check(committee, payload, list)).toMatchObject({
      valid: false,
      failure: { reason: 'badSignature', problem: 'malformedSignature' },
    });
  });

  it('refuses attestations of another payload', () => {
    const other = testPayload(3, 1);
    const list = [0, 1, 2, 3, 4].map((seat) => ({
      committeeIndex: seat,
      signature: signCheckpointAttestation(secretKeyOf(committee.members[seat]!.address), other).signature,
    }));
    expect(check(committee, payload, list)).toMatchObject({
      valid: false,
      failure: { reason: 'badSignature', position: 0 },
    });
  });

  it("must be given the committee of the payload's epoch", () => {
    expect(() => checkQuorum(committee, testPayload(TEST_EPOCH_DURATION_SLOTS), [], TEST_EPOCH_DURATION_SLOTS)).toThrow(
      /epoch/,
    );
  });

  it('needs nothing from an empty committee', () => {
    expect(check(drawCommittee([], 0, hex32(1)), payload, [])).toMatchObject({ valid: true, attesters: [] });
  });

  it('describes every failure in a sentence', () => {
    const failures = [
      check(committee, payload, [0, 1].map(attest)),
      check(committee, payload, [{ committeeIndex: 9, signature: '0x' }]),
      check(committee, payload, [0, 0].map(attest)),
      check(
        committee,
        payload,
        [0, 1, 2, 3, 4].map((s) => ({ ...attest(s), signature: '0x00' as Hex })),
      ),
    ];
    for (const verdict of failures) {
      if (verdict.valid) throw new Error('expected a failure');
      expect(describeQuorumFailure(verdict.failure)).toMatch(/\w+/);
    }
  });
});
