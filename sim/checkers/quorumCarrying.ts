/**
 * Which of L1's checkpoints the reference checkers judge. Anyone may call `propose` (docs/protocol.md, Rollup
 * contract): with validators registered, a checkpoint short of its committee's quorum is every node's to refuse, not
 * a rule the nodes broke. So with validators only the checkpoints whose attestation list names a quorum of distinct
 * seats are judged (their signatures are the nodes' quorum check to verify); without validators, every checkpoint.
 */
import type { CheckpointProposedLog } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { CodecError, hexToBytes } from '../../spec/codec/bytes.js';
import { decodeCheckpointAttestations } from '../../spec/validators/checkpointAttestations.js';

/** Seats of a committee at most (docs/protocol.md, Validator set and committees). */
const REFERENCE_COMMITTEE_SEATS_MAX = 48;

/** Distinct seats the list names; 0 for a list that does not decode. */
function seatsNamed(attestations: Hex): number {
  try {
    return new Set(decodeCheckpointAttestations(hexToBytes(attestations)).map((a) => a.committeeIndex)).size;
  } catch (error) {
    if (error instanceof CodecError) return 0;
    throw error;
  }
}

export function quorumCarryingLogs(
  logs: readonly CheckpointProposedLog[],
  validatorCount: number,
): CheckpointProposedLog[] {
  if (validatorCount === 0) return [...logs];
  const committee = Math.min(REFERENCE_COMMITTEE_SEATS_MAX, validatorCount);
  const quorum = Math.floor((2 * committee) / 3) + 1;
  return logs.filter((log) => seatsNamed(log.attestations) >= quorum);
}
