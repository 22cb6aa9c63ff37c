/**
 * The content of proposed blocks as a committee member receives it: each block proposal's gossiped header and body
 * (spec/validators/blockProposalContent.ts), checked against what the proposer signed before the block is measured
 * against the validator's limits (core/validators/validatorLimits.ts).
 *
 * The bindings, from the signature outwards:
 * - body: its effects' tx hashes, in order, hash to the signed txHashesHash (checkedBlockContent), and the effects
 *   hash to the header's txsEffectsHash. The DA gas measured from the body is therefore the signed block's.
 * - header: its hash is the block's archive leaf. Appended to the archive the block builds on (the member's own
 *   checkpointed archive for the first block, the previous block's for the others), it must give the block's signed
 *   archiveRoot (proposedBlocksRefusal). The L2 gas read from the header (totalManaUsed) is therefore the figure the
 *   proposer signed, and the per-block figures must add up to the signed checkpoint header's total. It remains the
 *   proposer's claim: nobody re-executes the txs to recompute it, on gossip or on sync.
 */
import type { CheckpointHeader, Hex } from '../../spec/chain.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { CodecError } from '../../spec/codec/bytes.js';
import { txsEffectsHash } from '../../spec/codec/txEffect.js';
import { decodeBlockProposalContent, type BlockProposalContent } from '../../spec/validators/blockProposalContent.js';
import { ATTESTATION_POOL_FUTURE_SLOTS_MAX, BLOCK_PROPOSALS_PER_SLOT_MAX } from '../../spec/validators/constants.js';
import { txHashesHash, type BlockProposalPayload } from '../../spec/validators/signingPayloads.js';
import { assert } from '../assert.js';
import { appendLeaves, treeRoot, type AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import {
  blockUsageOf,
  validatorLimitRefusal,
  type ValidatorLimitRefusal,
  type ValidatorLimits,
} from './validatorLimits.js';

export type BlockContentRefusal =
  /** A block's body is missing, oversized or undecodable, or does not match its signed tx hashes or its header. */
  | 'blockBodyMismatch'
  /** The blocks' headers do not chain onto our archive to the signed archive roots, or do not add up to the checkpoint header. */
  | 'blockHeaderMismatch';

export type CheckedBlockContent =
  { readonly ok: true; readonly content: BlockProposalContent } | { readonly ok: false; readonly reason: string };

/**
 * Decodes a block proposal's gossiped header and body and checks what needs no chain state: the body's tx hashes
 * hash to the payload's signed txHashesHash, the effects to the header's txsEffectsHash, and the header names the
 * payload's block number and slot. A reason instead of a throw for anything a peer got wrong.
 */
export function checkedBlockContent(
  payload: BlockProposalPayload,
  header: unknown,
  body: unknown,
): CheckedBlockContent {
  let content: BlockProposalContent;
  let signedTxHashes: Hex;
  try {
    content = decodeBlockProposalContent(header, body);
    signedTxHashes = txHashesHash(payload.txHashes);
  } catch (error) {
    if (error instanceof CodecError) return { ok: false, reason: error.message };
    throw error;
  }
  const g = content.header.globalVariables;
  if (txHashesHash(content.txEffects.map((effect) => effect.txHash)) !== signedTxHashes)
    return { ok: false, reason: "the body's tx hashes do not hash to the signed txHashesHash" };
  if (txsEffectsHash(content.txEffects) !== content.header.contentCommitment.txsEffectsHash)
    return { ok: false, reason: "the body does not hash to the header's txsEffectsHash" };
  if (g.blockNumber !== payload.blockNumber || g.slotNumber !== payload.slot)
    return { ok: false, reason: 'the header names another block number or slot' };
  return { ok: true, content };
}

/** One block of a proposed checkpoint: its signed payload and its checked content (undefined when none passed). */
export interface ProposedBlock {
  readonly payload: BlockProposalPayload;
  readonly content: BlockProposalContent | undefined;
}

/** Whether the headers, appended in order to `previousArchive`, give each block's signed archive root. */
function headersChainOnto(
  previousArchive: AppendOnlyTree,
  blocks: readonly { readonly payload: BlockProposalPayload; readonly content: BlockProposalContent }[],
): boolean {
  let tree = previousArchive;
  for (const [index, { payload, content }] of blocks.entries()) {
    const { lastArchive, globalVariables } = content.header;
    if (payload.indexWithinCheckpoint !== index || globalVariables.blockNumber !== tree.size) return false;
    if (lastArchive.nextAvailableLeafIndex !== tree.size || lastArchive.root !== treeRoot(tree)) return false;
    tree = appendLeaves(tree, [blockHash(content.header)]);
    if (treeRoot(tree) !== payload.archiveRoot) return false;
  }
  return true;
}

/**
 * Why a committee member does not attest a checkpoint whose block proposals it holds (`blocks`, in index order),
 * or undefined: a block without a checked body, headers not bound to the signed archive roots or not adding up to the
 * checkpoint header's totalManaUsed, then the first VALIDATOR_MAX_* limit a block breaks.
 */
export function proposedBlocksRefusal(
  previousArchive: AppendOnlyTree,
  checkpointHeader: CheckpointHeader,
  blocks: readonly ProposedBlock[],
  limits: ValidatorLimits,
): BlockContentRefusal | ValidatorLimitRefusal | undefined {
  const checked: { payload: BlockProposalPayload; content: BlockProposalContent }[] = [];
  for (const { payload, content } of blocks) {
    if (content === undefined) return 'blockBodyMismatch';
    checked.push({ payload, content });
  }
  if (!headersChainOnto(previousArchive, checked)) return 'blockHeaderMismatch';
  const manaUsed = checked.reduce((sum, b) => sum + b.content.header.totalManaUsed, 0n);
  if (manaUsed !== checkpointHeader.totalManaUsed) return 'blockHeaderMismatch';
  return validatorLimitRefusal(
    limits,
    checked.map((b) => blockUsageOf(b.content)),
  );
}

/**
 * The checked contents of the block proposals a member may still attest: those of the pool's current slot and the
 * next ATTESTATION_POOL_FUTURE_SLOTS_MAX, keyed by payload hash. The caller keeps only contents of payloads the pool
 * holds, so a slot has at most BLOCK_PROPOSALS_PER_SLOT_MAX of them.
 */
export class BlockContentStore {
  private readonly bySlot = new Map<number, Map<Hex, BlockProposalContent>>();

  has(slot: number, payloadHash: Hex): boolean {
    return this.bySlot.get(slot)?.has(payloadHash) ?? false;
  }

  get(slot: number, payloadHash: Hex): BlockProposalContent | undefined {
    return this.bySlot.get(slot)?.get(payloadHash);
  }

  add(slot: number, payloadHash: Hex, content: BlockProposalContent): void {
    let contents = this.bySlot.get(slot);
    if (contents === undefined) {
      contents = new Map();
      this.bySlot.set(slot, contents);
    }
    contents.set(payloadHash, content);
    assert(
      contents.size <= BLOCK_PROPOSALS_PER_SLOT_MAX,
      `a slot holds at most ${BLOCK_PROPOSALS_PER_SLOT_MAX} block contents`,
    );
    assert(
      this.bySlot.size <= 1 + ATTESTATION_POOL_FUTURE_SLOTS_MAX,
      'block contents are held for the current and the next slots only',
    );
  }

  /** Forgets the slots before `slot` (no member attests them any more). */
  dropBefore(slot: number): void {
    for (const held of [...this.bySlot.keys()]) if (held < slot) this.bySlot.delete(held);
  }
}
