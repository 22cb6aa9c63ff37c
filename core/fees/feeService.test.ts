import { describe, expect, test } from 'vitest';
import type { Block, Checkpoint, CheckpointHeader, GasFees } from '../../spec/chain.js';
import { checkpointHash } from '../../spec/codec/checkpointHeader.js';
import { CHECKPOINT_MANA_LIMIT, CHECKPOINT_MANA_TARGET, PREDICTED_FEE_SLOTS } from '../../spec/constants.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  openMemoryChain,
  proposeBlock,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { checkpointedFeeBasis } from './feeBasis.js';
import { createFeeService } from './feeService.js';
import { feeFloor } from './minFees.js';

const FLOOR = feeFloor(MEMORY_CHAIN_CONSTANTS.ethPerFeeAsset);
const ZERO_HASH = `0x${'00'.repeat(32)}` as const;

/** Checkpoints `block` as L1 would have it: one block, paying `gasFees`, whose txs used `manaUsed`. */
async function checkpointBlock(node: MemoryChain, block: Block, gasFees: GasFees, manaUsed: bigint): Promise<void> {
  await node.chain.update(async (u) => {
    const last = (await u.getBlock(u.tips.checkpointed.block.number))!;
    const header: CheckpointHeader = {
      lastArchiveRoot: last.archive.root,
      slotNumber: block.header.globalVariables.slotNumber,
      timestamp: block.header.globalVariables.timestamp,
      coinbase: block.header.globalVariables.coinbase,
      feeRecipient: block.header.globalVariables.feeRecipient,
      gasFees,
      blockCount: 1,
      blobsHash: ZERO_HASH,
      totalManaUsed: manaUsed,
      inHash: block.header.contentCommitment.inHash,
      outHash: block.header.contentCommitment.outHash,
    };
    const checkpoint: Checkpoint = {
      number: u.tips.checkpointed.checkpoint.number + 1,
      header,
      archiveRoot: block.archive.root,
      hash: checkpointHash(header, block.archive.root),
      firstBlockNumber: block.header.globalVariables.blockNumber,
      blockCount: 1,
      blobVersionedHashes: [],
      l1: {
        blockNumber: 2n,
        blockHash: ZERO_HASH,
        timestamp: block.header.globalVariables.timestamp,
        txHash: ZERO_HASH,
      },
      attestations: [],
    };
    u.markCheckpointed(checkpoint, { number: block.header.globalVariables.blockNumber, hash: block.hash });
  });
}

describe('the minimum fees a node asks of txs', () => {
  test('before the first checkpoint: the floor, now and in every coming slot', async () => {
    const node = await openMemoryChain();
    const fees = createFeeService(node.chain, MEMORY_CHAIN_CONSTANTS);
    expect(await fees.getCurrentMinFees()).toEqual(FLOOR);
    const forecast = await fees.getPredictedMinFees('limit');
    expect(forecast).toHaveLength(PREDICTED_FEE_SLOTS + 1);
    expect(forecast[0]).toEqual(FLOOR);
    expect(await node.chain.update((u) => checkpointedFeeBasis(u, FLOOR))).toEqual({
      gasFees: FLOOR,
      manaUsed: BigInt(CHECKPOINT_MANA_TARGET),
    });
  });

  test('after a full checkpoint at 8,000 per mana: 9,000 per mana, rising by an eighth per full slot', async () => {
    const node = await openMemoryChain();
    const fees = createFeeService(node.chain, MEMORY_CHAIN_CONSTANTS);
    const paid = { feePerDaGas: FLOOR.feePerDaGas, feePerL2Gas: 8_000n };
    await checkpointBlock(node, await proposeBlock(node, 1, []), paid, BigInt(CHECKPOINT_MANA_LIMIT));
    expect(await fees.getCurrentMinFees()).toEqual({ feePerDaGas: FLOOR.feePerDaGas, feePerL2Gas: 9_000n });
    const forecast = await fees.getPredictedMinFees('limit');
    expect(forecast.slice(0, 3).map((f) => f.feePerL2Gas)).toEqual([9_000n, 10_125n, 11_390n]);
    // A block built on this tip pays what the service asks (the sequencer and the archiver read the same basis).
    expect(await node.chain.update((u) => checkpointedFeeBasis(u, FLOOR))).toEqual({
      gasFees: paid,
      manaUsed: BigInt(CHECKPOINT_MANA_LIMIT),
    });
    const next = await proposeBlock(node, 2, []);
    expect(next.header.globalVariables.gasFees).toEqual(await fees.getCurrentMinFees());
  });
});
