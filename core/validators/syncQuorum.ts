/**
 * The quorum check the archiver runs on each checkpoint it syncs from L1 (docs/protocol.md, Attestations and quorum: a
 * checkpoint whose attestations do not reach the quorum is skipped). The rollup contract stores the attestation list
 * without checking it, so L1 may hold a checkpoint that nodes refuse; the chain after it builds on it and is refused
 * too, until L1 prunes it (nobody honest proves it, so its epoch misses its proof window) and a proposer builds on the
 * proven chain again. `RefusedCheckpoints` remembers the refusals, so that the archiver can tell a checkpoint building
 * on a refused one from a gap in what L1 reports.
 */
import type { CommitteeSignature, Hex, L1RollupConstants } from '../../spec/chain.js';
import { CodecError, hexToBytes } from '../../spec/codec/bytes.js';
import { hashToField } from '../../spec/hash.js';
import {
  decodeCheckpointAttestations,
  type CommitteeAttestation,
} from '../../spec/validators/checkpointAttestations.js';
import { REFUSED_CHECKPOINTS_KEPT_MAX } from '../../spec/validators/constants.js';
import type { CheckpointProposalPayload } from '../../spec/validators/signingPayloads.js';
import { assert } from '../assert.js';
import type { CheckpointProposedLog } from '../ports.js';
import { epochOfSlot } from './committee.js';
import { checkQuorum, describeQuorumFailure } from './quorum.js';
import type { ValidatorDuties } from './validatorDuties.js';

/** The payload a published checkpoint's attestations must sign, from its L1 log alone. */
export function payloadOfLog(constants: L1RollupConstants, log: CheckpointProposedLog): CheckpointProposalPayload {
  return {
    l1ChainId: constants.l1ChainId,
    rollupVersion: constants.rollupVersion,
    slot: log.slotNumber,
    checkpointNumber: log.checkpointNumber,
    archiveRoot: log.archive,
    checkpointHeaderHash: hashToField(hexToBytes(log.header)),
  };
}

/**
 * The quorum check's answer for one checkpoint: refused with the reason, or accepted with its attestations as the
 * node keeps them (attesters resolved from their seats, in committee order).
 */
export type SyncQuorumVerdict =
  | { readonly accepted: true; readonly attestations: readonly CommitteeSignature[] }
  | { readonly accepted: false; readonly reason: string };

export type SyncQuorumCheck = (log: CheckpointProposedLog) => Promise<SyncQuorumVerdict>;

export function createSyncQuorumCheck(duties: ValidatorDuties, constants: L1RollupConstants): SyncQuorumCheck {
  return async (log) => {
    let attestations: CommitteeAttestation[];
    try {
      attestations = decodeCheckpointAttestations(hexToBytes(log.attestations));
    } catch (error) {
      if (error instanceof CodecError)
        return { accepted: false, reason: `its attestation list does not decode: ${error.message}` };
      throw error;
    }
    // The set as of the checkpoint's own L1 block: what the proposer could see when it drew the committee.
    await duties.refreshValidatorSet(log.l1.blockNumber);
    const committee = await duties.committeeOf(epochOfSlot(log.slotNumber, constants.epochDuration));
    const verdict = checkQuorum(committee, payloadOfLog(constants, log), attestations, constants.epochDuration);
    if (!verdict.valid) return { accepted: false, reason: describeQuorumFailure(verdict.failure) };
    return { accepted: true, attestations: committeeSignatures(attestations, verdict.attesters) };
  };
}

/**
 * The verified list as the archive keeps it: each entry with the address of the member whose seat it named
 * (`attesters[i]` is entry i's), sorted by seat. The quorum check has ruled out duplicate and unknown seats.
 */
export function committeeSignatures(
  attestations: readonly CommitteeAttestation[],
  attesters: readonly Hex[],
): CommitteeSignature[] {
  assert(attesters.length === attestations.length, 'one attester per attestation');
  return attestations
    .map((attestation, position) => ({
      seat: attestation.committeeIndex,
      attester: attesters[position]!,
      signature: attestation.signature,
    }))
    .sort((a, b) => a.seat - b.seat)
    .map(({ attester, signature }) => ({ attester, signature }));
}

/** Checkpoints refused for their quorum, by number, with the L1 tx that published each. */
export class RefusedCheckpoints {
  private readonly byNumber = new Map<number, Hex>();

  add(log: CheckpointProposedLog): void {
    this.byNumber.delete(log.checkpointNumber);
    this.byNumber.set(log.checkpointNumber, log.l1.txHash);
    for (const number of this.byNumber.keys()) {
      if (this.byNumber.size <= REFUSED_CHECKPOINTS_KEPT_MAX) break;
      this.byNumber.delete(number);
    }
  }

  /** Whether checkpoint `checkpointNumber` was refused (the chain above it cannot be adopted). */
  has(checkpointNumber: number): boolean {
    return this.byNumber.has(checkpointNumber);
  }

  /** A checkpoint with this number was adopted: an older refusal of the same number is history. */
  forgetFrom(checkpointNumber: number): void {
    for (const number of [...this.byNumber.keys()]) if (number >= checkpointNumber) this.byNumber.delete(number);
  }

  get size(): number {
    return this.byNumber.size;
  }
}
