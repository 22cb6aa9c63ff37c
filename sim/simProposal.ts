import type { ProposeCheckpointRequest } from '../core/ports.js';
import type { CheckpointHeader, Hex } from '../spec/chain.js';
import { bytesToHex, zeroHex } from '../spec/codec/bytes.js';
import { payloadToBlobs } from '../spec/codec/checkpointBlobs.js';
import { blobsHash, encodeCheckpointHeader } from '../spec/codec/checkpointHeader.js';
import { simVersionedHash } from './simL1.js';
import { EMPTY_CHECKPOINT_ATTESTATIONS } from '../spec/validators/checkpointAttestations.js';

/**
 * A well-formed `propose` request built from a few numbers, for scripted L1 load and tests that exercise the
 * simulated L1 before (or without) a real sequencer. The blobs carry `payload` framed as checkpoint blobs are, and the
 * header binds them through blobsHash, so the request passes every contract rule that depends on it alone.
 */
export interface SimProposalInput {
  readonly checkpointNumber: number;
  readonly lastArchive: Hex;
  readonly archive: Hex;
  readonly slotNumber: number;
  /** Unix seconds written into the header. */
  readonly timestamp: bigint;
  /** Bytes carried by the blobs (any content; at most six blobs' worth). */
  readonly payload: Uint8Array;
  /** The header's inHash (default zero: the hash of an empty inbox tree). */
  readonly inHash?: Hex;
}

export function buildSimProposal(input: SimProposalInput): ProposeCheckpointRequest {
  const blobs = payloadToBlobs(input.payload);
  const header: CheckpointHeader = {
    lastArchiveRoot: input.lastArchive,
    slotNumber: input.slotNumber,
    timestamp: input.timestamp,
    coinbase: zeroHex(20),
    feeRecipient: zeroHex(32),
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    blockCount: 1,
    blobsHash: blobsHash(blobs.map(simVersionedHash)),
    totalManaUsed: 0n,
    inHash: input.inHash ?? zeroHex(32),
    outHash: zeroHex(32),
  };
  return {
    checkpointNumber: input.checkpointNumber,
    archive: input.archive,
    lastArchive: input.lastArchive,
    slotNumber: input.slotNumber,
    header: bytesToHex(encodeCheckpointHeader(header)),
    blobs,
    attestations: EMPTY_CHECKPOINT_ATTESTATIONS,
  };
}
