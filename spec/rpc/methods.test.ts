import { describe, expect, expectTypeOf, test } from 'vitest';
import type { BlockTipName, Hex } from '../chain.js';
import type { BlockQueryValue } from '../wire/blockParameter.js';
import type { CheckpointQueryValue } from '../wire/checkpoint.js';
import { RpcErrorCode } from './errorCodes.js';
import { NAMESPACE_PREFIX } from './methodDefinition.js';
import {
  rpcMethodList,
  rpcMethods,
  type RpcMethodNameIn,
  type RpcParams,
  type RpcResult,
  type RpcWireParams,
  type RpcWireResult,
} from './methods.js';

/**
 * The spec's Endpoints tables: every method with its positional params in order, `?` marking optional ones. The
 * table must serve exactly these, nothing more.
 */
const SPEC_SIGNATURES: Record<string, readonly string[]> = {
  svc_getBlockNumber: ['tip?'],
  svc_getCheckpointNumber: ['tip?'],
  svc_getChainTips: [],
  svc_getL1Constants: [],
  svc_getSyncedL2SlotNumber: [],
  svc_getSyncedL2EpochNumber: [],
  svc_getSyncedL1Timestamp: [],
  svc_getBlock: ['param', 'options?'],
  svc_getBlockData: ['param'],
  svc_getBlocks: ['from', 'limit', 'options?'],
  svc_getCheckpoint: ['param', 'options?'],
  svc_getCheckpoints: ['from', 'limit', 'options?'],
  svc_getCheckpointsData: ['query'],
  svc_sendTx: ['tx'],
  svc_getTxReceipt: ['txHash', 'options?'],
  svc_getTxEffect: ['txHash'],
  svc_getTxByHash: ['txHash', 'options?'],
  svc_getTxsByHash: ['txHashes', 'options?'],
  svc_getPendingTxs: ['limit?', 'after?', 'options?'],
  svc_getPendingTxCount: [],
  svc_isValidTx: ['tx', 'options?'],
  svc_simulatePublicCalls: ['tx', 'skipFeeEnforcement?', 'overrides?'],
  svc_getPublicStorageAt: ['referenceBlock', 'contract', 'slot'],
  svc_getWorldStateSyncStatus: [],
  svc_findLeavesIndexes: ['referenceBlock', 'treeId', 'leafValues'],
  svc_getNullifierMembershipWitness: ['referenceBlock', 'nullifier'],
  svc_getLowNullifierMembershipWitness: ['referenceBlock', 'nullifier'],
  svc_getPublicDataWitness: ['referenceBlock', 'leafSlot'],
  svc_getBlockHashMembershipWitness: ['referenceBlock', 'blockHash'],
  svc_getNoteHashMembershipWitness: ['referenceBlock', 'noteHash'],
  svc_getL1ToL2MessageMembershipWitness: ['referenceBlock', 'l1ToL2Message'],
  svc_getL1ToL2MessageCheckpoint: ['l1ToL2Message'],
  svc_getL2ToL1MembershipWitness: ['txHash', 'message', 'messageIndexInTx?'],
  svc_getL2ToL1Messages: ['epoch'],
  svc_getPrivateLogsByTags: ['query'],
  svc_getPublicLogsByTags: ['query'],
  svc_getContractClass: ['id'],
  svc_getContract: ['address', 'referenceBlock?'],
  svc_getCurrentMinFees: [],
  svc_getPredictedMinFees: ['manaUsage?'],
  svc_getMaxPriorityFees: [],
  svc_isReady: [],
  svc_getNodeInfo: [],
  svc_getNodeVersion: [],
  svc_getVersion: [],
  svc_getChainId: [],
  svc_getL1ContractAddresses: [],
  svc_getProtocolContractAddresses: [],
  svc_getEncodedEnr: [],
  svc_getValidatorsStats: [],
  svc_getValidatorStats: ['validatorAddress', 'fromSlot?', 'toSlot?'],
  svc_getPeers: ['includePending?'],
  svc_getCheckpointAttestationsForSlot: ['slot', 'proposalPayloadHash?'],
  svc_getProposalsForSlot: ['slot'],
  svc_getAllowedPublicSetup: [],
  svcAdmin_getConfig: [],
  svcAdmin_setConfig: ['config'],
  svcAdmin_pauseSync: [],
  svcAdmin_resumeSync: [],
  svcAdmin_pauseSequencer: [],
  svcAdmin_resumeSequencer: [],
  svcAdmin_rollbackTo: ['targetBlockNumber', 'force?', 'resumeSync?'],
  svcAdmin_startSnapshotUpload: ['location'],
  svcAdmin_getSlashOffenses: ['round'],
  svcAdmin_reloadKeystore: [],
};

