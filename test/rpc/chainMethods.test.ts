/** The chain methods added on top of blocks: block ranges, checkpoints, checkpoint data, and the synced positions. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcClient, type RpcClient } from '../../adapters/rpc/jsonRpcClient.js';
import {
  archiveRootOf,
  blockHashOf,
  blockOneTxEffect,
  blockOneTxEffectWire,
  CHECKPOINT_ONE_ATTESTERS,
  checkpointOne,
  hex32,
  SYNCED_L1_TIMESTAMP,
  SYNCED_L2_SLOT,
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

const blockKeys = ['number', 'hash', 'archive', 'checkpointNumber', 'header', 'indexWithinCheckpoint'];

/** Checkpoint 1 as the wire shows it: bigints and the slot as decimal strings. */
const checkpointOneWire = {
  number: 1,
  hash: checkpointOne.hash,
  archiveRoot: archiveRootOf(2),
  firstBlockNumber: 1,
  blockCount: 2,
  blobVersionedHashes: [hex32(0x01)],
  header: {
    lastArchiveRoot: archiveRootOf(0),
    slotNumber: '11',
    timestamp: '1700000036',
    coinbase: `0x${'cd'.repeat(20)}`,
    feeRecipient: hex32(0xfee),
    gasFees: { feePerDaGas: '0', feePerL2Gas: '1' },
    blockCount: 2,
    blobsHash: hex32(0xb0),
    totalManaUsed: '42000',
    inHash: hex32(0xb1),
    outHash: hex32(0xb2),
  },
  l1: { blockNumber: '123', blockHash: hex32(0x7a), timestamp: '1700000048', txHash: hex32(0x7b) },
};

describe('svc_getBlocks', () => {
  test('consecutive blocks from `from`, at most `limit`, fewer at the tip; options as for svc_getBlock', async () => {
    const range = (await result('svc_getBlocks', [1, 2])) as Record<string, unknown>[];
    expect(range.map((block) => block['number'])).toEqual([1, 2]);
    expect(Object.keys(range[0]!)).toEqual(blockKeys);
    expect(servers.node.calls.at(-1)).toEqual({ method: 'getBlocks', args: [1, 2] });
    const toTip = (await result('svc_getBlocks', [
      2,
      50,
      { includeL1PublishInfo: true, includeTransactions: true },
    ])) as Record<string, unknown>[];
    expect(toTip.map((block) => [block['number'], block['l1'] === null])).toEqual([
      [2, false],
      [3, true],
    ]);
    expect(toTip[0]!['body']).toEqual({ txEffects: [] });
    const attested = (await result('svc_getBlocks', [1, 3, { includeAttestations: true }])) as {
      attestations: { attester: string }[];
    }[];
    expect(attested.map((block) => block.attestations.map((a) => a.attester))).toEqual([
      CHECKPOINT_ONE_ATTESTERS,
      CHECKPOINT_ONE_ATTESTERS,
      [],
    ]);
    expect(await result('svc_getBlocks', [99, 5])).toEqual([]);
    expect(await result('svc_getBlocks', [0, 0])).toEqual([]);
  });

  test('the typed client decodes the list', async () => {
    const decoded = await client.request('svc_getBlocks', 1, 1, { includeTransactions: true });
    expect(decoded[0]?.header.totalFees).toBe(2n ** 70n);
    expect(decoded[0]?.body?.txEffects).toEqual([blockOneTxEffect]);
  });
});

