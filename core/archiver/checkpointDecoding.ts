import type {
  Block,
  BlockHeader,
  Checkpoint,
  CheckpointHeader,
  CommitteeSignature,
  GasFees,
  Hex,
  L1PublishInfo,
  TxEffect,
} from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { blockOutHash, outTreeRoot } from '../../spec/messages/outbox.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { blobsToPayload, decodeCheckpointPayload } from '../../spec/codec/checkpointBlobs.js';
import { blobsHash, checkpointHash, decodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { txsEffectsHash } from '../../spec/codec/txEffect.js';
import type { AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import { appendLeaves, treeRoot, treeSnapshot } from '../merkle/appendOnlyTree.js';
import type { CheckpointProposedLog } from '../ports.js';

export interface DecodedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly blocks: readonly { readonly block: Block; readonly archiveTree: AppendOnlyTree }[];
}

export interface CheckpointContext {
  /** Archive tree after the previous checkpoint's last block. */
  readonly previousArchiveTree: AppendOnlyTree;
  readonly chainId: number;
  readonly rollupVersion: number;
  readonly l1BlockTimestamp: bigint;
  /** The minimum fees the fee rule gives this checkpoint (core/fees/minFees.ts). */
  readonly expectedGasFees: GasFees;
  /** The hash of the inbox tree this checkpoint consumes, from the messages the node synced (spec/messages/inbox.ts). */
  readonly expectedInHash: Hex;
  /** The checkpoint's attestations as the quorum check resolved them (empty when the node checks none). */
  readonly attestations: readonly CommitteeSignature[];
}

const sameFees = (a: GasFees, b: GasFees): boolean =>
  a.feePerDaGas === b.feePerDaGas && a.feePerL2Gas === b.feePerL2Gas;

/**
 * The cross-chain message commitments: the first block's inHash is the checkpoint's (the others' zero: they insert no
 * messages), each block's outHash is the root of its txs' L2-to-L1 messages, and the header's outHash their root.
 */
function checkMessageCommitments(
  header: CheckpointHeader,
  blocks: readonly { header: BlockHeader; txEffects: readonly TxEffect[] }[],
  inHash: Hex,
): string | undefined {
  const blockOutHashes: Hex[] = [];
  for (const [index, { header: bh, txEffects }] of blocks.entries()) {
    const expectedInHash = index === 0 ? inHash : zeroHex(32);
    if (bh.contentCommitment.inHash !== expectedInHash)
      return `block ${bh.globalVariables.blockNumber} inHash is not ${expectedInHash}`;
    const outHash = blockOutHash(txEffects.map((effect) => effect.l2ToL1Messages));
    if (bh.contentCommitment.outHash !== outHash)
      return `block ${bh.globalVariables.blockNumber} outHash is not the root of its L2-to-L1 messages`;
    blockOutHashes.push(outHash);
  }
  if (header.outHash !== outTreeRoot(blockOutHashes))
    return "header outHash is not the root of its blocks' L2-to-L1 messages";
  return undefined;
}

/**
 * Rebuilds a checkpoint's blocks from its L1 log and blobs, checking everything the node relies on: the header
 * matches the log and the blobs, blocks chain onto the previous archive one by one, and the resulting archive root
 * is the one L1 recorded. Returns a reason instead of throwing for any inconsistency in the published data.
 */
export function decodeCheckpoint(
  log: CheckpointProposedLog,
  blobs: readonly Uint8Array[],
  ctx: CheckpointContext,
): { ok: true; value: DecodedCheckpoint } | { ok: false; reason: string } {
  let header;
  let payloadBlocks;
  try {
    header = decodeCheckpointHeader(hexToBytes(log.header));
    payloadBlocks = decodeCheckpointPayload(blobsToPayload(blobs));
  } catch (error) {
    return { ok: false, reason: `undecodable checkpoint data: ${(error as Error).message}` };
  }
  if (header.slotNumber !== log.slotNumber)
    return { ok: false, reason: `header slot ${header.slotNumber} != log slot ${log.slotNumber}` };
  if (header.blobsHash !== blobsHash(log.blobVersionedHashes))
    return { ok: false, reason: 'header blobsHash does not match the blobs' };
  if (header.lastArchiveRoot !== treeRoot(ctx.previousArchiveTree))
    return { ok: false, reason: 'header lastArchiveRoot is not the previous archive' };
  if (!sameFees(header.gasFees, ctx.expectedGasFees)) {
    return {
      ok: false,
      reason: `header gas fees ${header.gasFees.feePerL2Gas}/${header.gasFees.feePerDaGas} are not the minimum fees ${ctx.expectedGasFees.feePerL2Gas}/${ctx.expectedGasFees.feePerDaGas}`,
    };
  }
  if (payloadBlocks.length !== header.blockCount)
    return { ok: false, reason: `blobs carry ${payloadBlocks.length} blocks, header says ${header.blockCount}` };
  if (header.inHash !== ctx.expectedInHash)
    return { ok: false, reason: `header inHash ${header.inHash} is not the inbox tree's hash ${ctx.expectedInHash}` };
  const messages = checkMessageCommitments(header, payloadBlocks, ctx.expectedInHash);
  if (messages !== undefined) return { ok: false, reason: messages };

  let tree = ctx.previousArchiveTree;
  const firstBlockNumber = tree.size;
  const blocks: { block: Block; archiveTree: AppendOnlyTree }[] = [];
  for (const [index, { header: bh, txEffects }] of payloadBlocks.entries()) {
    const g = bh.globalVariables;
    const expected = treeSnapshot(tree);
    if (g.blockNumber !== tree.size)
      return { ok: false, reason: `block number ${g.blockNumber}, expected ${tree.size}` };
    if (
      bh.lastArchive.root !== expected.root ||
      bh.lastArchive.nextAvailableLeafIndex !== expected.nextAvailableLeafIndex
    ) {
      return { ok: false, reason: `block ${g.blockNumber} does not chain onto the archive` };
    }
    if (g.slotNumber !== header.slotNumber)
      return { ok: false, reason: `block ${g.blockNumber} slot ${g.slotNumber} != checkpoint slot` };
    if (!sameFees(g.gasFees, header.gasFees))
      return { ok: false, reason: `block ${g.blockNumber} gas fees differ from its checkpoint's` };
    if (g.chainId !== ctx.chainId || g.version !== ctx.rollupVersion)
      return { ok: false, reason: `block ${g.blockNumber} has another chain id or version` };
    if (bh.contentCommitment.txsEffectsHash !== txsEffectsHash(txEffects)) {
      return { ok: false, reason: `block ${g.blockNumber} tx effects do not match its header's txsEffectsHash` };
    }
    const hash = blockHash(bh);
    tree = appendLeaves(tree, [hash]);
    blocks.push({
      block: {
        header: bh,
        hash,
        archive: treeSnapshot(tree),
        body: { txEffects },
        checkpointNumber: log.checkpointNumber,
        indexWithinCheckpoint: index,
      },
      archiveTree: tree,
    });
  }
  const archiveRoot: Hex = treeRoot(tree);
  if (archiveRoot !== log.archive)
    return { ok: false, reason: 'rebuilt archive root differs from the one recorded on L1' };
  const l1: L1PublishInfo = {
    blockNumber: log.l1.blockNumber,
    blockHash: log.l1.blockHash,
    timestamp: ctx.l1BlockTimestamp,
    txHash: log.l1.txHash,
  };
  const checkpoint: Checkpoint = {
    number: log.checkpointNumber,
    header,
    archiveRoot,
    hash: checkpointHash(header, archiveRoot),
    firstBlockNumber,
    blockCount: blocks.length,
    blobVersionedHashes: log.blobVersionedHashes,
    l1,
    attestations: ctx.attestations,
  };
  return { ok: true, value: { checkpoint, blocks } };
}
