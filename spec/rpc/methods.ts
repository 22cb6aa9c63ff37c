/**
 * The method table: every JSON-RPC method the node serves, with its positional params, result codec, documented
 * errors, deprecation and a one-line description. The server's dispatcher, its handler registry, the typed client
 * and the tests all derive from this table; a method exists on the wire if and only if it is listed here.
 *
 * Errors list what a method may answer beyond the envelope's own (-32600...-32603, -32002): INVALID_PARAMS for any
 * method with params, SUBSYSTEM_DISABLED where the subsystem behind it may be missing (not built yet, or not enabled),
 * LIMIT_EXCEEDED where a list is bounded (spec/rpc/limits.ts), STATE_NOT_AVAILABLE where a reference block may be
 * pruned, OPERATION_REFUSED where the node's state may forbid the call.
 */
import { z } from 'zod';
import { blockData, blockIncludeOptions, blockResponse, blocksIncludeOptions, gasFees } from '../wire/block.js';
import { blockParameter } from '../wire/blockParameter.js';
import { l1ContractAddresses, l1RollupConstants, l2Tips, nodeInfo } from '../wire/chainInfo.js';
import {
  checkpointData,
  checkpointIncludeOptions,
  checkpointParameter,
  checkpointResponse,
  checkpointsQuery,
} from '../wire/checkpoint.js';
import { contractClassPublic, contractInstanceWithAddress, protocolContractAddresses } from '../wire/contracts.js';
import { logResultsByTag, privateLogsQuery, publicLogsQuery } from '../wire/logs.js';
import { l2ToL1MembershipWitness, l2ToL1MessagesOfEpoch, messageIndexInTx } from '../wire/messages.js';
import { checkpointAttestation, peerInfo, proposalsForSlot } from '../wire/p2p.js';
import {
  aztecAddress,
  bigUint,
  blockHash,
  blockNumber,
  blockTagWithoutLatest,
  bytes32,
  checkpointNumber,
  checkpointTag,
  epochNumber,
  ethAddress,
  fr,
  jsonObject,
  manaUsageEstimate,
  merkleTreeId,
  safeUint,
  slotNumber,
  txHash,
  voidResult,
} from '../wire/scalars.js';
import { offense, slashRound } from '../wire/slashing.js';
import {
  allowedElement,
  getTxByHashOptions,
  getTxReceiptOptions,
  indexedTxEffect,
  isValidTxOptions,
  publicSimulationOutput,
  simulationOverrides,
  tx,
  txReceipt,
  txValidationResult,
} from '../wire/tx.js';
import { singleValidatorStats, validatorsStats } from '../wire/validator.js';
import {
  l1ToL2MessageWitness,
  leafIndexInBlock,
  membershipWitness,
  nullifierMembershipWitness,
  publicDataWitness,
  worldStateSyncStatus,
} from '../wire/worldState.js';
import type { DecodedParamsOf, MethodDefinition, RpcNamespace, WireParamsOf } from './methodDefinition.js';
import { optionalParam, requiredParam } from './methodDefinition.js';

/** The block a state query reads: a block hash, number, archive root, tag or object form (see blockParameter). */
const referenceBlock = requiredParam('referenceBlock', blockParameter);