describe('svc_getCheckpoint', () => {
  test('by number, hash, tag and object forms; null when unknown', async () => {
    expect(await result('svc_getCheckpoint', [1])).toEqual(checkpointOneWire);
    expect(await result('svc_getCheckpoint', ['checkpointed'])).toEqual(checkpointOneWire);
    expect(await result('svc_getCheckpoint', [{ hash: checkpointOne.hash.toUpperCase().replace('0X', '0x') }])).toEqual(
      checkpointOneWire,
    );
    expect(servers.node.calls.at(-1)).toEqual({
      method: 'findCheckpoint',
      args: [{ kind: 'hash', hash: checkpointOne.hash }],
    });
    expect(await result('svc_getCheckpoint', [{ tag: 'finalized' }])).toBeNull();
    expect(servers.node.calls.at(-1)).toEqual({ method: 'findCheckpoint', args: [{ kind: 'tag', tag: 'finalized' }] });
    expect(await result('svc_getCheckpoint', [{ number: 7 }])).toBeNull();
    expect(await result('svc_getCheckpoint', [{ hash: hex32(0xdead) }])).toBeNull();
  });

  test('includeBlocks adds its blocks, with their bodies only when includeTransactions is set too', async () => {
    const withBlocks = (await result('svc_getCheckpoint', [1, { includeBlocks: true }])) as {
      blocks: Record<string, unknown>[];
    };
    expect(Object.keys(withBlocks)).toEqual([...Object.keys(checkpointOneWire), 'blocks']);
    expect(withBlocks.blocks.map((block) => [block['number'], block['hash'], block['indexWithinCheckpoint']])).toEqual([
      [1, blockHashOf(1), 0],
      [2, blockHashOf(2), 1],
    ]);
    expect(Object.keys(withBlocks.blocks[0]!)).toEqual(blockKeys);
    const withBodies = (await result('svc_getCheckpoint', [1, { includeBlocks: true, includeTransactions: true }])) as {
      blocks: { body: unknown }[];
    };
    expect(withBodies.blocks[0]!.body).toEqual({ txEffects: [blockOneTxEffectWire] });
    const bodiesAlone = (await result('svc_getCheckpoint', [1, { includeTransactions: true }])) as object;
    expect(Object.keys(bodiesAlone)).toEqual(Object.keys(checkpointOneWire));
  });

  test('blocks that no longer match the checkpoint (pruned between reads) are -32006, not a partial answer', async () => {
    const pruned = await startTestServers({ chain: { getBlocks: async () => [] } });
    try {
      const reply = await rpc(pruned.publicUrl, 'svc_getCheckpoint', [1, { includeBlocks: true }]);
      expect(reply.error).toEqual({
        code: -32006,
        message: 'the blocks of checkpoint 1 are no longer available',
        data: { code: 'STATE_NOT_AVAILABLE', checkpointNumber: 1 },
      });
    } finally {
      await pruned.close();
    }
  });

  test('the typed client encodes a CheckpointQuery and decodes bigints', async () => {
    const decoded = await client.request('svc_getCheckpoint', { kind: 'tag', tag: 'checkpointed' });
    expect(decoded?.l1.blockNumber).toBe(123n);
    expect(decoded?.header.slotNumber).toBe(11);
  });
});

describe('svc_getCheckpoints and svc_getCheckpointsData', () => {
  test('a range of checkpoints, fewer at the checkpointed tip', async () => {
    expect(await result('svc_getCheckpoints', [1, 10])).toEqual([checkpointOneWire]);
    expect(servers.node.calls.at(-1)).toEqual({ method: 'getCheckpoints', args: [1, 10] });
    expect(await result('svc_getCheckpoints', [2, 10])).toEqual([]);
    const withBlocks = (await result('svc_getCheckpoints', [0, 2, { includeBlocks: true }])) as { blocks: unknown[] }[];
    expect(withBlocks[0]!.blocks).toHaveLength(2);
  });

  test('checkpoint data by range or by epoch: metadata only', async () => {
    expect(await result('svc_getCheckpointsData', [{ from: 1, limit: 3 }])).toEqual([checkpointOneWire]);
    expect(await result('svc_getCheckpointsData', [{ epoch: 0 }])).toEqual([checkpointOneWire]);
    expect(servers.node.calls.at(-1)).toEqual({ method: 'getCheckpointsInEpoch', args: [0] });
    expect(await result('svc_getCheckpointsData', [{ epoch: 1 }])).toEqual([]);
  });
});

describe('synced positions', () => {
  test('the L2 slot as a decimal string, the epoch as a number, the L1 timestamp as a decimal string', async () => {
    expect(await result('svc_getSyncedL2SlotNumber')).toBe(String(SYNCED_L2_SLOT));
    expect(await result('svc_getSyncedL2EpochNumber')).toBeNull();
    expect(await result('svc_getSyncedL1Timestamp')).toBe(SYNCED_L1_TIMESTAMP.toString());
    expect(await client.request('svc_getSyncedL1Timestamp')).toBe(SYNCED_L1_TIMESTAMP);
  });

  test('before the first sync: null, the key present', async () => {
    const fresh = await startTestServers({
      chain: {
        getSyncedL2SlotNumber: () => undefined,
        getSyncedL2EpochNumber: () => 4,
        getSyncedL1Timestamp: () => undefined,
      },
    });
    try {
      for (const method of ['svc_getSyncedL2SlotNumber', 'svc_getSyncedL1Timestamp']) {
        expect(await rpc(fresh.publicUrl, method)).toEqual({ jsonrpc: '2.0', id: 1, result: null });
      }
      expect((await rpc(fresh.publicUrl, 'svc_getSyncedL2EpochNumber')).result).toBe(4);
    } finally {
      await fresh.close();
    }
  });
});
