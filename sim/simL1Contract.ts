import { encodeEpochProofPublicInputs } from '../core/prover/epochProof.js';
import type { ProposeCheckpointRequest, SubmitEpochProofRequest } from '../core/ports.js';
import type { Hex } from '../spec/chain.js';
import { CodecError, hexToBytes, isHex } from '../spec/codec/bytes.js';
import type { CheckpointHeader } from '../spec/chain.js';
import { blobsHash, decodeCheckpointHeader } from '../spec/codec/checkpointHeader.js';
import { BLOBS_PER_CHECKPOINT_MAX } from '../spec/constants.js';
import { commitmentProof } from '../spec/proof.js';
import { CHECKPOINT_ATTESTATIONS_BYTES_MAX as ATTESTATIONS_BYTES_MAX } from '../spec/validators/checkpointAttestations.js';
import { assert } from '../core/assert.js';
import { zeroHex } from '../spec/codec/bytes.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../spec/constants.js';
import { hashPair } from '../spec/hash.js';
import { firstMessageIndexOfCheckpoint, l1ToL2MessageLeaf } from '../spec/messages/inbox.js';

/**
 * The rollup contract's rules (`propose`, `submitEpochProof`, prunes), as the simulated L1 applies them to an
 * included transaction. Pure: the contract's state before the transaction and the including block's timestamp in,
 * the first broken rule out.
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
  | 'BLOBS_HASH_MISMATCH'
  /** The attestation list is not hex or longer than Rollup.ATTESTATIONS_BYTES_MAX. */
  | 'ATTESTATIONS_TOO_LONG'
  /** The header's inHash is not the hash of the inbox tree the checkpoint consumes. */
  | 'IN_HASH_MISMATCH';

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
  inbox: SimInboxState,
): SimL1ProposeFailure | undefined {
  const header = decodeHeader(request);
  if (header === undefined) return 'PROPOSAL_MALFORMED';
  // The contract checks the list's length first (it checks nothing else of it; nodes check the quorum on sync).
  if (!isHex(request.attestations) || (request.attestations.length - 2) / 2 > ATTESTATIONS_BYTES_MAX)
    return 'ATTESTATIONS_TOO_LONG';
  const lastArchive = request.lastArchive.toLowerCase();
  if (header.slotNumber !== request.slotNumber || header.lastArchiveRoot !== lastArchive) return 'HEADER_MISMATCH';
  if (request.checkpointNumber !== state.checkpointCount + 1) return 'CHECKPOINT_NUMBER_INVALID';
  if (lastArchive !== state.lastArchive) return 'LAST_ARCHIVE_MISMATCH';
  if (request.slotNumber !== slotAtTimestamp(blockTimestamp, rules)) return 'SLOT_NOT_CURRENT';
  if (request.slotNumber <= state.lastCheckpointSlot) return 'SLOT_NOT_AFTER_PREVIOUS';
  if (request.blobs.length < 1 || request.blobs.length > BLOBS_PER_CHECKPOINT_MAX) return 'BLOB_COUNT_INVALID';
  if (header.blobsHash !== blobsHash(versionedHashes)) return 'BLOBS_HASH_MISMATCH';
  if (header.inHash !== inboxTree(inbox, request.checkpointNumber).hash) return 'IN_HASH_MISMATCH';
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Inbox (contracts/Inbox.sol)

/** One inbox tree's size and running hash; trees link to the previous one (never mutated). */
export interface SimInboxTree {
  readonly tree: number;
  readonly size: number;
  readonly hash: Hex;
  readonly previous: SimInboxTree | undefined;
}

export interface SimInboxState {
  /** The tree new messages go into (Inbox.inProgress). */
  readonly inProgress: number;
  /** The newest tree that holds a message, linked to older ones. */
  readonly newest: SimInboxTree | undefined;
}

export const SIM_INBOX_DEPLOYED: SimInboxState = Object.freeze({ inProgress: 2, newest: undefined });

/** Tree `tree` of the inbox (empty: size 0, hash zero). */
export function inboxTree(inbox: SimInboxState, tree: number): { readonly size: number; readonly hash: Hex } {
  let entry = inbox.newest;
  while (entry !== undefined && entry.tree > tree) entry = entry.previous;
  return entry?.tree === tree ? entry : { size: 0, hash: zeroHex(32) };
}

/** Inbox.sendL2Message: the message's tree, global index and leaf, and the inbox after it. */
export function sendInboxMessage(
  inbox: SimInboxState,
  message: { readonly sender: Hex; readonly recipient: Hex; readonly content: Hex; readonly secretHash: Hex },
): {
  readonly inbox: SimInboxState;
  readonly tree: number;
  readonly index: bigint;
  readonly leaf: Hex;
  readonly treeHash: Hex;
} {
  let tree = inbox.inProgress;
  if (inboxTree(inbox, tree).size === L1_TO_L2_MESSAGES_PER_CHECKPOINT) tree += 1;
  const current = inboxTree(inbox, tree);
  const index = firstMessageIndexOfCheckpoint(tree) + BigInt(current.size);
  const leaf = l1ToL2MessageLeaf({ ...message, index });
  const treeHash = hashPair(current.hash, leaf);
  const previous = inbox.newest?.tree === tree ? inbox.newest.previous : inbox.newest;
  return {
    inbox: { inProgress: tree, newest: { tree, size: current.size + 1, hash: treeHash, previous } },
    tree,
    index,
    leaf,
    treeHash,
  };
}

/** Inbox.consume, as a successful proposal of `checkpointNumber` applies it: seals the tree in progress if due. */
export function consumeInbox(inbox: SimInboxState, checkpointNumber: number): SimInboxState {
  assert(
    checkpointNumber < inbox.inProgress,
    `inbox tree ${checkpointNumber} is sealed before its checkpoint is proposed`,
  );
  return checkpointNumber + 1 === inbox.inProgress ? { ...inbox, inProgress: inbox.inProgress + 1 } : inbox;
}

// ---------------------------------------------------------------------------------------------------------------
// Epoch proofs and prunes (Rollup.submitEpochProof, Rollup.prune)

/** Why an epoch proof failed on L1, one code per rule, in the order the contract checks them. */
export type SimL1EpochProofFailure =
  /** endArchive or outHash is not 32 bytes of hex, or the proof is not hex (the call could not be encoded). */
  | 'PROOF_MALFORMED'
  /** fromCheckpoint is not the first unproven checkpoint. */
  | 'PROOF_START_INVALID'
  /** toCheckpoint is below fromCheckpoint or above the recorded count. */
  | 'PROOF_RANGE_INVALID'
  /** The first or last checkpoint of the range is not in the epoch. */
  | 'CHECKPOINT_NOT_IN_EPOCH'
  /** The checkpoint after the range is in the epoch too. */
  | 'EPOCH_INCOMPLETE'
  /** The current epoch is not past the proven one. */
  | 'EPOCH_NOT_OVER'
  /** More than proofSubmissionEpochs epochs passed since the epoch ended. */
  | 'PROOF_WINDOW_PASSED'
  /** endArchive is not the archive recorded for toCheckpoint. */
  | 'END_ARCHIVE_MISMATCH'
  /** The verifier refused the proof (it is not keccak256 of the public inputs). */
  | 'PROOF_INVALID';

export interface SimL1EpochRules extends SimL1SlotRules {
  readonly epochDuration: number;
  readonly proofSubmissionEpochs: number;
}

/** The contract's storage as the proof and prune rules read it. */
export interface SimL1ProofState {
  /** Recorded checkpoints (the stored count, before any pending prune). */
  readonly checkpointCount: number;
  readonly provenCheckpoint: number;
  /** Slot of recorded checkpoint n (1..checkpointCount). */
  slotOf(checkpointNumber: number): number;
  /** Archive of recorded checkpoint n (0..checkpointCount; 0 = genesis). */
  archiveOf(checkpointNumber: number): Hex;
}

export function epochOfSlot(slot: number, rules: Pick<SimL1EpochRules, 'epochDuration'>): number {
  return Math.floor(slot / rules.epochDuration);
}

/** Rollup._canPrune: some checkpoint is unproven and the first one's epoch is past its proof window. */
export function canPrune(state: SimL1ProofState, blockTimestamp: bigint, rules: SimL1EpochRules): boolean {
  if (state.checkpointCount === state.provenCheckpoint) return false;
  const slot = slotAtTimestamp(blockTimestamp, rules);
  if (slot === undefined) return false;
  const firstUnprovenEpoch = epochOfSlot(state.slotOf(state.provenCheckpoint + 1), rules);
  return epochOfSlot(slot, rules) > firstUnprovenEpoch + rules.proofSubmissionEpochs;
}

/** The checks of Rollup._checkEpochRange. */
function checkEpochRange(
  state: SimL1ProofState,
  request: SubmitEpochProofRequest,
  rules: SimL1EpochRules,
): SimL1EpochProofFailure | undefined {
  const { epoch, fromCheckpoint: from, toCheckpoint: to } = request;
  if (from !== state.provenCheckpoint + 1) return 'PROOF_START_INVALID';
  if (to < from || to > state.checkpointCount) return 'PROOF_RANGE_INVALID';
  if (epochOfSlot(state.slotOf(from), rules) !== epoch || epochOfSlot(state.slotOf(to), rules) !== epoch)
    return 'CHECKPOINT_NOT_IN_EPOCH';
  if (to < state.checkpointCount && epochOfSlot(state.slotOf(to + 1), rules) === epoch) return 'EPOCH_INCOMPLETE';
  return undefined;
}

/** The first rule an epoch proof breaks, or undefined when the contract (and its verifier) accept it. */
export function checkEpochProof(
  state: SimL1ProofState,
  request: SubmitEpochProofRequest,
  blockTimestamp: bigint,
  rules: SimL1EpochRules,
): SimL1EpochProofFailure | undefined {
  if (!isRoot(request.endArchive) || !isRoot(request.outHash) || !isHex(request.proof)) return 'PROOF_MALFORMED';
  const counts = [request.epoch, request.fromCheckpoint, request.toCheckpoint];
  if (!counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return 'PROOF_MALFORMED';
  const rangeFailure = checkEpochRange(state, request, rules);
  if (rangeFailure !== undefined) return rangeFailure;
  const slot = slotAtTimestamp(blockTimestamp, rules);
  const currentEpoch = slot === undefined ? -1 : epochOfSlot(slot, rules);
  if (currentEpoch <= request.epoch) return 'EPOCH_NOT_OVER';
  if (currentEpoch > request.epoch + rules.proofSubmissionEpochs) return 'PROOF_WINDOW_PASSED';
  const endArchive = request.endArchive.toLowerCase() as Hex;
  if (endArchive !== state.archiveOf(request.toCheckpoint)) return 'END_ARCHIVE_MISMATCH';
  const publicInputs = encodeEpochProofPublicInputs({
    epoch: request.epoch,
    fromCheckpoint: request.fromCheckpoint,
    toCheckpoint: request.toCheckpoint,
    previousArchive: state.archiveOf(request.fromCheckpoint - 1),
    endArchive,
    outHash: request.outHash,
  });
  return commitmentVerifierAccepts(publicInputs, request.proof) ? undefined : 'PROOF_INVALID';
}

/** contracts/CommitmentVerifier.sol: the proof is exactly the 32-byte keccak256 of the public inputs. */
function commitmentVerifierAccepts(publicInputs: Uint8Array, proof: Hex): boolean {
  return proof.length === 66 && proof.toLowerCase() === commitmentProof(publicInputs);
}
