/**
 * A proposed checkpoint as a committee member receives it, built the way the sequencer builds one: blocks whose
 * headers chain onto the genesis archive, each with its signed block proposal payload and its gossiped header and
 * body. The blocks' contents are given (tx effects, mana); everything else is derived, so every binding holds.
 */
import { createGenesis } from '../../core/worldState/genesis.js';
import { appendLeaves, treeRoot, treeSnapshot, type AppendOnlyTree } from '../../core/merkle/appendOnlyTree.js';
import type { BlockHeader, CheckpointHeader, Hex, TxEffect } from '../../spec/chain.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { minimalTxEffect, txsEffectsHash } from '../../spec/codec/txEffect.js';
import { encodeBlockProposalContent, type BlockProposalContent } from '../../spec/validators/blockProposalContent.js';
import type { BlockProposalPayload } from '../../spec/validators/signingPayloads.js';
import { TEST_CHAIN, hex32 } from './validatorFixtures.js';

export interface BlockSpec {
  readonly txEffects: readonly TxEffect[];
  readonly manaUsed: bigint;
}

export interface ProposedBlockFixture {
  readonly payload: BlockProposalPayload;
  readonly content: BlockProposalContent;
  /** The gossiped forms. */
  readonly header: Hex;
  readonly body: Hex;
}

export interface ProposedCheckpointFixture {
  /** The archive the checkpoint builds on (the committee member's checkpointed archive). */
  readonly previousArchive: AppendOnlyTree;
  readonly checkpointHeader: CheckpointHeader;
  readonly blocks: readonly ProposedBlockFixture[];
}

export const FIXTURE_SLOT = 7;

/** Tx `n`'s effect with `noteHashCount` note hashes: 105 + 32 x noteHashCount bytes encoded. */
export function sizedTxEffect(n: number, noteHashCount = 0): TxEffect {
  return {
    ...minimalTxEffect(hex32(1_000_000 + n), hex32(2_000_000 + n)),
    noteHashes: Array.from({ length: noteHashCount }, (_, i) => hex32(3_000_000 + n * 100 + i)),
  };
}

function blockHeaderOf(tree: AppendOnlyTree, spec: BlockSpec, slot: number): BlockHeader {
  const genesis = createGenesis(TEST_CHAIN.l1ChainId, TEST_CHAIN.rollupVersion).block.header;
  return {
    ...genesis,
    lastArchive: treeSnapshot(tree),
    globalVariables: {
      ...genesis.globalVariables,
      blockNumber: tree.size,
      slotNumber: slot,
      timestamp: BigInt(slot * 36),
    },
    contentCommitment: { txsEffectsHash: txsEffectsHash(spec.txEffects), inHash: zeroHex(32), outHash: zeroHex(32) },
    totalManaUsed: spec.manaUsed,
  };
}

export function proposedCheckpoint(specs: readonly BlockSpec[], slot = FIXTURE_SLOT): ProposedCheckpointFixture {
  const previousArchive = createGenesis(TEST_CHAIN.l1ChainId, TEST_CHAIN.rollupVersion).archiveTree;
  let tree = previousArchive;
  const blocks = specs.map((spec, index): ProposedBlockFixture => {
    const header = blockHeaderOf(tree, spec, slot);
    const blockNumber = tree.size;
    tree = appendLeaves(tree, [blockHash(header)]);
    const content = { header, txEffects: spec.txEffects };
    const payload = {
      ...TEST_CHAIN,
      slot,
      blockNumber,
      indexWithinCheckpoint: index,
      archiveRoot: treeRoot(tree),
      txHashes: spec.txEffects.map((e) => e.txHash),
    };
    return { payload, content, ...encodeBlockProposalContent(content) };
  });
  const checkpointHeader: CheckpointHeader = {
    lastArchiveRoot: treeRoot(previousArchive),
    slotNumber: slot,
    timestamp: BigInt(slot * 36),
    coinbase: zeroHex(20),
    feeRecipient: zeroHex(32),
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    blockCount: specs.length,
    blobsHash: hex32(9),
    totalManaUsed: specs.reduce((sum, s) => sum + s.manaUsed, 0n),
    inHash: zeroHex(32),
    outHash: zeroHex(32),
  };
  return { previousArchive, checkpointHeader, blocks };
}
