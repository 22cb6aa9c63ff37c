/**
 * The quorum and the signatures, for all inputs: a list of distinct, valid attestations passes exactly when it has
 * floor(2n/3) + 1 entries or more, for every committee size up to COMMITTEE_SIZE; any single-bit change of the signed
 * payload or of a signature fails verification, alone and inside a quorum check.
 */
import fc from 'fast-check';
import { keccak256 } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import { BLS_SIGNATURE_BYTES, COMMITTEE_SIZE } from '../../spec/validators/constants.js';
import {
  CHECKPOINT_PROPOSAL_PAYLOAD_BYTES,
  encodeCheckpointProposalPayload,
  type CheckpointProposalPayload,
} from '../../spec/validators/signingPayloads.js';
import { signCheckpointAttestation, verifyPayloadSignature } from '../../core/validators/bls.js';
import { drawCommittee, quorumSize, type EpochCommittee } from '../../core/validators/committee.js';
import { checkQuorum, type QuorumVerdict } from '../../core/validators/quorum.js';
import type { CommitteeAttestation } from '../../spec/validators/checkpointAttestations.js';
import { TEST_EPOCH_DURATION_SLOTS, hex32, secretKeyOf, testPayload, testValidatorSet } from './validatorFixtures.js';

/** The quorum check with the fixtures' epoch length. */
const check = (
  of: EpochCommittee,
  signed: CheckpointProposalPayload,
  list: readonly CommitteeAttestation[],
): QuorumVerdict => checkQuorum(of, signed, list, TEST_EPOCH_DURATION_SLOTS);

const payload = testPayload(40);
const FULL = drawCommittee(testValidatorSet(COMMITTEE_SIZE), 1, hex32(9));
/** Each seat's attestation of `payload`, signed once. */
const SIGNATURES: Hex[] = FULL.members.map((m) => signCheckpointAttestation(secretKeyOf(m.address), payload).signature);
const signatureOf = (committee: EpochCommittee, seat: number): Hex =>
  SIGNATURES[FULL.seatByAddress.get(committee.members[seat]!.address)!]!;

/** The committee of a set of the first `size` validators of FULL's set (so every member's signature is cached). */
const committeeOfSize = (size: number): EpochCommittee =>
  drawCommittee(testValidatorSet(COMMITTEE_SIZE).slice(0, size), 1, hex32(9));
const attestationsFor = (committee: EpochCommittee, seats: readonly number[]): CommitteeAttestation[] =>
  seats.map((seat) => ({ committeeIndex: seat, signature: signatureOf(committee, seat) }));

function flipBit(hex: Hex, bit: number): Hex {
  const bytes = hexToBytes(hex);
  bytes[bit >> 3]! ^= 1 << (bit & 7);
  return bytesToHex(bytes);
}

describe('quorum', () => {
  it('for every committee size: quorum - 1 distinct valid attestations fail, quorum pass', () => {
    for (let size = 1; size <= COMMITTEE_SIZE; size++) {
      const committee = committeeOfSize(size);
      const quorum = quorumSize(size);
      expect(quorum).toBe(Math.floor((2 * size) / 3) + 1);
      const seats = committee.members.map((m) => m.committeeIndex).reverse();
      expect(check(committee, payload, attestationsFor(committee, seats.slice(0, quorum - 1)))).toMatchObject({
        valid: false,
        failure: { reason: 'tooFewAttestations' },
      });
      expect(check(committee, payload, attestationsFor(committee, seats.slice(0, quorum)))).toMatchObject({
        valid: true,
      });
    }
  });

  it('any subset of distinct seats passes exactly when it reaches the quorum', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 12 })
          .chain((size) => fc.tuple(fc.constant(size), fc.shuffledSubarray([...Array(size).keys()]))),
        ([size, seats]) => {
          const committee = committeeOfSize(size);
          const verdict = check(committee, payload, attestationsFor(committee, seats));
          expect(verdict.valid).toBe(seats.length >= quorumSize(size));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('single-bit changes', () => {
  const member = FULL.members[0]!;
  const signature = SIGNATURES[0]!;
  const encoded = bytesToHex(encodeCheckpointProposalPayload(payload));

  it('the unchanged attestation verifies', () => {
    expect(verifyPayloadSignature('attester', keccak256(encoded), member.blsPublicKey, signature)).toBe(true);
  });

  it('of the signed payload fail verification', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: CHECKPOINT_PROPOSAL_PAYLOAD_BYTES * 8 - 1 }), (bit) => {
        const changed = flipBit(encoded, bit);
        expect(verifyPayloadSignature('attester', keccak256(changed), member.blsPublicKey, signature)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('of a signature fail verification, alone and in a quorum check', () => {
    const committee = committeeOfSize(7);
    const list = attestationsFor(committee, [0, 1, 2, 3, 4, 5]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: BLS_SIGNATURE_BYTES * 8 - 1 }),
        fc.integer({ min: 0, max: list.length - 1 }),
        (bit, position) => {
          expect(
            verifyPayloadSignature('attester', keccak256(encoded), member.blsPublicKey, flipBit(signature, bit)),
          ).toBe(false);
          const changed = list.map((a, i) => (i === position ? { ...a, signature: flipBit(a.signature, bit) } : a));
          expect(check(committee, payload, changed)).toMatchObject({
            valid: false,
            failure: { reason: 'badSignature', position },
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