export const rpcMethods = {
  // Block queries
  svc_getBlockNumber: {
    namespace: 'public',
    params: [optionalParam('tip', blockTagWithoutLatest)],
    result: blockNumber,
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description: 'Number of the newest block at a chain tip; without a tip, the newest proposed block.',
  },
  svc_getCheckpointNumber: {
    namespace: 'public',
    params: [optionalParam('tip', checkpointTag)],
    result: checkpointNumber,
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description:
      "Number of the newest checkpoint at a tip; without a tip, the checkpointed tip ('proposed' is refused).",
  },
  svc_getChainTips: {
    namespace: 'public',
    params: [],
    result: l2Tips,
    errors: [],
    deprecated: false,
    description: 'The proposed, checkpointed, proven and finalized tips of the L2 chain (4.0.0 L2Tips shape).',
  },
  svc_getBlock: {
    namespace: 'public',
    params: [requiredParam('param', blockParameter), optionalParam('options', blockIncludeOptions)],
    result: blockResponse.nullable(),
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description:
      'One block by number, hash, archive root or tag, null if unknown; options add tx effects, L1 publish info, ' +
      "and attestations: the committee's CheckpointAttestations published on L1 with the block's checkpoint, one per " +
      'member that signed, in committee order (an empty list while the block is proposed only).',
  },
  svc_getBlockData: {
    namespace: 'public',
    params: [requiredParam('param', blockParameter)],
    result: blockData.nullable(),
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description: 'Header-level metadata of one block (no transaction bodies), null if unknown.',
  },
  svc_getL1Constants: {
    namespace: 'public',
    params: [],
    result: l1RollupConstants,
    errors: [],
    deprecated: false,
    description:
      'The rollup constants the chain runs with: slot and epoch timing, L1 start block, genesis, and the fee-asset rate the fee floors are converted with.',
  },

  svc_getSyncedL2SlotNumber: {
    namespace: 'public',
    params: [],
    result: slotNumber.nullable(),
    errors: [],
    deprecated: false,
    description: 'Newest L2 slot for which the node holds every L1 input the next checkpoint needs; null before sync.',
  },
  svc_getSyncedL2EpochNumber: {
    namespace: 'public',
    params: [],
    result: epochNumber.nullable(),
    errors: [],
    deprecated: false,
    description: 'Newest epoch whose every slot the node has read from L1; null until one is complete.',
  },
  svc_getSyncedL1Timestamp: {
    namespace: 'public',
    params: [],
    result: bigUint.nullable(),
    errors: [],
    deprecated: false,
    description: 'Timestamp of the newest L1 block the archiver has processed; null before sync.',
  },
  svc_getBlocks: {
    namespace: 'public',
    params: [
      requiredParam('from', blockNumber),
      requiredParam('limit', safeUint),
      optionalParam('options', blocksIncludeOptions),
    ],
    result: z.array(blockResponse),
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED'],
    deprecated: false,
    description:
      'Consecutive blocks starting at `from`, at most `limit` (fewer at the proposed tip); options as for svc_getBlock.',
  },
  svc_getCheckpoint: {
    namespace: 'public',
    params: [requiredParam('param', checkpointParameter), optionalParam('options', checkpointIncludeOptions)],
    result: checkpointResponse.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE'],
    deprecated: false,
    description: 'One checkpoint by number, hash or tag, null if unknown; options add its blocks and their tx effects.',
  },
  svc_getCheckpoints: {
    namespace: 'public',
    params: [
      requiredParam('from', checkpointNumber),
      requiredParam('limit', safeUint),
      optionalParam('options', checkpointIncludeOptions),
    ],
    result: z.array(checkpointResponse),
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED', 'STATE_NOT_AVAILABLE'],
    deprecated: false,
    description: 'Consecutive checkpoints starting at `from`, at most `limit` (fewer at the checkpointed tip).',
  },
  svc_getCheckpointsData: {
    namespace: 'public',
    params: [requiredParam('query', checkpointsQuery)],
    result: z.array(checkpointData),
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED'],
    deprecated: false,
    description: 'Checkpoint metadata without blocks, for a range {from, limit} or for every checkpoint of an {epoch}.',
  },

  // Transaction operations
  svc_sendTx: {
    namespace: 'public',
    params: [requiredParam('tx', tx)],
    result: voidResult,
    errors: ['INVALID_PARAMS', 'TX_REJECTED', 'LIMIT_EXCEEDED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      "Hands a tx to the node's pool for gossip and inclusion; a refusal carries its rejection code, and -32005 says the node is already admitting its limit of txs (send again later).",
  },
  svc_getTxReceipt: {
    namespace: 'public',
    params: [requiredParam('txHash', txHash), optionalParam('options', getTxReceiptOptions)],
    result: txReceipt,
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Where a tx stands (mined at some tip, pending, or dropped), optionally with its effect or pooled tx.',
  },
  svc_getTxEffect: {
    namespace: 'public',
    params: [requiredParam('txHash', txHash)],
    result: indexedTxEffect.nullable(),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: true,
    description:
      'The effect of a mined tx and its place in a block, null if not mined; superseded by svc_getTxReceipt.',
  },
  svc_getTxByHash: {
    namespace: 'public',
    params: [requiredParam('txHash', txHash), optionalParam('options', getTxByHashOptions)],
    result: tx.nullable(),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'A tx waiting in the pool, null if absent; its proof is left out unless includeProof is set.',
  },
  svc_getTxsByHash: {
    namespace: 'public',
    params: [requiredParam('txHashes', z.array(txHash)), optionalParam('options', getTxByHashOptions)],
    result: z.array(tx),
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'The pooled txs among the given hashes (absent ones are skipped); proofs only with includeProof.',
  },
  svc_getPendingTxs: {
    namespace: 'public',
    params: [
      optionalParam('limit', safeUint),
      optionalParam('after', txHash),
      optionalParam('options', getTxByHashOptions),
    ],
    result: z.array(tx),
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'A page of pooled txs following `after` (from the start without it), at most `limit` (default txsPerCallMax).',
  },
  svc_getPendingTxCount: {
    namespace: 'public',
    params: [],
    result: safeUint,
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'How many txs the pool holds.',
  },
  svc_isValidTx: {
    namespace: 'public',
    params: [requiredParam('tx', tx), optionalParam('options', isValidTxOptions)],
    result: txValidationResult,
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Checks a tx against the current state; a pass can lapse later (nullifier taken, expiry reached).',
  },
  svc_simulatePublicCalls: {
    namespace: 'public',
    params: [
      requiredParam('tx', tx),
      optionalParam('skipFeeEnforcement', z.boolean().default(false)),
      optionalParam('overrides', simulationOverrides),
    ],
    result: publicSimulationOutput,
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      "Runs a tx's public calls on a throwaway fork of current state, optionally with overrides and no fee check.",
  },

  // State queries
  svc_getPublicStorageAt: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('contract', aztecAddress), requiredParam('slot', fr)],
    result: fr,
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "Value of a contract's public storage slot (a contract-language slot) as of the reference block.",
  },
  svc_getWorldStateSyncStatus: {
    namespace: 'public',
    params: [],
    result: worldStateSyncStatus,
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'How far the world-state trees have followed the chain, and the oldest block still queryable.',
  },

  // Membership witnesses
  svc_findLeavesIndexes: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('treeId', merkleTreeId), requiredParam('leafValues', z.array(fr))],
    result: z.array(leafIndexInBlock.nullable()),
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'For each leaf value, its index in the tree and the block that inserted it, or null; in input order.',
  },
  svc_getNullifierMembershipWitness: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('nullifier', fr)],
    result: nullifierMembershipWitness.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Proof that a nullifier is in the nullifier tree at the reference block, null if it is not.',
  },
  svc_getLowNullifierMembershipWitness: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('nullifier', fr)],
    result: nullifierMembershipWitness.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'The leaf just below a nullifier in the sorted nullifier tree, with its path: a proof of absence.',
  },
  svc_getPublicDataWitness: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('leafSlot', fr)],
    result: publicDataWitness.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'The public-data leaf holding a slot, or the low leaf bracketing it when unset (value 0), with its path.',
  },
  svc_getBlockHashMembershipWitness: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('blockHash', blockHash)],
    result: membershipWitness.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "Index and sibling path of a block hash in the reference block's archive tree, null if absent.",
  },
  svc_getNoteHashMembershipWitness: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('noteHash', fr)],
    result: membershipWitness.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Index and sibling path of a note hash in the note-hash tree at the reference block, null if absent.',
  },

  // L1 to L2 and L2 to L1 messages
  svc_getL1ToL2MessageMembershipWitness: {
    namespace: 'public',
    params: [referenceBlock, requiredParam('l1ToL2Message', fr)],
    result: l1ToL2MessageWitness.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'Leaf index and sibling path of an L1-to-L2 message in its tree at the reference block, null if absent.',
  },
  svc_getL1ToL2MessageCheckpoint: {
    namespace: 'public',
    params: [requiredParam('l1ToL2Message', fr)],
    result: checkpointNumber.nullable(),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'The checkpoint from which an L1-to-L2 message can be consumed, null if the node has not seen it.',
  },
  svc_getL2ToL1MembershipWitness: {
    namespace: 'public',
    params: [
      requiredParam('txHash', txHash),
      requiredParam('message', fr),
      optionalParam('messageIndexInTx', messageIndexInTx),
    ],
    result: l2ToL1MembershipWitness.nullable(),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      "Proof of a tx's L2-to-L1 message against the smallest outbox root on L1 covering it; null until one lands.",
  },
  svc_getL2ToL1Messages: {
    namespace: 'public',
    params: [requiredParam('epoch', epochNumber)],
    result: l2ToL1MessagesOfEpoch,
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: true,
    description:
      "An epoch's L2-to-L1 messages nested by checkpoint, block and tx ([] if unknown); superseded by witnesses.",
  },

  // Log queries
  svc_getPrivateLogsByTags: {
    namespace: 'public',
    params: [requiredParam('query', privateLogsQuery)],
    result: logResultsByTag,
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "Private logs matching each tag, one list per tag in query order, optionally with their txs' effects.",
  },
  svc_getPublicLogsByTags: {
    namespace: 'public',
    params: [requiredParam('query', publicLogsQuery)],
    result: logResultsByTag,
    errors: ['INVALID_PARAMS', 'LIMIT_EXCEEDED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "One contract's public logs matching each tag, one list per tag in query order.",
  },

  // Contract queries
  svc_getContractClass: {
    namespace: 'public',
    params: [requiredParam('id', fr)],
    result: contractClassPublic.nullable(),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'A registered contract class by id, null if never registered.',
  },
  svc_getContract: {
    namespace: 'public',
    params: [
      requiredParam('address', aztecAddress),
      optionalParam('referenceBlock', blockParameter.default({ kind: 'tag', tag: 'latest' })),
    ],
    result: contractInstanceWithAddress.nullable(),
    errors: ['INVALID_PARAMS', 'STATE_NOT_AVAILABLE', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "A publicly deployed contract instance with its class as of the reference block (default 'latest').",
  },

  // Fee queries
  svc_getCurrentMinFees: {
    namespace: 'public',
    params: [],
    result: gasFees,
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Minimum fee per unit of DA and L2 gas a tx must offer now.',
  },
  svc_getPredictedMinFees: {
    namespace: 'public',
    params: [optionalParam('manaUsage', manaUsageEstimate.default('target'))],
    result: z.array(gasFees),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      "Current minimum fees, then a forecast per coming slot if checkpoints use 'none', 'target' (default) or 'limit' mana.",
  },
  svc_getMaxPriorityFees: {
    namespace: 'public',
    params: [],
    result: gasFees,
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Highest priority fee offered by a tx now in the pool.',
  },

  // Node information
  svc_isReady: {
    namespace: 'public',
    params: [],
    result: z.boolean(),
    errors: [],
    deprecated: false,
    description: 'Whether the node is synced enough to accept transactions.',
  },
  svc_getNodeInfo: {
    namespace: 'public',
    params: [],
    result: nodeInfo,
    errors: [],
    deprecated: false,
    description: 'Node and contract-language versions, L1 chain id, rollup and protocol versions, L1 contracts.',
  },
  svc_getNodeVersion: {
    namespace: 'public',
    params: [],
    result: z.string(),
    errors: [],
    deprecated: false,
    description: 'Version of the node software package.',
  },
  svc_getVersion: {
    namespace: 'public',
    params: [],
    result: safeUint,
    errors: [],
    deprecated: false,
    description: 'Version of the rollup the node follows.',
  },
  svc_getChainId: {
    namespace: 'public',
    params: [],
    result: safeUint,
    errors: [],
    deprecated: false,
    description: 'Chain id of the base layer (L1).',
  },
  svc_getL1ContractAddresses: {
    namespace: 'public',
    params: [],
    result: l1ContractAddresses,
    errors: [],
    deprecated: false,
    description: 'Addresses of the rollup contracts on L1.',
  },
  svc_getProtocolContractAddresses: {
    namespace: 'public',
    params: [],
    result: protocolContractAddresses,
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Addresses of the protocol contracts on L2 (class and instance registries, fee asset).',
  },
  svc_getEncodedEnr: {
    namespace: 'public',
    params: [],
    result: z.string().nullable(),
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "This node's encoded ENR, for other peers to discover it; null when it has none.",
  },

  // Validator queries
  svc_getValidatorsStats: {
    namespace: 'public',
    params: [],
    result: validatorsStats,
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'Proposal and attestation record of every validator over the recent slot window; validator nodes only.',
  },
  svc_getValidatorStats: {
    namespace: 'public',
    params: [
      requiredParam('validatorAddress', ethAddress),
      optionalParam('fromSlot', slotNumber),
      optionalParam('toSlot', slotNumber),
    ],
    result: singleValidatorStats.nullable(),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "One validator's record and per-slot duties between two slots, null if unknown; validator nodes only.",
  },

  // P2P queries
  svc_getPeers: {
    namespace: 'public',
    params: [optionalParam('includePending', z.boolean().default(false))],
    result: z.array(peerInfo),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Peers the node is connected to, dialing or has cached, plus pending ones on request; needs p2p.',
  },
  svc_getCheckpointAttestationsForSlot: {
    namespace: 'public',
    params: [requiredParam('slot', slotNumber), optionalParam('proposalPayloadHash', bytes32)],
    result: z.array(checkpointAttestation),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Checkpoint attestations pooled for a slot, or only those for one proposal payload hash (keccak256).',
  },
  svc_getProposalsForSlot: {
    namespace: 'public',
    params: [requiredParam('slot', slotNumber)],
    result: proposalsForSlot,
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: 'Block and checkpoint proposals for a slot still held in the attestation pool; needs p2p.',
  },

  // Debug
  svc_getAllowedPublicSetup: {
    namespace: 'public',
    params: [],
    result: z.array(allowedElement),
    errors: ['SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      "The public calls a tx's setup phase may make on this node: the built-in entries plus configured ones.",
  },

  // Admin namespace (admin listener only)
  svcAdmin_getConfig: {
    namespace: 'admin',
    params: [],
    result: jsonObject,
    errors: [],
    deprecated: false,
    description: "The running node's effective configuration, secrets redacted.",
  },
  svcAdmin_setConfig: {
    namespace: 'admin',
    params: [requiredParam('config', jsonObject)],
    result: voidResult,
    errors: ['INVALID_PARAMS', 'OPERATION_REFUSED'],
    deprecated: false,
    description: 'Merges a partial configuration into the running node; unknown keys and bad values are refused whole.',
  },
  svcAdmin_pauseSync: {
    namespace: 'admin',
    params: [],
    result: voidResult,
    errors: [],
    deprecated: false,
    description: 'Stops following L1 (archiver and world state) until resumed; harmless when already paused.',
  },
  svcAdmin_resumeSync: {
    namespace: 'admin',
    params: [],
    result: voidResult,
    errors: [],
    deprecated: false,
    description: 'Starts following L1 again after a pause.',
  },
  svcAdmin_pauseSequencer: {
    namespace: 'admin',
    params: [],
    result: voidResult,
    errors: ['OPERATION_REFUSED'],
    deprecated: false,
    description: 'Stops building blocks while keeping pooled txs; refused when the node runs no sequencer.',
  },
  svcAdmin_resumeSequencer: {
    namespace: 'admin',
    params: [],
    result: voidResult,
    errors: ['OPERATION_REFUSED'],
    deprecated: false,
    description: 'Lets a paused sequencer build blocks again; refused when the node runs no sequencer.',
  },
  svcAdmin_rollbackTo: {
    namespace: 'admin',
    params: [
      requiredParam('targetBlockNumber', blockNumber),
      optionalParam('force', z.boolean().default(false)),
      optionalParam('resumeSync', z.boolean().default(true)),
    ],
    result: voidResult,
    errors: ['INVALID_PARAMS', 'OPERATION_REFUSED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'Pauses sync and unwinds the chain to a block, then resumes unless told not to. Below the finalized block only with force, which also rebuilds the world state and clears the tx pool database.',
  },
  svcAdmin_startSnapshotUpload: {
    namespace: 'admin',
    params: [requiredParam('location', z.string().min(1))],
    result: voidResult,
    errors: ['INVALID_PARAMS', 'OPERATION_REFUSED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'Pauses sync and starts uploading a backup of the archive and world state to a location; returns at once.',
  },
  svcAdmin_getSlashOffenses: {
    namespace: 'admin',
    params: [requiredParam('round', slashRound)],
    result: z.array(offense),
    errors: ['INVALID_PARAMS', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description: "Slashable offenses the node has recorded for a round, the current one, or 'all'.",
  },
  svcAdmin_reloadKeystore: {
    namespace: 'admin',
    params: [],
    result: voidResult,
    errors: ['OPERATION_REFUSED', 'SUBSYSTEM_DISABLED'],
    deprecated: false,
    description:
      'Rereads validator keys, coinbases, fee recipients and publishers from disk; an invalid keystore changes nothing.',
  },
} as const satisfies Record<string, MethodDefinition>;

type RpcMethodTable = typeof rpcMethods;

export type RpcMethodName = keyof RpcMethodTable;

/** Names of the methods one listener serves. */
export type RpcMethodNameIn<Namespace extends RpcNamespace> = {
  [Name in RpcMethodName]: RpcMethodTable[Name]['namespace'] extends Namespace ? Name : never;
}[RpcMethodName];

/** Params as sent on the wire. */
export type RpcWireParams<Name extends RpcMethodName> = WireParamsOf<RpcMethodTable[Name]['params']>;
/** Result as received on the wire. */
export type RpcWireResult<Name extends RpcMethodName> = z.input<RpcMethodTable[Name]['result']>;
/** Params as decoded for the node (bigints, BlockQuery...). */
export type RpcParams<Name extends RpcMethodName> = DecodedParamsOf<RpcMethodTable[Name]['params']>;
/** Result as the node produces it, before encoding. */
export type RpcResult<Name extends RpcMethodName> = z.output<RpcMethodTable[Name]['result']>;

/** Method name to wire params tuple and wire result: the typed client's view of the API. */
export type RpcSchema = {
  readonly [Name in RpcMethodName]: { readonly params: RpcWireParams<Name>; readonly result: RpcWireResult<Name> };
};

export interface NamedMethodDefinition extends MethodDefinition {
  readonly name: RpcMethodName;
}

/** The table as a list, in table order. */
export const rpcMethodList: readonly NamedMethodDefinition[] = (Object.keys(rpcMethods) as RpcMethodName[]).map(
  (name) => ({ name, ...rpcMethods[name] }),
);
