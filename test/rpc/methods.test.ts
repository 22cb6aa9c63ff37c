/** Each public method over HTTP: its happy path against the fake node, and its bad params (-32602). */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcClient, RpcClientError, type RpcClient } from '../../adapters/rpc/jsonRpcClient.js';
import { FR_MODULUS } from '../../spec/constants.js';
import { checkpointProposalPayloadHash, checkpointProposalPayloadOf } from '../../spec/validators/signingPayloads.js';
import {
  archiveRootOf,
  blockHashOf,
  blockOneTxEffectWire,
  CHECKPOINT_ONE_ATTESTERS,
  checkpointOne,
  hex32,
  l1Constants,
  nodeInfo,
  INBOX_ADDRESS,
  OUTBOX_ADDRESS,
  ROLLUP_ADDRESS,
  tips,
} from './fakeNode.js';
import { rpc, startTestServers, type TestServers } from './harness.js';

let servers: TestServers;
let client: RpcClient;
beforeAll(async () => {
  servers = await startTestServers();
  client = createRpcClient({ url: servers.publicUrl });
});
afterAll(async () => {
  await servers.close();
});

const result = async (method: string, params?: unknown) => {
  const reply = await rpc(servers.publicUrl, method, params);
  expect(reply.error).toBeUndefined();
  expect(Object.hasOwn(reply, 'result')).toBe(true);
  return reply.result;
};

/** The -32602 error of a call; its message must name the parameter by position and name. */
const invalidParams = async (method: string, params: unknown, position: number, name: string) => {
  const reply = await rpc(servers.publicUrl, method, params);
  expect(reply.error?.code).toBe(-32602);
  expect(reply.error?.message).toContain(`params[${position}] (${name})`);
  expect(reply.error?.data).toMatchObject({ position, name });
  return reply.error!.message;
};

const tooManyParams = async (method: string, count: number) => {
  const reply = await rpc(
    servers.publicUrl,
    method,
    Array.from({ length: count + 1 }, () => 1),
  );
  expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(`at most ${count} params`) });
};

const frAtModulus = `0x${FR_MODULUS.toString(16).padStart(64, '0')}`;

describe('svc_getBlockNumber', () => {
  test('without a tip: the proposed tip; with one: that tip', async () => {
    expect(await result('svc_getBlockNumber')).toBe(3);
    expect(await result('svc_getBlockNumber', [])).toBe(3);
    expect(await result('svc_getBlockNumber', [null])).toBe(3);
    expect(await result('svc_getBlockNumber', ['checkpointed'])).toBe(2);
    expect(await result('svc_getBlockNumber', ['finalized'])).toBe(0);
    expect(servers.node.calls.filter((c) => c.method === 'getBlockNumber').map((c) => c.args[0])).toContain(
      'checkpointed',
    );
  });

  test('bad params', async () => {
    expect(await invalidParams('svc_getBlockNumber', ['latest'], 0, 'tip')).toMatch(/'latest' is not accepted/);
    expect(await invalidParams('svc_getBlockNumber', [3], 0, 'tip')).toMatch(/expected one of/);
    await tooManyParams('svc_getBlockNumber', 1);
  });
});

describe('svc_getCheckpointNumber', () => {
  test('without a tip: the checkpointed tip; with one: that tip', async () => {
    expect(await result('svc_getCheckpointNumber')).toBe(1);
    expect(await result('svc_getCheckpointNumber', ['proven'])).toBe(0);
  });

  test("'proposed' is -32602", async () => {
    expect(await invalidParams('svc_getCheckpointNumber', ['proposed'], 0, 'tip')).toMatch(
      /'proposed' is not a valid checkpoint tag/,
    );
    await invalidParams('svc_getCheckpointNumber', ['latest'], 0, 'tip');
  });
});

describe('svc_getChainTips', () => {
  test('the 4.0.0 L2Tips shape', async () => {
    expect(await result('svc_getChainTips')).toEqual({
      proposed: { number: 3, hash: blockHashOf(3) },
      checkpointed: { block: { number: 2, hash: blockHashOf(2) }, checkpoint: { number: 1, hash: checkpointOne.hash } },
      proven: { block: { number: 0, hash: blockHashOf(0) }, checkpoint: { number: 0, hash: hex32(0) } },
      finalized: { block: { number: 0, hash: blockHashOf(0) }, checkpoint: { number: 0, hash: hex32(0) } },
    });
    expect(await client.request('svc_getChainTips')).toEqual(tips);
  });

  test('bad params', async () => {
    await tooManyParams('svc_getChainTips', 0);
  });
});

/**
 * Checkpoint 1's attestations as the wire shows them: one CheckpointAttestation per signer in committee order, each
 * naming the proposal payload hash of checkpoint 1 on the fake node's chain (chain id 31337, rollup version 1).
 */
