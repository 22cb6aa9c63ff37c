import type { Block, BlockHeader, GasFees, Hex, TxEffect } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { txsEffectsHash } from '../../spec/codec/txEffect.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import type { AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import { appendLeaves, treeSnapshot } from '../merkle/appendOnlyTree.js';

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
}

/**
 * Builds the next block on `parent`. World-state roots carry over from the parent until the world-state issue
 * applies tx effects; the archive tree gains the new block's hash.
 */
export function buildBlock(input: BlockBuildInput): { block: Block; archiveTree: AppendOnlyTree } {
  const { parent } = input;
  const header: BlockHeader = {
    lastArchive: treeSnapshot(input.parentArchiveTree),
    state: parent.header.state,
    globalVariables: {
      chainId: parent.header.globalVariables.chainId,
      version: parent.header.globalVariables.version,
      blockNumber: parent.header.globalVariables.blockNumber + 1,
      slotNumber: input.slotNumber,
      timestamp: input.timestamp,
      coinbase: input.coinbase,
      feeRecipient: input.feeRecipient,
      gasFees: input.gasFees,
    },
    contentCommitment: { txsEffectsHash: txsEffectsHash(input.txEffects), inHash: zeroHex(32), outHash: zeroHex(32) },
    totalFees: 0n,
    totalManaUsed: 0n,
  };
  const hash = blockHash(header);
  const archiveTree = appendLeaves(input.parentArchiveTree, [hash]);
  return {
    block: {
      header,
      hash,
      archive: treeSnapshot(archiveTree),
      body: { txEffects: input.txEffects },
      checkpointNumber: input.checkpointNumber,
      indexWithinCheckpoint: input.indexWithinCheckpoint,
    },
    archiveTree,
  };
}

