/**
 * The handler registry: one entry per method of spec/rpc/methods.ts, each from its own file under methods/. The
 * mapped type makes a missing or misnamed handler a type error; handlers.test.ts checks the same at run time.
 */
import type { RpcMethodName } from '../../spec/rpc/methods.js';
import type { MethodHandler } from './methodHandler.js';
import { svcAdmin_getConfig } from './methods/svcAdmin_getConfig.js';
import { svcAdmin_getSlashOffenses } from './methods/svcAdmin_getSlashOffenses.js';
import { svcAdmin_pauseSequencer } from './methods/svcAdmin_pauseSequencer.js';
import { svcAdmin_pauseSync } from './methods/svcAdmin_pauseSync.js';
import { svcAdmin_reloadKeystore } from './methods/svcAdmin_reloadKeystore.js';
import { svcAdmin_resumeSequencer } from './methods/svcAdmin_resumeSequencer.js';
import { svcAdmin_resumeSync } from './methods/svcAdmin_resumeSync.js';
import { svcAdmin_rollbackTo } from './methods/svcAdmin_rollbackTo.js';
import { svcAdmin_setConfig } from './methods/svcAdmin_setConfig.js';
import { svcAdmin_startSnapshotUpload } from './methods/svcAdmin_startSnapshotUpload.js';
import { svc_findLeavesIndexes } from './methods/svc_findLeavesIndexes.js';
import { svc_getAllowedPublicSetup } from './methods/svc_getAllowedPublicSetup.js';
import { svc_getBlock } from './methods/svc_getBlock.js';
import { svc_getBlockData } from './methods/svc_getBlockData.js';
import { svc_getBlockHashMembershipWitness } from './methods/svc_getBlockHashMembershipWitness.js';
import { svc_getBlockNumber } from './methods/svc_getBlockNumber.js';
import { svc_getBlocks } from './methods/svc_getBlocks.js';
import { svc_getChainId } from './methods/svc_getChainId.js';
import { svc_getChainTips } from './methods/svc_getChainTips.js';
import { svc_getCheckpoint } from './methods/svc_getCheckpoint.js';
import { svc_getCheckpointAttestationsForSlot } from './methods/svc_getCheckpointAttestationsForSlot.js';
import { svc_getCheckpointNumber } from './methods/svc_getCheckpointNumber.js';
import { svc_getCheckpoints } from './methods/svc_getCheckpoints.js';
import { svc_getCheckpointsData } from './methods/svc_getCheckpointsData.js';
import { svc_getContract } from './methods/svc_getContract.js';
import { svc_getContractClass } from './methods/svc_getContractClass.js';
import { svc_getCurrentMinFees } from './methods/svc_getCurrentMinFees.js';
import { svc_getEncodedEnr } from './methods/svc_getEncodedEnr.js';
import { svc_getL1Constants } from './methods/svc_getL1Constants.js';
import { svc_getL1ContractAddresses } from './methods/svc_getL1ContractAddresses.js';
import { svc_getL1ToL2MessageCheckpoint } from './methods/svc_getL1ToL2MessageCheckpoint.js';
import { svc_getL1ToL2MessageMembershipWitness } from './methods/svc_getL1ToL2MessageMembershipWitness.js';
import { svc_getL2ToL1MembershipWitness } from './methods/svc_getL2ToL1MembershipWitness.js';
import { svc_getL2ToL1Messages } from './methods/svc_getL2ToL1Messages.js';
import { svc_getLowNullifierMembershipWitness } from './methods/svc_getLowNullifierMembershipWitness.js';
import { svc_getMaxPriorityFees } from './methods/svc_getMaxPriorityFees.js';
import { svc_getNodeInfo } from './methods/svc_getNodeInfo.js';
import { svc_getNodeVersion } from './methods/svc_getNodeVersion.js';
import { svc_getNoteHashMembershipWitness } from './methods/svc_getNoteHashMembershipWitness.js';
import { svc_getNullifierMembershipWitness } from './methods/svc_getNullifierMembershipWitness.js';
import { svc_getPeers } from './methods/svc_getPeers.js';
import { svc_getPendingTxCount } from './methods/svc_getPendingTxCount.js';
import { svc_getPendingTxs } from './methods/svc_getPendingTxs.js';
import { svc_getPredictedMinFees } from './methods/svc_getPredictedMinFees.js';
import { svc_getPrivateLogsByTags } from './methods/svc_getPrivateLogsByTags.js';
import { svc_getProposalsForSlot } from './methods/svc_getProposalsForSlot.js';
import { svc_getProtocolContractAddresses } from './methods/svc_getProtocolContractAddresses.js';
import { svc_getPublicDataWitness } from './methods/svc_getPublicDataWitness.js';
import { svc_getPublicLogsByTags } from './methods/svc_getPublicLogsByTags.js';
import { svc_getPublicStorageAt } from './methods/svc_getPublicStorageAt.js';
import { svc_getSyncedL1Timestamp } from './methods/svc_getSyncedL1Timestamp.js';
import { svc_getSyncedL2EpochNumber } from './methods/svc_getSyncedL2EpochNumber.js';
import { svc_getSyncedL2SlotNumber } from './methods/svc_getSyncedL2SlotNumber.js';
import { svc_getTxByHash } from './methods/svc_getTxByHash.js';
import { svc_getTxEffect } from './methods/svc_getTxEffect.js';
import { svc_getTxReceipt } from './methods/svc_getTxReceipt.js';
import { svc_getTxsByHash } from './methods/svc_getTxsByHash.js';
import { svc_getValidatorStats } from './methods/svc_getValidatorStats.js';
import { svc_getValidatorsStats } from './methods/svc_getValidatorsStats.js';
import { svc_getVersion } from './methods/svc_getVersion.js';
import { svc_getWorldStateSyncStatus } from './methods/svc_getWorldStateSyncStatus.js';
import { svc_isReady } from './methods/svc_isReady.js';
import { svc_isValidTx } from './methods/svc_isValidTx.js';
import { svc_sendTx } from './methods/svc_sendTx.js';
import { svc_simulatePublicCalls } from './methods/svc_simulatePublicCalls.js';