const checkpointOneAttestationsWire = () => {
  const proposalPayloadHash = checkpointProposalPayloadHash(
    checkpointProposalPayloadOf({ l1ChainId: 31337, rollupVersion: 1 }, checkpointOne),
  );
  return CHECKPOINT_ONE_ATTESTERS.map((attester, seat) => ({
    slot: '11',
    checkpointNumber: 1,
    archiveRoot: archiveRootOf(2),
    proposalPayloadHash,
    attester,
    signature: checkpointOne.attestations[seat]!.signature,
  }));
};

describe('svc_getBlock', () => {
  const blockKeys = ['number', 'hash', 'archive', 'checkpointNumber', 'header', 'indexWithinCheckpoint'];

  test('by number, without options: BlockData fields and indexWithinCheckpoint only; bigints and the slot as decimal strings', async () => {
    const block = (await result('svc_getBlock', [2])) as Record<string, unknown>;
    expect(Object.keys(block)).toEqual(blockKeys);
    expect(block).toMatchObject({
      number: 2,
      hash: blockHashOf(2),
      archive: { root: archiveRootOf(2), nextAvailableLeafIndex: 3 },
      checkpointNumber: 1,
      indexWithinCheckpoint: 1,
      header: {
        lastArchive: { root: archiveRootOf(1), nextAvailableLeafIndex: 2 },
        globalVariables: {
          blockNumber: 2,
          slotNumber: '12',
          timestamp: '1700000072',
          gasFees: { feePerDaGas: '0', feePerL2Gas: '12345678901234567890' },
        },
        totalFees: '1180591620717411303424',
        totalManaUsed: '21000',
      },
    });
    expect(Object.keys((block['header'] as Record<string, unknown>)['state'] as object).sort()).toEqual([
      'l1ToL2MessageTree',
      'noteHashTree',
      'nullifierTree',
      'publicDataTree',
    ]);
  });

  test('every form of the block parameter reaches the node as the right BlockQuery', async () => {
    const cases: [unknown, unknown, number][] = [
      [blockHashOf(1), { kind: 'hashOrArchive', value: blockHashOf(1) }, 1],
      [archiveRootOf(2).toUpperCase().replace('0X', '0x'), { kind: 'hashOrArchive', value: archiveRootOf(2) }, 2],
      ['latest', { kind: 'tag', tag: 'latest' }, 3],
      ['checkpointed', { kind: 'tag', tag: 'checkpointed' }, 2],
      [{ number: 1 }, { kind: 'number', number: 1 }, 1],
      [{ hash: blockHashOf(3) }, { kind: 'hash', hash: blockHashOf(3) }, 3],
      [{ archive: archiveRootOf(1) }, { kind: 'archive', archive: archiveRootOf(1) }, 1],
      [{ tag: 'finalized' }, { kind: 'tag', tag: 'finalized' }, 0],
    ];
    for (const [param, query, number] of cases) {
      const block = (await result('svc_getBlock', [param])) as { number: number };
      expect(block.number).toBe(number);
      expect(servers.node.calls.at(-1)).toEqual({ method: 'getBlock', args: [query] });
    }
  });

  test('options add the body, L1 publish info and attestations (null and empty before L1)', async () => {
    const all = { includeTransactions: true, includeL1PublishInfo: true, includeAttestations: true };
    const checkpointed = (await result('svc_getBlock', [1, all])) as Record<string, unknown>;
    expect(Object.keys(checkpointed)).toEqual([...blockKeys, 'body', 'l1', 'attestations']);
    expect(checkpointed['body']).toEqual({ txEffects: [blockOneTxEffectWire] });
    expect(checkpointed['l1']).toEqual({
      blockNumber: '123',
      blockHash: hex32(0x7a),
      timestamp: '1700000048',
      txHash: hex32(0x7b),
    });
    expect(checkpointed['attestations']).toEqual(checkpointOneAttestationsWire());
    const proposed = (await result('svc_getBlock', ['latest', all])) as Record<string, unknown>;
    expect(proposed['l1']).toBeNull();
    expect(proposed['attestations']).toEqual([]);
    const some = (await result('svc_getBlock', [
      1,
      { includeL1PublishInfo: true, includeTransactions: false },
    ])) as object;
    expect(Object.keys(some)).toEqual([...blockKeys, 'l1']);
    expect(Object.keys((await result('svc_getBlock', [1, null])) as object)).toEqual(blockKeys);
  });

  test('every block of a checkpoint answers its attestations, which the typed client decodes', async () => {
    const second = (await result('svc_getBlock', [2, { includeAttestations: true }])) as Record<string, unknown>;
    expect(Object.keys(second)).toEqual([...blockKeys, 'attestations']);
    expect(second['attestations']).toEqual(checkpointOneAttestationsWire());
    const decoded = await client.request('svc_getBlock', { kind: 'number', number: 1 }, { includeAttestations: true });
    expect(decoded?.attestations?.map((a) => [a.slot, a.attester, a.signature])).toEqual(
      checkpointOne.attestations.map(({ attester, signature }) => [11, attester, signature]),
    );
    expect(Object.keys((await result('svc_getBlock', [1, { includeAttestations: false }])) as object)).toEqual(
      blockKeys,
    );
  });

  test('an unknown block is null', async () => {
    expect(await result('svc_getBlock', [99])).toBeNull();
    expect(await result('svc_getBlock', [hex32(5)])).toBeNull();
  });

  test('the typed client decodes into the node types', async () => {
    const block = await client.request('svc_getBlock', { kind: 'number', number: 1 }, { includeL1PublishInfo: true });
    expect(block?.header.totalFees).toBe(2n ** 70n);
    expect(block?.l1?.blockNumber).toBe(123n);
    expect(await client.request('svc_getBlock', { kind: 'number', number: 99 })).toBeNull();
  });

  test('bad params', async () => {
    expect(await invalidParams('svc_getBlock', [], 0, 'param')).toMatch(/is required/);
    expect(await invalidParams('svc_getBlock', ['0x1234'], 0, 'param')).toMatch(/expected a block number/);
    expect(await invalidParams('svc_getBlock', [{ hash: `0x${'ab'.repeat(31)}` }], 0, 'param')).toMatch(
      /hash.*got 31 bytes/,
    );
    expect(await invalidParams('svc_getBlock', [{ archive: frAtModulus }], 0, 'param')).toMatch(
      /below the BN254 scalar field modulus/,
    );
    expect(await invalidParams('svc_getBlock', [{ number: 1, hash: blockHashOf(1) }], 0, 'param')).toMatch(
      /exactly one/,
    );
    expect(await invalidParams('svc_getBlock', [-1], 0, 'param')).toMatch(/non-negative safe integer/);
    expect(await invalidParams('svc_getBlock', [1, { includeTransactions: 'yes' }], 1, 'options')).toMatch(
      /params\[1\] \(options\) at \.includeTransactions: .*expected boolean/,
    );
    expect(await invalidParams('svc_getBlock', [1, { includeEverything: true }], 1, 'options')).toMatch(
      /includeEverything/,
    );
    expect(await invalidParams('svc_getBlock', [1, 'all'], 1, 'options')).toMatch(/expected object/);
    await tooManyParams('svc_getBlock', 2);
  });
});

