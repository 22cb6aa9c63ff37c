/** The chain part of NodeService: blocks, checkpoints, tips and how far the node has synced from L1. */
import type {
  Block,
  BlockTipName,
  Checkpoint,
  CheckpointTipName,
  L1RollupConstants,
  L2Tips,
} from '../../spec/chain.js';
import { L1_SLOT_DURATION_SECONDS } from '../../spec/constants.js';
import type { BlockQuery, CheckpointQuery } from '../nodeService.js';
import type { Chain } from './chain.js';
import { resolveBlockNumber, tipBlockNumber } from './referenceBlock.js';
import { createTimetable } from './timetable.js';

/** A block with what the node knows of its checkpoint's publication on L1. */
export interface BlockWithContext {
  readonly block: Block;
  /** Present once the block is in a checkpoint on L1. */
  readonly checkpoint?: Checkpoint;
}

export interface ChainService {
  getBlockNumber(tip?: BlockTipName): Promise<number>;
  getCheckpointNumber(tip?: CheckpointTipName): Promise<number>;
  getChainTips(): Promise<L2Tips>;
  /** undefined when the node has no such block. */
  getBlock(query: BlockQuery): Promise<BlockWithContext | undefined>;
  getCheckpoint(checkpointNumber: number): Promise<Checkpoint | undefined>;
  /** Up to `limit` blocks from `from` (fewer at the proposed tip); the RPC layer bounds `limit`. */
  getBlocks(from: number, limit: number): Promise<BlockWithContext[]>;
  findCheckpoint(query: CheckpointQuery): Promise<Checkpoint | undefined>;
  /** Up to `limit` checkpoints from `from` (fewer at the checkpointed tip). */
  getCheckpoints(from: number, limit: number): Promise<Checkpoint[]>;
  /** The checkpoints whose slots fall in `epoch`, in order (empty when none is known). */
  getCheckpointsInEpoch(epoch: number): Promise<Checkpoint[]>;
  /** Last L2 slot for which the node has all L1 data needed to build the next checkpoint; undefined before sync. */
  getSyncedL2SlotNumber(): number | undefined;
  /** Last epoch all of whose slots the node has synced from L1; undefined before the first. */
  getSyncedL2EpochNumber(): number | undefined;
  /** Timestamp of the last L1 block the archiver processed; undefined before sync. */
  getSyncedL1Timestamp(): bigint | undefined;
}

/** The last slot whose L1 data the node has entirely: the next L1 block after the synced one belongs to a later slot. */
export function syncedSlotAt(constants: L1RollupConstants, syncedL1Timestamp: bigint): number | undefined {
  const timetable = createTimetable(constants);
  const slot =
    timetable.slotAt(syncedL1Timestamp + BigInt(constants.ethereumSlotDuration || L1_SLOT_DURATION_SECONDS)) - 1;
  return slot >= 0 ? slot : undefined;
}

/** The last epoch all of whose slots are synced. */
export function syncedEpochAt(constants: L1RollupConstants, syncedSlot: number | undefined): number | undefined {
  if (syncedSlot === undefined) return undefined;
  const epoch = Math.floor((syncedSlot + 1) / constants.epochDuration) - 1;
  return epoch >= 0 ? epoch : undefined;
}

export interface ChainServiceDeps {
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
}

/** The chain part of NodeService, over the chain store. */
export function createChainService(deps: ChainServiceDeps): ChainService {
  const { chain, constants } = deps;
  const store = chain.store;
  const blockWithContext = async (n: number): Promise<BlockWithContext | undefined> => {
    const block = await store.getBlock(n);
    if (!block) return undefined;
    const checkpointed = n <= chain.tips.checkpointed.block.number && block.checkpointNumber > 0;
    const checkpoint = checkpointed ? await store.getCheckpoint(block.checkpointNumber) : undefined;
    return checkpoint ? { block, checkpoint } : { block };
  };
  const checkpointNumberOf = async (query: CheckpointQuery): Promise<number | undefined> => {
    switch (query.kind) {
      case 'number':
        return query.number;
      case 'tag':
        return chain.tips[query.tag satisfies CheckpointTipName].checkpoint.number;
      case 'hash':
        return store.getCheckpointNumberByHash(query.hash);
    }
  };
  return {
    getBlockNumber: async (tip) => tipBlockNumber(chain.tips, tip ?? 'proposed'),
    getCheckpointNumber: async (tip: CheckpointTipName = 'checkpointed') => chain.tips[tip].checkpoint.number,
    getChainTips: async () => chain.tips,
    async getBlock(query) {
      const n = await resolveBlockNumber(chain, query);
      return n === undefined ? undefined : blockWithContext(n);
    },
    async getBlocks(from, limit) {
      const last = Math.min(chain.tips.proposed.number, from + limit - 1);
      const blocks: BlockWithContext[] = [];
      for (let n = Math.max(0, from); n <= last; n++) {
        const found = await blockWithContext(n);
        if (found) blocks.push(found);
      }
      return blocks;
    },
    getCheckpoint: (n) => store.getCheckpoint(n),
    async findCheckpoint(query) {
      const n = await checkpointNumberOf(query);
      return n === undefined ? undefined : store.getCheckpoint(n);
    },
    async getCheckpoints(from, limit) {
      const last = Math.min(chain.tips.checkpointed.checkpoint.number, from + limit - 1);
      const checkpoints: Checkpoint[] = [];
      for (let n = Math.max(1, from); n <= last; n++) {
        const checkpoint = await store.getCheckpoint(n);
        if (checkpoint) checkpoints.push(checkpoint);
      }
      return checkpoints;
    },
    getCheckpointsInEpoch: (epoch) => checkpointsInEpoch(chain, constants, epoch),
    getSyncedL2SlotNumber: () => {
      const synced = chain.l1Sync;
      return synced ? syncedSlotAt(constants, synced.timestamp) : undefined;
    },
    getSyncedL2EpochNumber: () => {
      const synced = chain.l1Sync;
      return synced ? syncedEpochAt(constants, syncedSlotAt(constants, synced.timestamp)) : undefined;
    },
    getSyncedL1Timestamp: () => chain.l1Sync?.timestamp,
  };
}

/**
 * Checkpoints whose slot lies in `epoch`. Slots grow with checkpoint numbers, so a binary search finds the first
 * one at or after the epoch's first slot in O(log n) reads; at most `epochDuration` checkpoints follow it.
 */
export async function checkpointsInEpoch(
  chain: Chain,
  constants: L1RollupConstants,
  epoch: number,
): Promise<Checkpoint[]> {
  const firstSlot = epoch * constants.epochDuration;
  const endSlot = firstSlot + constants.epochDuration;
  let low = 1;
  let high = chain.tips.checkpointed.checkpoint.number + 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const checkpoint = await chain.store.getCheckpoint(mid);
    if (checkpoint && checkpoint.header.slotNumber >= firstSlot) high = mid;
    else low = mid + 1;
  }
  const found: Checkpoint[] = [];
  for (let n = low; n <= chain.tips.checkpointed.checkpoint.number && found.length < constants.epochDuration; n++) {
    const checkpoint = await chain.store.getCheckpoint(n);
    if (!checkpoint || checkpoint.header.slotNumber >= endSlot) break;
    found.push(checkpoint);
  }
  return found;
}
