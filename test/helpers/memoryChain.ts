/**
 * A node's chain at genesis over in-memory storage (the chain store, the world state, the inbox), and a proposer's
 * way of adding blocks to it as the sequencer does (core/sequencer/blockBuilder.ts): for tests that need real
 * blocks, with state roots a world state computed.
 */
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { Chain } from '../../core/chain/chain.js';
import { ChainStore } from '../../core/chain/chainStore.js';
import { genesisTips } from '../../core/chain/tips.js';
import { checkpointedFeeBasis } from '../../core/fees/feeBasis.js';
import { feeFloor, nextGasFees } from '../../core/fees/minFees.js';
import { InboxStore } from '../../core/messages/inboxStore.js';
import type { InboxMessageLog, StoragePort } from '../../core/ports.js';
import { buildBlock } from '../../core/sequencer/blockBuilder.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { WorldState } from '../../core/worldState/worldState.js';
import type { Block, Hex, L1RollupConstants, TxEffect } from '../../spec/chain.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../../spec/config/schema.js';
import { firstMessageIndexOfCheckpoint } from '../../spec/messages/inbox.js';
import { ManualClock } from './manualClock.js';

export const MEMORY_CHAIN_ID = 31337;
export const MEMORY_ROLLUP_VERSION = 1;
export const memoryGenesis = createGenesis(MEMORY_CHAIN_ID, MEMORY_ROLLUP_VERSION);

/** The rollup constants of the memory chain: 36-second slots from Unix time 0. */
export const MEMORY_CHAIN_CONSTANTS: L1RollupConstants = {
  l1ChainId: MEMORY_CHAIN_ID,
  rollupVersion: MEMORY_ROLLUP_VERSION,
  l1StartBlock: 1n,
  l1GenesisTime: 0n,
  slotDuration: 36,
  epochDuration: 32,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  genesisArchiveRoot: memoryGenesis.block.archive.root,
  ethPerFeeAsset: INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
};

export interface MemoryChain {
  readonly storage: StoragePort;
  readonly chain: Chain;
  readonly inbox: InboxStore;
  readonly clock: ManualClock;
}

export async function openMemoryChain(clock = new ManualClock()): Promise<MemoryChain> {
  const storage = createMemoryStorage();
  const genesisRef = { number: 0, hash: memoryGenesis.block.hash };
  const identity = {
    l1ChainId: MEMORY_CHAIN_ID,
    rollupAddress: `0x${'00'.repeat(19)}01` as Hex,
    rollupVersion: MEMORY_ROLLUP_VERSION,
    genesisArchiveRoot: memoryGenesis.block.archive.root,
  };
  const store = await ChainStore.open(storage, identity, memoryGenesis, genesisTips(genesisRef, genesisRef));
  const worldState = await WorldState.open(storage, { genesisBlockHash: memoryGenesis.block.hash });
  return { storage, chain: new Chain(store, worldState, clock), inbox: new InboxStore(storage), clock };
}

/** Stores `leaves` as the inbox messages checkpoint `checkpointNumber` consumes, as the archiver syncs them. */
export async function syncInboxLeaves(node: MemoryChain, checkpointNumber: number, leaves: readonly Hex[]) {
  const first = firstMessageIndexOfCheckpoint(checkpointNumber);
  const logs: InboxMessageLog[] = leaves.map((leaf, i) => ({
    checkpointNumber,
    index: first + BigInt(i),
    leaf,
    treeHash: leaf,
    l1: { blockNumber: 1n, blockHash: leaf, txHash: leaf, logIndex: i },
  }));
  await node.chain.update(async (u) => void u.syncedIndexOps.push(...node.inbox.syncOps(logs)));
}

/**
 * Builds the next block of `slot` on the node's proposed tip and adds it as its sequencer does (the first of a
 * checkpoint on the checkpointed tip, consuming the checkpoint's synced inbox messages).
 */
export async function proposeBlock(node: MemoryChain, slot: number, txEffects: readonly TxEffect[]): Promise<Block> {
  return node.chain.update(async (u) => {
    const parent = (await u.getBlock(u.tips.proposed.number))!;
    const onCheckpointed = u.tips.proposed.number === u.tips.checkpointed.block.number;
    const checkpointNumber = u.tips.checkpointed.checkpoint.number + 1;
    const floor = feeFloor(MEMORY_CHAIN_CONSTANTS.ethPerFeeAsset);
    const built = await buildBlock(
      {
        parent,
        parentArchiveTree: await u.getArchiveTree(u.tips.proposed.number),
        checkpointNumber,
        inboxLeaves: onCheckpointed ? await node.inbox.leavesOfCheckpoint(checkpointNumber) : [],
        indexWithinCheckpoint: onCheckpointed ? 0 : parent.indexWithinCheckpoint + 1,
        slotNumber: slot,
        timestamp: BigInt(slot * MEMORY_CHAIN_CONSTANTS.slotDuration),
        coinbase: `0x${'11'.repeat(20)}`,
        feeRecipient: `0x${'00'.repeat(32)}`,
        gasFees: nextGasFees(await checkpointedFeeBasis(u, floor), floor),
        txEffects,
      },
      u.worldState,
    );
    u.addBlock(built.block, built.archiveTree, built.prepared, 'proposed');
    return built.block;
  });
}
