/**
 * The quorum check a node runs on every checkpoint it syncs (docs/protocol.md, Attestations and quorum): the
 * attestations published with it must come from distinct members of its epoch's committee, be at least the committee's
 * quorum (floor(2n/3) + 1), and each be a valid signature of the checkpoint's payload in the attester role. A
 * checkpoint that fails is skipped, with the reason.
 *
 * Order of the checks: membership and duplicates (cheap, per entry), then the count, then the signatures, entry by
 * entry (bls.ts, `verifySameMessageSignatures`: about 0.7 ms each, some 35 ms for a full committee). Any bad
 * signature rejects the list, even when the rest would reach the quorum: the proposer publishes only what it
 * verified, and a published list is evidence of who attested, so every entry must be right.
 */
import type { Hex } from '../../spec/chain.js';
import type { CommitteeAttestation } from '../../spec/validators/checkpointAttestations.js';
import {
  checkpointProposalPayloadHash,
  signingMessage,
  type CheckpointProposalPayload,
} from '../../spec/validators/signingPayloads.js';
import { verifySameMessageSignatures, type SignatureListProblem } from './bls.js';
import { epochOfSlot, type EpochCommittee } from './committee.js';
import { assert } from '../assert.js';

export type QuorumFailure =
  /** An entry names a seat the committee does not have. */
  | { readonly reason: 'unknownAttester'; readonly position: number; readonly committeeIndex: number }
  /** Two entries name the same seat. */
  | {
      readonly reason: 'duplicateAttester';
      readonly position: number;
      readonly firstPosition: number;
      readonly committeeIndex: number;
    }
  | {
      readonly reason: 'tooFewAttestations';
      readonly count: number;
      readonly quorum: number;
      readonly committeeSize: number;
    }
  | {
      readonly reason: 'badSignature';
      readonly position: number;
      readonly committeeIndex: number;
      readonly attester: Hex;
      readonly problem: SignatureListProblem;
    };

export type QuorumVerdict =
  | { readonly valid: true; readonly payloadHash: Hex; readonly attesters: readonly Hex[] }
  | { readonly valid: false; readonly payloadHash: Hex; readonly failure: QuorumFailure };

/** The first entry that is not a distinct seat of the committee, or undefined. */
function findMembershipFailure(
  committee: EpochCommittee,
  attestations: readonly CommitteeAttestation[],
): QuorumFailure | undefined {
  const firstPositionBySeat = new Map<number, number>();
  for (const [position, { committeeIndex }] of attestations.entries()) {
    if (!Number.isInteger(committeeIndex) || committeeIndex < 0 || committeeIndex >= committee.members.length) {
      return { reason: 'unknownAttester', position, committeeIndex };
    }
    const firstPosition = firstPositionBySeat.get(committeeIndex);
    if (firstPosition !== undefined) return { reason: 'duplicateAttester', position, firstPosition, committeeIndex };
    firstPositionBySeat.set(committeeIndex, position);
  }
  return undefined;
}

/**
 * Decides whether `attestations` attest `payload` with the quorum of `committee`, which must be the committee of the
 * payload slot's epoch (an assertion: the caller draws it for `payload.slot`).
 */
export function checkQuorum(
  committee: EpochCommittee,
  payload: CheckpointProposalPayload,
  attestations: readonly CommitteeAttestation[],
  epochDurationSlots: number,
): QuorumVerdict {
  assert(epochOfSlot(payload.slot, epochDurationSlots) === committee.epoch, "the committee is the payload epoch's");
  const payloadHash = checkpointProposalPayloadHash(payload);
  const membership = findMembershipFailure(committee, attestations);
  if (membership !== undefined) return { valid: false, payloadHash, failure: membership };
  if (attestations.length < committee.quorum) {
    const failure = {
      reason: 'tooFewAttestations',
      count: attestations.length,
      quorum: committee.quorum,
      committeeSize: committee.members.length,
    } as const;
    return { valid: false, payloadHash, failure };
  }
  const attesters = attestations.map(({ committeeIndex }) => committee.members[committeeIndex]!);
  const check = verifySameMessageSignatures(
    signingMessage('attester', payloadHash),
    attesters.map((member) => member.blsPublicKey),
    attestations.map(({ signature }) => signature),
  );
  if (!check.valid) {
    const member = attesters[check.index]!;
    const failure = {
      reason: 'badSignature',
      position: check.index,
      committeeIndex: member.committeeIndex,
      attester: member.address,
      problem: check.problem,
    } as const;
    return { valid: false, payloadHash, failure };
  }
  return { valid: true, payloadHash, attesters: attesters.map((member) => member.address) };
}

/** One sentence for logs and the archiver's skip record. */
export function describeQuorumFailure(failure: QuorumFailure): string {
  switch (failure.reason) {
    case 'unknownAttester':
      return `attestation ${failure.position} names committee seat ${failure.committeeIndex}, which does not exist`;
    case 'duplicateAttester':
      return `attestations ${failure.firstPosition} and ${failure.position} both name committee seat ${failure.committeeIndex}`;
    case 'tooFewAttestations':
      return `${failure.count} attestations, the committee of ${failure.committeeSize} needs ${failure.quorum}`;
    case 'badSignature':
      return `attestation ${failure.position} (seat ${failure.committeeIndex}, ${failure.attester}) has a bad signature: ${failure.problem}`;
  }
}