describe('svc_getBlockData', () => {
  test('BlockData: number, hash, archive, checkpointNumber and the header; no index, body or L1 info', async () => {
    const data = (await result('svc_getBlockData', ['proposed'])) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['number', 'hash', 'archive', 'checkpointNumber', 'header']);
    expect(data).toMatchObject({ number: 3, hash: blockHashOf(3), checkpointNumber: 2 });
    expect(Object.keys(data['header'] as object)).toEqual([
      'lastArchive',
      'state',
      'globalVariables',
      'contentCommitment',
      'totalFees',
      'totalManaUsed',
    ]);
    expect(await result('svc_getBlockData', [{ hash: hex32(1) }])).toBeNull();
  });

  test('bad params', async () => {
    await invalidParams('svc_getBlockData', [], 0, 'param');
    expect(await invalidParams('svc_getBlockData', [`0x${'ab'.repeat(33)}`], 0, 'param')).toMatch(
      /expected a block number/,
    );
    await invalidParams('svc_getBlockData', [{ tag: 'pending' }], 0, 'param');
    await tooManyParams('svc_getBlockData', 1);
  });
});

describe('node information', () => {
  test('svc_getL1Constants: bigints and the slot as decimal strings, the rest as is', async () => {
    expect(await result('svc_getL1Constants')).toEqual({
      ...l1Constants,
      l1StartBlock: '17',
      l1GenesisTime: '1700000000',
      ethPerFeeAsset: '10000000',
    });
    expect(await client.request('svc_getL1Constants')).toEqual(l1Constants);
  });

  test('svc_getNodeInfo, svc_getNodeVersion, svc_getVersion, svc_getChainId, svc_getL1ContractAddresses, svc_isReady', async () => {
    expect(await result('svc_getNodeInfo')).toEqual(nodeInfo);
    expect(await result('svc_getNodeVersion')).toBe('4.0.0-test');
    expect(await result('svc_getVersion')).toBe(1);
    expect(await result('svc_getChainId')).toBe(31337);
    expect(await result('svc_getL1ContractAddresses')).toEqual({
      rollupAddress: ROLLUP_ADDRESS,
      inboxAddress: INBOX_ADDRESS,
      outboxAddress: OUTBOX_ADDRESS,
    });
    expect(await result('svc_isReady')).toBe(true);
  });

  test.each([
    'svc_getL1Constants',
    'svc_getNodeInfo',
    'svc_getNodeVersion',
    'svc_getVersion',
    'svc_getChainId',
    'svc_getL1ContractAddresses',
    'svc_isReady',
  ])('%s takes no params', async (method) => {
    await tooManyParams(method, 0);
  });
});

describe('the typed client', () => {
  test('surfaces JSON-RPC errors as RpcClientError', async () => {
    const failure = await client
      .requestWire('svc_getCheckpointNumber', 'proposed' as never)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RpcClientError);
    expect(failure).toMatchObject({ code: -32602, httpStatus: 200 });
  });
});
