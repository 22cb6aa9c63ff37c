import type { Block, BlockHeader, GasFees, Hex, TxEffect } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { txsEffectsHash } from '../../spec/codec/txEffect.js';
import { assert } from '../assert.js';
import { checkpointMessageSubtree, inboxTreeHash } from '../../spec/messages/inbox.js';
import { blockOutHash } from '../../spec/messages/outbox.js';
import type { AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import { appendLeaves, treeSnapshot } from '../merkle/appendOnlyTree.js';
import { blockStateEffects } from '../worldState/blockEffects.js';
import type { PreparedBlock, WorldState } from '../worldState/worldState.js';

export interface BlockBuildInput {
  readonly parent: Block;
  readonly parentArchiveTree: AppendOnlyTree;
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
  readonly slotNumber: number;
  readonly timestamp: bigint;
  readonly coinbase: Hex;
  readonly feeRecipient: Hex;
  readonly gasFees: GasFees;
  readonly txEffects: readonly TxEffect[];
  /**
   * The leaves of the inbox tree the checkpoint consumes, in index order (spec/messages/inbox.ts); only the first
   * block of a checkpoint inserts them (padded to the checkpoint's subtree) and carries their hash as its inHash.
   */
  readonly inboxLeaves?: readonly Hex[];
  readonly totalFees?: bigint;
  readonly totalManaUsed?: bigint;
}

export interface BuiltBlock {
  readonly block: Block;
  readonly archiveTree: AppendOnlyTree;
  /** The world state's change for the block, to commit with it. */
  readonly prepared: PreparedBlock;
}

/**
 * Builds the next block on `parent` over the world state (whose latest block must be the parent): the tx effects
 * are applied, the header carries the trees' roots after them, and the archive gains the new block's hash.
 */
export async function buildBlock(input: BlockBuildInput, worldState: WorldState): Promise<BuiltBlock> {
  const { parent } = input;
  const blockNumber = parent.header.globalVariables.blockNumber + 1;
  const firstOfCheckpoint = input.indexWithinCheckpoint === 0;
  assert(
    firstOfCheckpoint || (input.inboxLeaves ?? []).length === 0,
    'only the first block of a checkpoint consumes inbox messages',
  );
  const l1ToL2Messages = firstOfCheckpoint ? checkpointMessageSubtree(input.inboxLeaves ?? []) : [];
  const draft = await worldState.prepareBlock(blockNumber, blockStateEffects(input.txEffects, l1ToL2Messages));
  const lastArchive = treeSnapshot(input.parentArchiveTree);
  assert(
    draft.lastArchive.root === lastArchive.root,
    `world state's archive before block ${blockNumber} is the parent's`,
  );
  const header: BlockHeader = {
    lastArchive,
    state: draft.stateReference,
    globalVariables: {
      chainId: parent.header.globalVariables.chainId,
      version: parent.header.globalVariables.version,
      blockNumber,
      slotNumber: input.slotNumber,
      timestamp: input.timestamp,
      coinbase: input.coinbase,
      feeRecipient: input.feeRecipient,
      gasFees: input.gasFees,
    },
    contentCommitment: {
      txsEffectsHash: txsEffectsHash(input.txEffects),
      inHash: firstOfCheckpoint ? inboxTreeHash(input.inboxLeaves ?? []) : zeroHex(32),
      outHash: blockOutHash(input.txEffects.map((effect) => effect.l2ToL1Messages)),
    },
    totalFees: input.totalFees ?? 0n,
    totalManaUsed: input.totalManaUsed ?? 0n,
  };
  const hash = blockHash(header);
  const archiveTree = appendLeaves(input.parentArchiveTree, [hash]);
  const prepared = draft.finish(hash);
  const block: Block = {
    header,
    hash,
    archive: treeSnapshot(archiveTree),
    body: { txEffects: input.txEffects },
    checkpointNumber: input.checkpointNumber,
    indexWithinCheckpoint: input.indexWithinCheckpoint,
  };
  return { block, archiveTree, prepared };
}
