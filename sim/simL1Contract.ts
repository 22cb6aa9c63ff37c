import type { ProposeCheckpointRequest } from '../core/ports.js';
import type { Hex } from '../spec/chain.js';
import { CodecError, hexToBytes, isHex } from '../spec/codec/bytes.js';
import type { CheckpointHeader } from '../spec/chain.js';
import { blobsHash, decodeCheckpointHeader } from '../spec/codec/checkpointHeader.js';
import { BLOBS_PER_CHECKPOINT_MAX } from '../spec/constants.js';

/**
 * The rollup contract's `propose` rules, as the simulated L1 applies them to an included transaction. Pure: the
 * contract's state before the transaction and the including block's timestamp in, the first broken rule out.
 */

/** Why a proposal failed on L1, one code per rule, in the order the rules are checked. */
export type SimL1ProposeFailure =
  /** The header does not decode, or the archive roots are not 32 bytes of hex. */
  | 'PROPOSAL_MALFORMED'
  /** The header's slot or last archive disagrees with the request's. */
  | 'HEADER_MISMATCH'
  /** checkpointNumber is not the recorded count + 1. */
  | 'CHECKPOINT_NUMBER_INVALID'
  /** lastArchive is not the archive recorded for the last checkpoint (the genesis archive for checkpoint 1). */
  | 'LAST_ARCHIVE_MISMATCH'
  /** slotNumber is not floor((block.timestamp - l1GenesisTime) / slotDuration). */
  | 'SLOT_NOT_CURRENT'
  /** slotNumber is not above the previous checkpoint's slot (genesis counts as slot 0). */
  | 'SLOT_NOT_AFTER_PREVIOUS'
  /** Not 1 to BLOBS_PER_CHECKPOINT_MAX blobs. */
  | 'BLOB_COUNT_INVALID'
  /** The header's blobsHash is not the hash of the blobs' versioned hashes. */
  | 'BLOBS_HASH_MISMATCH';

export interface SimL1ContractState {
  readonly checkpointCount: number;
  /** Archive of the last recorded checkpoint (lowercase hex). */
  readonly lastArchive: Hex;
  /** Slot of the last recorded checkpoint; 0 before the first. */
  readonly lastCheckpointSlot: number;
}

export interface SimL1SlotRules {
  readonly l1GenesisTime: bigint;
  readonly slotDuration: number;
}

function isRoot(value: unknown): value is Hex {
  return isHex(value) && value.length === 66;
}

function decodeHeader(request: ProposeCheckpointRequest): CheckpointHeader | undefined {
  if (!isRoot(request.archive) || !isRoot(request.lastArchive) || !isHex(request.header)) return undefined;
  try {
    return decodeCheckpointHeader(hexToBytes(request.header));
  } catch (error) {
    if (error instanceof CodecError) return undefined;
    throw error;
  }
}

/** The slot an L1 block with this timestamp falls in; undefined before L2 genesis. */
export function slotAtTimestamp(timestamp: bigint, rules: SimL1SlotRules): number | undefined {
  if (timestamp < rules.l1GenesisTime) return undefined;
  return Number((timestamp - rules.l1GenesisTime) / BigInt(rules.slotDuration));
}

/** The first rule `request` breaks, or undefined when the contract accepts it. */
export function checkProposal(
  state: SimL1ContractState,
  request: ProposeCheckpointRequest,
  versionedHashes: readonly Hex[],
  blockTimestamp: bigint,
  rules: SimL1SlotRules,
): SimL1ProposeFailure | undefined {
  const header = decodeHeader(request);
  if (header === undefined) return 'PROPOSAL_MALFORMED';
  const lastArchive = request.lastArchive.toLowerCase();
  if (header.slotNumber !== request.slotNumber || header.lastArchiveRoot !== lastArchive) return 'HEADER_MISMATCH';
  if (request.checkpointNumber !== state.checkpointCount + 1) return 'CHECKPOINT_NUMBER_INVALID';
  if (lastArchive !== state.lastArchive) return 'LAST_ARCHIVE_MISMATCH';
  if (request.slotNumber !== slotAtTimestamp(blockTimestamp, rules)) return 'SLOT_NOT_CURRENT';
  if (request.slotNumber <= state.lastCheckpointSlot) return 'SLOT_NOT_AFTER_PREVIOUS';
  if (request.blobs.length < 1 || request.blobs.length > BLOBS_PER_CHECKPOINT_MAX) return 'BLOB_COUNT_INVALID';
  if (header.blobsHash !== blobsHash(versionedHashes)) return 'BLOBS_HASH_MISMATCH';
  return undefined;
}
