import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { inboxTreeHash } from '../../spec/messages/inbox.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  openMemoryChain,
  proposeBlock,
  syncInboxLeaves,
} from '../../test/helpers/memoryChain.js';
import { checkpointProposalOf } from '../../test/helpers/scriptedL1.js';
import { decodeCheckpoint } from './checkpointDecoding.js';

const SLOT = 2;
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const L1 = { blockNumber: 7n, blockHash: hex32(0xb7), txHash: hex32(0x77), logIndex: 0 };

describe('decodeCheckpoint with inbox messages', () => {
  it('accepts a checkpoint whose first block alone carries the inbox hash', async () => {
    const node = await openMemoryChain();
    const leaves = [hex32(0xaa), hex32(0xbb)];
    await syncInboxLeaves(node, 1, leaves);
    const tx = (n: number) => minimalTxEffect(hex32(0x7000 + n), hex32(0x9000 + n));
    const blocks = [await proposeBlock(node, SLOT, [tx(1)]), await proposeBlock(node, SLOT, [tx(2)])];
    const proposal = checkpointProposalOf(1, MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot, SLOT, blocks, 36);
    const result = decodeCheckpoint({ ...proposal.log, l1: L1 }, proposal.blobs, {
      previousArchiveTree: await node.chain.update((u) => u.getArchiveTree(0)),
      chainId: MEMORY_CHAIN_CONSTANTS.l1ChainId,
      rollupVersion: MEMORY_CHAIN_CONSTANTS.rollupVersion,
      l1BlockTimestamp: 84n,
      expectedGasFees: blocks[0]!.header.globalVariables.gasFees,
      expectedInHash: inboxTreeHash(leaves),
      attestations: [],
    });
    if (!result.ok) throw new Error(result.reason);
    expect(result.value.blocks.map((d) => d.block)).toEqual(blocks);
  });
});
