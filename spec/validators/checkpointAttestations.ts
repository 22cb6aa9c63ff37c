/**
 * The attestations a proposer publishes with a checkpoint (the rollup contract stores them, the archiver reads them
 * back and core/validators/quorum.ts checks them):
 *
 *   count 2 | count x (committeeIndex 2 | signature 96)
 *
 * `committeeIndex` is the attester's seat in the epoch's committee (core/validators/committee.ts), `signature` its
 * compressed BLS signature of signingMessage('attester', payloadHash). The encoding keeps entries as given; order,
 * duplicates and membership are the quorum check's to judge, so that a bad list is reported with its reason.
 */
import type { Hex } from '../chain.js';
import { ByteReader, ByteWriter, CodecError } from '../codec/bytes.js';
import { BLS_SIGNATURE_BYTES, COMMITTEE_SIZE } from './constants.js';

export interface CommitteeAttestation {
  /** Seat of the attester in the committee, 0-based. */
  readonly committeeIndex: number;
  readonly signature: Hex;
}

const ENTRY_BYTES = 2 + BLS_SIGNATURE_BYTES;
/** Entries a published list may hold: one per seat (a longer list cannot be valid). */
export const CHECKPOINT_ATTESTATIONS_MAX = COMMITTEE_SIZE;
/** Bytes of the longest list; the rollup contract refuses a longer one (Rollup.ATTESTATIONS_BYTES_MAX). */
export const CHECKPOINT_ATTESTATIONS_BYTES_MAX = 2 + CHECKPOINT_ATTESTATIONS_MAX * ENTRY_BYTES;

export function encodeCheckpointAttestations(attestations: readonly CommitteeAttestation[]): Uint8Array {
  if (attestations.length > CHECKPOINT_ATTESTATIONS_MAX) {
    throw new CodecError(
      `a checkpoint carries at most ${CHECKPOINT_ATTESTATIONS_MAX} attestations, got ${attestations.length}`,
    );
  }
  const writer = new ByteWriter().uint(attestations.length, 2);
  for (const { committeeIndex, signature } of attestations)
    writer.uint(committeeIndex, 2).hex(signature, BLS_SIGNATURE_BYTES);
  return writer.finish();
}

/** Decodes untrusted bytes (from L1); CodecError when the length is not what the count says or the count is too big. */
export function decodeCheckpointAttestations(bytes: Uint8Array): CommitteeAttestation[] {
  const reader = new ByteReader(bytes);
  const count = reader.number(2);
  if (count > CHECKPOINT_ATTESTATIONS_MAX) {
    throw new CodecError(
      `a checkpoint carries at most ${CHECKPOINT_ATTESTATIONS_MAX} attestations, got a count of ${count}`,
    );
  }
  if (reader.remaining !== count * ENTRY_BYTES) {
    throw new CodecError(`${count} attestations take ${count * ENTRY_BYTES} bytes, got ${reader.remaining}`);
  }
  const out: CommitteeAttestation[] = [];
  for (let i = 0; i < count; i++)
    out.push({ committeeIndex: reader.number(2), signature: reader.hex(BLS_SIGNATURE_BYTES) });
  return out;
}

/** The encoding of an empty list: what a checkpoint carries when its epoch has no committee. */
export const EMPTY_CHECKPOINT_ATTESTATIONS: Hex = '0x0000';
