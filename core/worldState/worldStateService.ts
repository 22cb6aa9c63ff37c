/**
 * The world-state part of NodeService: every query names a reference block, which must be one the node has and
 * still keeps the state of. An unknown block and a block whose state was pruned both answer STATE_NOT_AVAILABLE,
 * with a message saying which; a leaf that does not exist is undefined.
 */
import type { Hex } from '../../spec/chain.js';
import { MerkleTreeId } from '../../spec/constants.js';
import type { Chain } from '../chain/chain.js';
import { unknownReferenceBlock } from '../chain/referenceBlock.js';
import { NodeError } from '../errors.js';
import type { BlockQuery } from '../nodeService.js';
import type { DataInBlock, MembershipWitness, NullifierMembershipWitness, PublicDataWitness } from './witnesses.js';
import { WorldStateError } from './worldStateError.js';

/** How far the world state has followed the chain (svc_getWorldStateSyncStatus). */
export interface WorldStateSyncStatus {
  readonly latestBlockNumber: number;
  readonly latestBlockHash: Hex;
  readonly finalizedBlockNumber: number;
  /** The oldest block whose state queries still answer; older ones are STATE_NOT_AVAILABLE. */
  readonly oldestHistoricBlockNumber: number;
  readonly treesAreSynced: boolean;
}

/**
 * World-state queries, each as of the block `reference` names. STATE_NOT_AVAILABLE when the node does not have that
 * block or no longer keeps its state; undefined when the leaf asked about does not exist.
 */
export interface WorldStateService {
  /** A contract's public storage slot (a contract-language slot); 0 when never written. */
  getPublicStorageAt(reference: BlockQuery, contract: Hex, slot: Hex): Promise<Hex>;
  getWorldStateSyncStatus(): Promise<WorldStateSyncStatus>;
  /** One entry per value, in order: its leaf index and the block that inserted it, or undefined. */
  findLeavesIndexes(
    reference: BlockQuery,
    treeId: MerkleTreeId,
    leafValues: readonly Hex[],
  ): Promise<(DataInBlock<bigint> | undefined)[]>;
  getNullifierMembershipWitness(reference: BlockQuery, nullifier: Hex): Promise<NullifierMembershipWitness | undefined>;
  /** The low leaf proving the nullifier's absence; undefined when the nullifier exists. */
  getLowNullifierMembershipWitness(
    reference: BlockQuery,
    nullifier: Hex,
  ): Promise<NullifierMembershipWitness | undefined>;
  /** The leaf holding the slot, or the low leaf bracketing it when the slot was never written. */
  getPublicDataWitness(reference: BlockQuery, leafSlot: Hex): Promise<PublicDataWitness | undefined>;
  getBlockHashMembershipWitness(reference: BlockQuery, blockHash: Hex): Promise<MembershipWitness | undefined>;
  getNoteHashMembershipWitness(reference: BlockQuery, noteHash: Hex): Promise<MembershipWitness | undefined>;
  getL1ToL2MessageMembershipWitness(
    reference: BlockQuery,
    message: Hex,
  ): Promise<readonly [bigint, MembershipWitness] | undefined>;
}

export interface WorldStateServiceDeps {
  readonly chain: Chain;
  /** The number of the block a query names, or undefined when the node does not have it. */
  readonly resolveBlockNumber: (query: BlockQuery) => Promise<number | undefined>;
}

/** The world state's own errors as the node's: pruned and unknown blocks are STATE_NOT_AVAILABLE. */
function translated(error: unknown, block: number): unknown {
  if (!(error instanceof WorldStateError)) return error;
  switch (error.code) {
    case 'WORLD_STATE_BLOCK_PRUNED':
      return new NodeError(
        'STATE_NOT_AVAILABLE',
        `the state of block ${block} is no longer kept: ${error.shortMessage}`,
        {
          blockNumber: block,
          reason: 'pruned',
        },
      );
    case 'WORLD_STATE_BLOCK_UNKNOWN':
      return new NodeError('STATE_NOT_AVAILABLE', `block ${block} is not known to this node`, {
        blockNumber: block,
        reason: 'unknown',
      });
    case 'WORLD_STATE_QUERY_INVALID':
      return new NodeError('INVALID_PARAMS', error.shortMessage, error.details);
    case 'WORLD_STATE_LOOKUP_TOO_LARGE':
      return new NodeError('LIMIT_EXCEEDED', error.shortMessage, error.details);
    default:
      return error;
  }
}

export function createWorldStateService(deps: WorldStateServiceDeps): WorldStateService {
  const { chain } = deps;
  const worldState = chain.worldState;

  /** Runs `read` as of the block `query` names; STATE_NOT_AVAILABLE when there is no such block or it is pruned. */
  async function asOf<T>(query: BlockQuery, read: (block: number) => Promise<T>): Promise<T> {
    const block = await deps.resolveBlockNumber(query);
    if (block === undefined || block > chain.tips.proposed.number) {
      throw unknownReferenceBlock(query);
    }
    try {
      return await read(block);
    } catch (error) {
      throw translated(error, block);
    }
  }

  const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

  return {
    getPublicStorageAt: (query, contract, slot) =>
      asOf(query, (block) => worldState.getPublicStorageAt(block, contract, slot)),
    async getWorldStateSyncStatus(): Promise<WorldStateSyncStatus> {
      const { proposed, finalized } = chain.tips;
      return {
        latestBlockNumber: worldState.latestBlockNumber,
        latestBlockHash: proposed.hash,
        finalizedBlockNumber: finalized.block.number,
        oldestHistoricBlockNumber: worldState.oldestBlockNumber,
        treesAreSynced: worldState.latestBlockNumber === proposed.number,
      };
    },
    findLeavesIndexes: (query, treeId, leafValues) =>
      asOf(query, async (block) => (await worldState.findLeafIndices(treeId, block, leafValues)).map(orUndefined)),
    getNullifierMembershipWitness: (query, nullifier) =>
      asOf(query, async (block) => orUndefined(await worldState.getNullifierMembershipWitness(block, nullifier))),
    getLowNullifierMembershipWitness: (query, nullifier) =>
      asOf(query, async (block) => orUndefined(await worldState.getLowNullifierMembershipWitness(block, nullifier))),
    getPublicDataWitness: (query, leafSlot) => asOf(query, (block) => worldState.getPublicDataWitness(block, leafSlot)),
    getBlockHashMembershipWitness: (query, blockHash: Hex) =>
      asOf(query, async (block) =>
        orUndefined(await worldState.getMembershipWitnessByValue(MerkleTreeId.ARCHIVE, block, blockHash)),
      ),
    getNoteHashMembershipWitness: (query, noteHash) =>
      asOf(query, async (block) =>
        orUndefined(await worldState.getMembershipWitnessByValue(MerkleTreeId.NOTE_HASH_TREE, block, noteHash)),
      ),
    getL1ToL2MessageMembershipWitness: (query, message) =>
      asOf(query, async (block) => {
        const witness = await worldState.getMembershipWitnessByValue(
          MerkleTreeId.L1_TO_L2_MESSAGE_TREE,
          block,
          message,
        );
        return witness === null ? undefined : ([witness.leafIndex, witness] as const);
      }),
  };
}
