import type { BlockTipName, Checkpoint, CheckpointTipName, Hex, L1RollupConstants, L2Tips } from '../../spec/chain.js';
import { CONTRACT_LANGUAGE_VERSION, L1_SLOT_DURATION_SECONDS, NODE_VERSION, PROTOCOL_VERSION } from '../../spec/constants.js';
import type { Chain } from '../chain/chain.js';
import { createTimetable } from '../chain/timetable.js';
import type { BlockQuery, BlockWithContext, CheckpointQuery, NodeAdmin, NodeService, TxService, ValidatorService } from '../nodeService.js';
import type { MessageService } from '../messages/messageQueries.js';
import { createContractQueries } from './contractQueries.js';
import { createLogQueries } from './logQueries.js';
import { createWorldStateQueries } from './worldStateQueries.js';
import { lastFeeBasis } from '../fees/feeBasis.js';
import { feeFloor, nextGasFees, predictedGasFees } from '../fees/minFees.js';

function tipBlockNumber(tips: L2Tips, tip: 'latest' | BlockTipName): number {
  switch (tip) {
    case 'latest':
    case 'proposed':
      return tips.proposed.number;
    case 'checkpointed':
    case 'proven':
    case 'finalized':
      return tips[tip].block.number;
  }
}

/** The last slot whose L1 data the node has entirely: the next L1 block after the synced one belongs to a later slot. */
export function syncedSlotAt(constants: L1RollupConstants, syncedL1Timestamp: bigint): number | undefined {
  const timetable = createTimetable(constants);
  const slot = timetable.slotAt(syncedL1Timestamp + BigInt(constants.ethereumSlotDuration || L1_SLOT_DURATION_SECONDS)) - 1;
  return slot >= 0 ? slot : undefined;
}

/** The last epoch all of whose slots are synced. */
export function syncedEpochAt(constants: L1RollupConstants, syncedSlot: number | undefined): number | undefined {
  if (syncedSlot === undefined) return undefined;
  const epoch = Math.floor((syncedSlot + 1) / constants.epochDuration) - 1;
  return epoch >= 0 ? epoch : undefined;
}

export interface NodeQueriesDeps {
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly rollupAddress: Hex;
  /** The inbox and outbox the rollup deployed, read from L1 at startup. */
  readonly messageBoxAddresses: { readonly inboxAddress: Hex; readonly outboxAddress: Hex };
  readonly ready: () => boolean;
  readonly admin: NodeAdmin;
  readonly txService: TxService;
  readonly validatorService?: ValidatorService;
  /** Cross-chain messages (core/messages/messageQueries.ts). */
  readonly messageService: MessageService;
}

/** The read side of NodeService, over the chain store. */
export function createNodeService(deps: NodeQueriesDeps): NodeService {
  const { chain, constants } = deps;
  const floor = feeFloor(constants.ethPerFeeAsset);
  const store = chain.store;
  const resolveBlockNumber = async (query: BlockQuery): Promise<number | undefined> => {
    switch (query.kind) {
      case 'number':
        return query.number;
      case 'tag':
        return tipBlockNumber(chain.tips, query.tag);
      case 'hash':
        return store.getBlockNumberByHash(query.hash);
      case 'archive':
        return store.getBlockNumberByArchive(query.archive);
      case 'hashOrArchive':
        return (await store.getBlockNumberByHash(query.value)) ?? (await store.getBlockNumberByArchive(query.value));
    }
  };
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
  const l1ContractAddresses = { rollupAddress: deps.rollupAddress, ...deps.messageBoxAddresses };
  return {
    ...createWorldStateQueries({ chain, resolveBlockNumber }),
    ...createLogQueries(chain),
    ...createContractQueries(chain, resolveBlockNumber),
    ...deps.txService,
    ...deps.messageService,
    getBlockNumber: async (tip) => tipBlockNumber(chain.tips, tip ?? 'proposed'),
    getCheckpointNumber: async (tip: CheckpointTipName = 'checkpointed') => chain.tips[tip].checkpoint.number,
    getChainTips: async () => chain.tips,
    async getBlock(query) {
      const n = await resolveBlockNumber(query);
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
    getCurrentMinFees: async () => nextGasFees(await lastFeeBasis(chain, floor), floor),
    getPredictedMinFees: async (usage) => predictedGasFees(await lastFeeBasis(chain, floor), usage, floor),
    getL1Constants: () => constants,
    getNodeInfo: () => ({
      nodeVersion: NODE_VERSION,
      contractLanguageVersion: CONTRACT_LANGUAGE_VERSION,
      l1ChainId: constants.l1ChainId,
      rollupVersion: constants.rollupVersion,
      protocolVersion: PROTOCOL_VERSION,
      l1ContractAddresses,
    }),
    getNodeVersion: () => NODE_VERSION,
    getVersion: () => constants.rollupVersion,
    getChainId: () => constants.l1ChainId,
    getL1ContractAddresses: () => l1ContractAddresses,
    isReady: deps.ready,
    admin: deps.admin,
    ...(deps.validatorService ? { validators: deps.validatorService } : {}),
  };
}

/**
 * Checkpoints whose slot lies in `epoch`. Slots grow with checkpoint numbers, so a binary search finds the first
 * one at or after the epoch's first slot in O(log n) reads; at most `epochDuration` checkpoints follow it.
 */
export async function checkpointsInEpoch(chain: Chain, constants: L1RollupConstants, epoch: number): Promise<Checkpoint[]> {
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
