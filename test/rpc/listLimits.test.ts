/**
 * List bounds (docs/protocol.md, Request and list limits: at most 100 blocks, checkpoints or txs per call, 200
 * checkpoint-data entries, 100 leaves or tags per query, 100 tx hashes): a call over a bound is -32005 naming the
 * bound, its value and what was asked, never a shortened answer; a call at the bound is served; and each bound is
 * configurable per listener.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  PUBLIC_RPC_LIMITS_DEFAULT,
  RPC_BLOCKS_PER_CALL_MAX,
  RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX,
  RPC_CHECKPOINTS_PER_CALL_MAX,
  RPC_LEAVES_PER_QUERY_MAX,
  RPC_TAGS_PER_QUERY_MAX,
  RPC_TX_HASHES_PER_CALL_MAX,
  RPC_TXS_PER_CALL_MAX,
  type RpcListLimitName,
} from '../../spec/rpc/limits.js';
import { hex32 } from './fakeNode.js';
import { rpc, startTestServers, type TestServers } from './harness.js';
import { sampleAztecAddress } from './wireSamples.js';

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const hashes = (count: number) => Array.from({ length: count }, (_, i) => hex32(i + 1));

const expectLimitExceeded = async (
  url: string,
  method: string,
  params: unknown[],
  limit: RpcListLimitName,
  value: number,
  requested: number,
) => {
  const reply = await rpc(url, method, params);
  expect(reply.error).toEqual({
    code: -32005,
    message: `${requested} exceeds the limit ${limit} of ${value}`,
    data: { code: 'LIMIT_EXCEEDED', limit, value, requested },
  });
};

describe('each list bound, at its default', () => {
  test('the defaults are the named constants', () => {
    expect(PUBLIC_RPC_LIMITS_DEFAULT).toMatchObject({
      blocksPerCallMax: 100,
      checkpointsPerCallMax: 100,
      checkpointDataEntriesPerCallMax: 200,
      txsPerCallMax: 100,
      txHashesPerCallMax: 100,
      leavesPerQueryMax: 100,
      tagsPerQueryMax: 100,
      logsPerTagMax: 20,
    });
  });

  test.each([
    {
      method: 'svc_getBlocks',
      params: (n: number) => [0, n],
      limit: 'blocksPerCallMax',
      value: RPC_BLOCKS_PER_CALL_MAX,
    },
    {
      method: 'svc_getCheckpoints',
      params: (n: number) => [1, n],
      limit: 'checkpointsPerCallMax',
      value: RPC_CHECKPOINTS_PER_CALL_MAX,
    },
    {
      method: 'svc_getCheckpointsData',
      params: (n: number) => [{ from: 1, limit: n }],
      limit: 'checkpointDataEntriesPerCallMax',
      value: RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX,
    },
  ] as const)('$method: $limit', async ({ method, params, limit, value }) => {
    expect((await rpc(servers.publicUrl, method, params(value))).error).toBeUndefined();
    await expectLimitExceeded(servers.publicUrl, method, params(value + 1), limit, value, value + 1);
    await expectLimitExceeded(
      servers.publicUrl,
      method,
      params(Number.MAX_SAFE_INTEGER),
      limit,
      value,
      Number.MAX_SAFE_INTEGER,
    );
  });

  /** Methods whose subsystem is missing still check their bound first: at the bound they answer -32004. */
  test.each([
    { method: 'svc_getPendingTxs', params: (n: number) => [n], limit: 'txsPerCallMax', value: RPC_TXS_PER_CALL_MAX },
    {
      method: 'svc_getTxsByHash',
      params: (n: number) => [hashes(n)],
      limit: 'txHashesPerCallMax',
      value: RPC_TX_HASHES_PER_CALL_MAX,
    },
    {
      method: 'svc_findLeavesIndexes',
      params: (n: number) => ['latest', 0, hashes(n)],
      limit: 'leavesPerQueryMax',
      value: RPC_LEAVES_PER_QUERY_MAX,
    },
    {
      method: 'svc_getPrivateLogsByTags',
      params: (n: number) => [{ tags: hashes(n) }],
      limit: 'tagsPerQueryMax',
      value: RPC_TAGS_PER_QUERY_MAX,
    },
    {
      method: 'svc_getPublicLogsByTags',
      params: (n: number) => [{ contractAddress: sampleAztecAddress, tags: hashes(n) }],
      limit: 'tagsPerQueryMax',
      value: RPC_TAGS_PER_QUERY_MAX,
    },
  ] as const)('$method: $limit', async ({ method, params, limit, value }) => {
    // At the bound the call passes the limit check: answered, or -32004 where the subsystem is not built yet.
    const atBound = await rpc(servers.publicUrl, method, params(value));
    expect(atBound.error === undefined || atBound.error.code === -32004).toBe(true);
    await expectLimitExceeded(servers.publicUrl, method, params(value + 1), limit, value, value + 1);
  });

  test('svc_getPendingTxs without a limit is not refused by the bound', async () => {
    expect((await rpc(servers.publicUrl, 'svc_getPendingTxs', [])).error?.code).toBe(-32004);
  });
});

describe('configured bounds', () => {
  test('the listener passes its own bounds to the handlers; an epoch holding more checkpoints than allowed is refused whole', async () => {
    const tight = await startTestServers(
      {},
      { publicLimits: { blocksPerCallMax: 2, checkpointDataEntriesPerCallMax: 0, tagsPerQueryMax: 1 } },
    );
    try {
      expect(((await rpc(tight.publicUrl, 'svc_getBlocks', [0, 2])).result as unknown[]).length).toBe(2);
      await expectLimitExceeded(tight.publicUrl, 'svc_getBlocks', [0, 3], 'blocksPerCallMax', 2, 3);
      await expectLimitExceeded(
        tight.publicUrl,
        'svc_getCheckpointsData',
        [{ epoch: 0 }],
        'checkpointDataEntriesPerCallMax',
        0,
        1,
      );
      expect((await rpc(tight.publicUrl, 'svc_getCheckpointsData', [{ epoch: 5 }])).result).toEqual([]);
      await expectLimitExceeded(
        tight.publicUrl,
        'svc_getPrivateLogsByTags',
        [{ tags: hashes(2) }],
        'tagsPerQueryMax',
        1,
        2,
      );
      expect((await rpc(tight.publicUrl, 'svc_getCheckpoints', [1, 100])).error).toBeUndefined();
    } finally {
      await tight.close();
    }
  });
});
