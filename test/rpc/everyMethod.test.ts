/**
 * Every method of the table, over the real HTTP listeners with the fake node: methods the node answers today return
 * a result their result codec accepts; methods whose subsystem this node version lacks answer -32004 naming it; and
 * each method exists on its own listener only (-32601 on the other).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SUBSYSTEM_NAMES, type Subsystem } from '../../core/errors.js';
import type { RpcNamespace } from '../../spec/rpc/methodDefinition.js';
import { rpcMethodList, rpcMethods, type RpcMethodName } from '../../spec/rpc/methods.js';
import { blockHashOf, hex32, knownLeaf } from './fakeNode.js';
import { rpc, startTestServers, TEST_ADMIN_KEY, type TestServers } from './harness.js';
import {
  checkpointOneHash,
  sampleAztecAddress,
  sampleEthAddress,
  sampleFr,
  sampleTx,
  sampleTxHash,
} from './wireSamples.js';

/** A well-formed call: answered from the node, or refused because a subsystem is not built yet. */
type Sample =
  | { readonly params: readonly unknown[]; readonly answered: true }
  | { readonly params: readonly unknown[]; readonly missing: Subsystem | 'archiver rollback' }
  /** Built, but not running on the fake node (it follows no validator set). */
  | { readonly params: readonly unknown[]; readonly disabled: Subsystem };

const answered = (...params: unknown[]): Sample => ({ params, answered: true });
const missing =
  (subsystem: Subsystem | 'archiver rollback') =>
  (...params: unknown[]): Sample => ({ params, missing: subsystem });
const disabled =
  (subsystem: Subsystem) =>
  (...params: unknown[]): Sample => ({ params, disabled: subsystem });

