import type { Block, Checkpoint, CheckpointHeader } from '../../spec/chain.js';
import { checkpointHash } from '../../spec/codec/checkpointHeader.js';
import type { MemoryChain } from './memoryChain.js';

const ZERO_HASH = `0x${'00'.repeat(32)}` as const;

/** Checkpoints `block` (the node's checkpointed tip + 1) alone, as L1 would have it. */
export async function checkpointBlock(node: MemoryChain, block: Block): Promise<void> {
  await node.chain.update(async (u) => {
    const last = (await u.getBlock(u.tips.checkpointed.block.number))!;
    const g = block.header.globalVariables;
    const header: CheckpointHeader = {
      lastArchiveRoot: last.archive.root,
      slotNumber: g.slotNumber,
      timestamp: g.timestamp,
      coinbase: g.coinbase,
      feeRecipient: g.feeRecipient,
      gasFees: g.gasFees,
      blockCount: 1,
      blobsHash: ZERO_HASH,
      totalManaUsed: 0n,
      inHash: block.header.contentCommitment.inHash,
      outHash: block.header.contentCommitment.outHash,
    };
    const checkpoint: Checkpoint = {
      number: u.tips.checkpointed.checkpoint.number + 1,
      header,
      archiveRoot: block.archive.root,
      hash: checkpointHash(header, block.archive.root),
      firstBlockNumber: g.blockNumber,
      blockCount: 1,
      blobVersionedHashes: [],
      l1: { blockNumber: 2n, blockHash: ZERO_HASH, timestamp: g.timestamp, txHash: ZERO_HASH },
      attestations: [],
    };
    u.markCheckpointed(checkpoint, { number: g.blockNumber, hash: block.hash });
  });
}