describe('the method table', () => {
  test("serves exactly the spec's 55 public and 10 admin methods, with the spec's positional params", () => {
    expect(rpcMethodList.filter((method) => method.namespace === 'public')).toHaveLength(55);
    expect(rpcMethodList.filter((method) => method.namespace === 'admin')).toHaveLength(10);
    expect(Object.keys(rpcMethods).sort()).toEqual(Object.keys(SPEC_SIGNATURES).sort());
    for (const method of rpcMethodList) {
      const signature = method.params.map((param) => `${param.name}${param.optional ? '?' : ''}`);
      expect({ method: method.name, signature }).toEqual({
        method: method.name,
        signature: SPEC_SIGNATURES[method.name],
      });
    }
  });

  test('deprecates exactly svc_getTxEffect and svc_getL2ToL1Messages', () => {
    expect(
      rpcMethodList
        .filter((method) => method.deprecated)
        .map((method) => method.name)
        .sort(),
    ).toEqual(['svc_getL2ToL1Messages', 'svc_getTxEffect']);
  });

  test('defaults of optional params: manaUsage target, includePending/force/skipFeeEnforcement false, resumeSync true', () => {
    const defaultOf = (name: keyof typeof rpcMethods, position: number): unknown =>
      rpcMethods[name].params[position]?.schema.parse(undefined);
    expect(defaultOf('svc_getPredictedMinFees', 0)).toBe('target');
    expect(defaultOf('svc_getPeers', 0)).toBe(false);
    expect(defaultOf('svc_simulatePublicCalls', 1)).toBe(false);
    expect(defaultOf('svcAdmin_rollbackTo', 1)).toBe(false);
    expect(defaultOf('svcAdmin_rollbackTo', 2)).toBe(true);
    expect(defaultOf('svc_getContract', 1)).toEqual({ kind: 'tag', tag: 'latest' });
  });

  test('lists every method once, in table order', () => {
    expect(rpcMethodList.map((method) => method.name)).toEqual(Object.keys(rpcMethods));
  });

  test.each(rpcMethodList)('$name is well formed', (method) => {
    expect(method.name.startsWith(NAMESPACE_PREFIX[method.namespace])).toBe(true);
    expect(method.name).toMatch(/^(svc|svcAdmin)_[a-zA-Z0-9]+$/);
    const firstOptional = method.params.findIndex((param) => param.optional);
    if (firstOptional >= 0) expect(method.params.slice(firstOptional).every((param) => param.optional)).toBe(true);
    expect(new Set(method.params.map((param) => param.name)).size).toBe(method.params.length);
    expect(method.description.length).toBeGreaterThan(10);
    expect(method.description).not.toMatch(/\n/);
    for (const error of method.errors) expect(Object.keys(RpcErrorCode)).toContain(error);
    if (method.params.length > 0) expect(method.errors).toContain('INVALID_PARAMS');
  });

  test('the typed client view derives from the table', () => {
    expectTypeOf<RpcWireParams<'svc_getBlockNumber'>>().toEqualTypeOf<[(BlockTipName | null)?]>();
    expectTypeOf<RpcParams<'svc_getBlockNumber'>>().toEqualTypeOf<[BlockTipName?]>();
    expectTypeOf<RpcParams<'svc_getBlock'>[0]>().toEqualTypeOf<BlockQueryValue>();
    expectTypeOf<RpcWireParams<'svc_getChainTips'>>().toEqualTypeOf<[]>();
    expectTypeOf<RpcWireResult<'svc_getL1Constants'>['l1StartBlock']>().toEqualTypeOf<string | number>();
    expectTypeOf<RpcResult<'svc_getL1Constants'>['l1StartBlock']>().toEqualTypeOf<bigint>();
    expectTypeOf<null>().toExtend<RpcResult<'svc_getBlockData'>>();
    expectTypeOf<null>().not.toExtend<RpcResult<'svc_getChainTips'>>();
    expectTypeOf<RpcResult<'svc_getChainTips'>['proposed']['hash']>().toEqualTypeOf<Hex>();
    expectTypeOf<'svcAdmin_pauseSync'>().toExtend<RpcMethodNameIn<'admin'>>();
    expectTypeOf<'svc_getChainId'>().not.toExtend<RpcMethodNameIn<'admin'>>();
    expectTypeOf<RpcParams<'svc_getCheckpoint'>[0]>().toEqualTypeOf<CheckpointQueryValue>();
    expectTypeOf<RpcResult<'svcAdmin_pauseSync'>>().toEqualTypeOf<null>();
    expectTypeOf<RpcWireResult<'svc_getSyncedL1Timestamp'>>().toEqualTypeOf<string | number | null>();
  });
});