export type RpcHandlers = { readonly [Name in RpcMethodName]: MethodHandler<Name> };

/** In table order. */
export const rpcHandlers: RpcHandlers = {
  svc_getBlockNumber,
  svc_getCheckpointNumber,
  svc_getChainTips,
  svc_getBlock,
  svc_getBlockData,
  svc_getL1Constants,
  svc_getSyncedL2SlotNumber,
  svc_getSyncedL2EpochNumber,
  svc_getSyncedL1Timestamp,
  svc_getBlocks,
  svc_getCheckpoint,
  svc_getCheckpoints,
  svc_getCheckpointsData,
  svc_sendTx,
  svc_getTxReceipt,
  svc_getTxEffect,
  svc_getTxByHash,
  svc_getTxsByHash,
  svc_getPendingTxs,
  svc_getPendingTxCount,
  svc_isValidTx,
  svc_simulatePublicCalls,
  svc_getPublicStorageAt,
  svc_getWorldStateSyncStatus,
  svc_findLeavesIndexes,
  svc_getNullifierMembershipWitness,
  svc_getLowNullifierMembershipWitness,
  svc_getPublicDataWitness,
  svc_getBlockHashMembershipWitness,
  svc_getNoteHashMembershipWitness,
  svc_getL1ToL2MessageMembershipWitness,
  svc_getL1ToL2MessageCheckpoint,
  svc_getL2ToL1MembershipWitness,
  svc_getL2ToL1Messages,
  svc_getPrivateLogsByTags,
  svc_getPublicLogsByTags,
  svc_getContractClass,
  svc_getContract,
  svc_getCurrentMinFees,
  svc_getPredictedMinFees,
  svc_getMaxPriorityFees,
  svc_isReady,
  svc_getNodeInfo,
  svc_getNodeVersion,
  svc_getVersion,
  svc_getChainId,
  svc_getL1ContractAddresses,
  svc_getProtocolContractAddresses,
  svc_getEncodedEnr,
  svc_getValidatorsStats,
  svc_getValidatorStats,
  svc_getPeers,
  svc_getCheckpointAttestationsForSlot,
  svc_getProposalsForSlot,
  svc_getAllowedPublicSetup,
  svcAdmin_getConfig,
  svcAdmin_setConfig,
  svcAdmin_pauseSync,
  svcAdmin_resumeSync,
  svcAdmin_pauseSequencer,
  svcAdmin_resumeSequencer,
  svcAdmin_rollbackTo,
  svcAdmin_startSnapshotUpload,
  svcAdmin_getSlashOffenses,
  svcAdmin_reloadKeystore,
};
