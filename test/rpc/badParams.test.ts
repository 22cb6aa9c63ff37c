/**
 * Malformed params, one case (at least) per wire type family: each is -32602 whose message names the parameter by
 * position and name, with `error.data = { position, name, issues }`, and the node is never called.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FR_MODULUS } from '../../spec/constants.js';
import { hex32 } from './fakeNode.js';
import { rpc, startTestServers, TEST_ADMIN_KEY, type TestServers } from './harness.js';
import { sampleAztecAddress, sampleEthAddress, sampleFr, sampleTx, sampleTxHash } from './wireSamples.js';

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const frAtModulus = `0x${FR_MODULUS.toString(16).padStart(64, '0')}`;
const hash31 = `0x${'ab'.repeat(31)}`;

interface BadCall {
  readonly family: string;
  readonly method: string;
  readonly params: readonly unknown[];
  readonly position: number;
  readonly name: string;
  /** What the message must say about the value. */
  readonly says: RegExp;
}

const cases: readonly BadCall[] = [
  {
    family: 'Fr at the modulus',
    method: 'svc_getContractClass',
    params: [frAtModulus],
    position: 0,
    name: 'id',
    says: /below the BN254 scalar field modulus/,
  },
  {
    family: 'Fr in a list',
    method: 'svc_findLeavesIndexes',
    params: ['latest', 1, [sampleFr, frAtModulus]],
    position: 2,
    name: 'leafValues',
    says: /at \[1\]: .*modulus/,
  },
  {
    family: 'AztecAddress',
    method: 'svc_getPublicStorageAt',
    params: ['latest', frAtModulus, sampleFr],
    position: 1,
    name: 'contract',
    says: /AztecAddress.*modulus/,
  },
  {
    family: 'EthAddress of 32 bytes',
    method: 'svc_getValidatorStats',
    params: [hex32(1)],
    position: 0,
    name: 'validatorAddress',
    says: /EthAddress.*got 32 bytes/,
  },
  {
    family: 'TxHash of 31 bytes',
    method: 'svc_getTxReceipt',
    params: [hash31],
    position: 0,
    name: 'txHash',
    says: /tx hash.*got 31 bytes/,
  },
  {
    family: 'TxHash list',
    method: 'svc_getTxsByHash',
    params: [[sampleTxHash, '0x12']],
    position: 0,
    name: 'txHashes',
    says: /at \[1\]: .*got 1 byte/,
  },
  {
    family: 'BlockHash',
    method: 'svc_getBlockHashMembershipWitness',
    params: ['latest', 'latest'],
    position: 1,
    name: 'blockHash',
    says: /block hash/,
  },
  {
    family: 'block parameter',
    method: 'svc_getNoteHashMembershipWitness',
    params: ['pending', sampleFr],
    position: 0,
    name: 'referenceBlock',
    says: /expected a block number/,
  },
  {
    family: 'bigint, not decimal',
    method: 'svcAdmin_getSlashOffenses',
    params: ['0x10'],
    position: 0,
    name: 'round',
    says: /'all', 'current' or a round number/,
  },
  {
    family: 'bigint in a tx',
    method: 'svc_sendTx',
    params: [{ ...sampleTx, expirationTimestamp: '1.5' }],
    position: 0,
    name: 'tx',
    says: /at \.expirationTimestamp: .*decimal digits/,
  },
  {
    family: 'SlotNumber',
    method: 'svc_getProposalsForSlot',
    params: ['12a'],
    position: 0,
    name: 'slot',
    says: /decimal digits/,
  },
  {
    family: 'SlotNumber, optional',
    method: 'svc_getValidatorStats',
    params: [sampleEthAddress, '1', -4],
    position: 2,
    name: 'toSlot',
    says: /non-negative safe integer/,
  },
  {
    family: 'number',
    method: 'svc_getBlocks',
    params: [0, -1],
    position: 1,
    name: 'limit',
    says: /non-negative safe integer/,
  },
  {
    family: 'number, epoch',
    method: 'svc_getL2ToL1Messages',
    params: ['3'],
    position: 0,
    name: 'epoch',
    says: /non-negative safe integer/,
  },
  {
    family: 'number, required',
    method: 'svc_getCheckpoints',
    params: [1],
    position: 1,
    name: 'limit',
    says: /is required/,
  },
  {
    family: 'boolean',
    method: 'svc_getPeers',
    params: ['yes'],
    position: 0,
    name: 'includePending',
    says: /expected boolean/,
  },
  {
    family: 'string',
    method: 'svcAdmin_startSnapshotUpload',
    params: [''],
    position: 0,
    name: 'location',
    says: /1 character/,
  },
  {
    family: 'hex string',
    method: 'svc_getCheckpointAttestationsForSlot',
    params: ['11', 'keccak'],
    position: 1,
    name: 'proposalPayloadHash',
    says: /32-byte hash/,
  },
  {
    family: 'MerkleTreeId',
    method: 'svc_findLeavesIndexes',
    params: ['latest', 5, [sampleFr]],
    position: 1,
    name: 'treeId',
    says: /expected a tree id/,
  },
  {
    family: 'ManaUsageEstimate',
    method: 'svc_getPredictedMinFees',
    params: ['max'],
    position: 0,
    name: 'manaUsage',
    says: /'none', 'target', 'limit'/,
  },
  {
    family: 'CheckpointTag',
    method: 'svc_getCheckpointNumber',
    params: ['proposed'],
    position: 0,
    name: 'tip',
    says: /'proposed' is not a valid checkpoint tag/,
  },
  {
    family: 'CheckpointParameter tag',
    method: 'svc_getCheckpoint',
    params: [{ tag: 'proposed' }],
    position: 0,
    name: 'param',
    says: /'proposed' is not a valid checkpoint tag/,
  },
  {
    family: 'CheckpointParameter object',
    method: 'svc_getCheckpoint',
    params: [{ number: 1, hash: hex32(1) }],
    position: 0,
    name: 'param',
    says: /exactly one of number, hash, tag/,
  },
  {
    family: 'CheckpointsQuery',
    method: 'svc_getCheckpointsData',
    params: [{ from: 1 }],
    position: 0,
    name: 'query',
    says: /either \{from, limit\} or \{epoch\}/,
  },
  {
    family: 'CheckpointIncludeOptions',
    method: 'svc_getCheckpoints',
    params: [1, 2, { includeBodies: true }],
    position: 2,
    name: 'options',
    says: /includeBodies/,
  },
  {
    family: 'BlocksIncludeOptions',
    method: 'svc_getBlocks',
    params: [1, 2, { includeTransactions: 1 }],
    position: 2,
    name: 'options',
    says: /at \.includeTransactions: .*expected boolean/,
  },
  {
    family: 'GetTxReceiptOptions',
    method: 'svc_getTxReceipt',
    params: [sampleTxHash, { includeEffect: true }],
    position: 1,
    name: 'options',
    says: /includeEffect/,
  },
  {
    family: 'GetTxByHashOptions',
    method: 'svc_getPendingTxs',
    params: [1, sampleTxHash, { includeProof: 'no' }],
    position: 2,
    name: 'options',
    says: /expected boolean/,
  },
  {
    family: 'isValidTx options',
    method: 'svc_isValidTx',
    params: [sampleTx, { strict: true }],
    position: 1,
    name: 'options',
    says: /strict/,
  },
  {
    family: 'Tx without a nullifier',
    method: 'svc_isValidTx',
    params: [{ ...sampleTx, sideEffects: { ...sampleTx.sideEffects, nullifiers: [] } }],
    position: 0,
    name: 'tx',
    says: /at least one nullifier/,
  },
  {
    family: 'Tx, missing field',
    method: 'svc_sendTx',
    params: [{ ...sampleTx, proof: undefined }],
    position: 0,
    name: 'tx',
    says: /at \.proof/,
  },
  {
    family: 'SimulationOverrides',
    method: 'svc_simulatePublicCalls',
    params: [sampleTx, false, { publicStorage: [{ contractAddress: sampleAztecAddress, slot: sampleFr }] }],
    position: 2,
    name: 'overrides',
    says: /at \.publicStorage\[0\]\.value/,
  },
  {
    family: 'PrivateLogsQuery',
    method: 'svc_getPrivateLogsByTags',
    params: [{ tags: sampleFr }],
    position: 0,
    name: 'query',
    says: /at \.tags: .*expected array/,
  },
  {
    family: 'PublicLogsQuery',
    method: 'svc_getPublicLogsByTags',
    params: [{ tags: [sampleFr] }],
    position: 0,
    name: 'query',
    says: /at \.contractAddress/,
  },
  {
    family: 'messageIndexInTx',
    method: 'svc_getL2ToL1MembershipWitness',
    params: [sampleTxHash, sampleFr, 2],
    position: 2,
    name: 'messageIndexInTx',
    says: /expected object/,
  },
  {
    family: 'round',
    method: 'svcAdmin_getSlashOffenses',
    params: ['latest'],
    position: 0,
    name: 'round',
    says: /'all', 'current' or a round number/,
  },
  {
    family: 'JSON object',
    method: 'svcAdmin_setConfig',
    params: [[1]],
    position: 0,
    name: 'config',
    says: /expected a JSON object/,
  },
];

describe('bad params are -32602 naming position and name', () => {
  test.each(cases)('$family ($method)', async ({ method, params, position, name, says }) => {
    const before = servers.node.calls.length;
    const url = method.startsWith('svcAdmin_') ? servers.adminUrl : servers.publicUrl;
    const reply = await rpc(url, method, params, { 'x-api-key': TEST_ADMIN_KEY });
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toContain(`Invalid params: params[${position}] (${name})`);
    expect(reply.error?.message).toMatch(says);
    expect(reply.error?.data).toMatchObject({ position, name });
    expect(servers.node.calls.length).toBe(before);
  });

  test('too many params names the count', async () => {
    const reply = await rpc(servers.publicUrl, 'svc_getL1ToL2MessageCheckpoint', [sampleFr, 1]);
    expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(/at most 1 params, got 2/) });
  });
});