const samples: Record<RpcMethodName, Sample> = {
  svc_getBlockNumber: answered('checkpointed'),
  svc_getCheckpointNumber: answered('proven'),
  svc_getChainTips: answered(),
  svc_getL1Constants: answered(),
  svc_getSyncedL2SlotNumber: answered(),
  svc_getSyncedL2EpochNumber: answered(),
  svc_getSyncedL1Timestamp: answered(),
  svc_getBlock: answered(1, { includeTransactions: true }),
  svc_getBlockData: answered('latest'),
  svc_getBlocks: answered(0, 10, { includeL1PublishInfo: true }),
  svc_getCheckpoint: answered({ hash: checkpointOneHash }, { includeBlocks: true }),
  svc_getCheckpoints: answered(1, 5),
  svc_getCheckpointsData: answered({ epoch: 0 }),
  svc_sendTx: missing('txPool')(sampleTx),
  svc_getTxReceipt: missing('txPool')(sampleTxHash, { includeTxEffect: true }),
  svc_getTxEffect: missing('txPool')(sampleTxHash),
  svc_getTxByHash: missing('txPool')(sampleTxHash, { includeProof: true }),
  svc_getTxsByHash: missing('txPool')([sampleTxHash, hex32(2)]),
  svc_getPendingTxs: missing('txPool')(10, sampleTxHash),
  svc_getPendingTxCount: missing('txPool')(),
  svc_isValidTx: missing('publicExecution')(sampleTx, { isSimulation: true }),
  svc_simulatePublicCalls: missing('publicExecution')(sampleTx, true, {
    publicStorage: [{ contractAddress: sampleAztecAddress, slot: hex32(1), value: hex32(2) }],
  }),
  svc_getPublicStorageAt: answered('latest', sampleAztecAddress, sampleFr),
  svc_getWorldStateSyncStatus: answered(),
  svc_findLeavesIndexes: answered(2, 1, [sampleFr, knownLeaf]),
  svc_getNullifierMembershipWitness: answered(blockHashOf(1), knownLeaf),
  svc_getLowNullifierMembershipWitness: answered({ number: 1 }, sampleFr),
  svc_getPublicDataWitness: answered('finalized', sampleFr),
  svc_getBlockHashMembershipWitness: answered('latest', blockHashOf(1)),
  svc_getNoteHashMembershipWitness: answered(3, knownLeaf),
  svc_getL1ToL2MessageMembershipWitness: answered('latest', knownLeaf),
  svc_getL1ToL2MessageCheckpoint: answered(sampleFr),
  svc_getL2ToL1MembershipWitness: answered(sampleTxHash, knownLeaf, { index: 0 }),
  svc_getL2ToL1Messages: answered(0),
  svc_getPrivateLogsByTags: answered({ tags: [sampleFr], includeEffects: true }),
  svc_getPublicLogsByTags: answered({ contractAddress: sampleAztecAddress, tags: [sampleFr] }),
  svc_getContractClass: answered(sampleFr),
  svc_getContract: answered(sampleAztecAddress),
  svc_getCurrentMinFees: answered(),
  svc_getPredictedMinFees: answered('limit'),
  svc_getMaxPriorityFees: missing('txPool')(),
  svc_isReady: answered(),
  svc_getNodeInfo: answered(),
  svc_getNodeVersion: answered(),
  svc_getVersion: answered(),
  svc_getChainId: answered(),
  svc_getL1ContractAddresses: answered(),
  svc_getProtocolContractAddresses: answered(),
  svc_getEncodedEnr: disabled('p2p')(),
  svc_getValidatorsStats: disabled('validator')(),
  svc_getValidatorStats: disabled('validator')(sampleEthAddress, '10', 20),
  svc_getPeers: disabled('p2p')(true),
  svc_getCheckpointAttestationsForSlot: disabled('p2p')('11', hex32(0xabc)),
  svc_getProposalsForSlot: disabled('p2p')('11'),
  svc_getAllowedPublicSetup: answered(),
  svcAdmin_getConfig: answered(),
  svcAdmin_setConfig: answered({ archiverPollIntervalMs: 2_000 }),
  svcAdmin_pauseSync: answered(),
  svcAdmin_resumeSync: answered(),
  svcAdmin_pauseSequencer: answered(),
  svcAdmin_resumeSequencer: answered(),
  svcAdmin_rollbackTo: answered(1, false, true),
  svcAdmin_startSnapshotUpload: answered('/tmp/snapshots'),
  svcAdmin_getSlashOffenses: disabled('slashing')('current'),
  svcAdmin_reloadKeystore: disabled('keystore')(),
};

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const adminHeaders = { 'x-api-key': TEST_ADMIN_KEY };
const call = (namespace: RpcNamespace, method: string, params: readonly unknown[]) =>
  namespace === 'admin' ? rpc(servers.adminUrl, method, params, adminHeaders) : rpc(servers.publicUrl, method, params);
const other = (namespace: RpcNamespace): RpcNamespace => (namespace === 'admin' ? 'public' : 'admin');

describe('every method over HTTP', () => {
  test.each(rpcMethodList)('$name answers on its own listener', async ({ name, namespace }) => {
    const sample = samples[name];
    const reply = await call(namespace, name, sample.params);
    if ('answered' in sample) {
      expect(reply.error).toBeUndefined();
      expect(Object.hasOwn(reply, 'result')).toBe(true);
      const decoded = rpcMethods[name].result.safeParse(reply.result);
      expect(decoded.error).toBeUndefined();
    } else if ('disabled' in sample) {
      expect(reply.error).toEqual({
        code: -32004,
        message: `the ${SUBSYSTEM_NAMES[sample.disabled]} is not enabled on this node`,
        data: { code: 'SUBSYSTEM_DISABLED', subsystem: sample.disabled, reason: 'notEnabled' },
      });
    } else {
      const subsystemName =
        sample.missing === 'archiver rollback' ? 'archiver rollback' : SUBSYSTEM_NAMES[sample.missing];
      expect(reply.error).toEqual({
        code: -32004,
        message: `the ${subsystemName} is not part of this node version yet`,
        data: { code: 'SUBSYSTEM_DISABLED', subsystem: sample.missing, reason: 'notBuilt' },
      });
    }
  });

  test.each(rpcMethodList)('$name is -32601 on the other listener', async ({ name, namespace }) => {
    const reply = await call(other(namespace), name, samples[name].params);
    expect(reply.error).toEqual({ code: -32601, message: `Method not found: ${name}` });
  });
});
