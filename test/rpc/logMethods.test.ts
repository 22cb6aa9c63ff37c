/**
 * The log methods over HTTP: wire shapes of LogResult lists (one per tag, in order, empty for no match), the tx's
 * effects only with includeEffects, and -32005 for a tag matching more logs than logsPerTagMax, from the fake node
 * and from the real log index.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { blockHashOf, blockOneTxEffect } from './fakeNode.js';
import {
  FAKE_LOG_BLOCK,
  FAKE_LOG_CONTRACT,
  FAKE_PRIVATE_LOG_TAG,
  FAKE_PRIVATE_LOGS,
  FAKE_PUBLIC_LOG_TAG,
  FAKE_PUBLIC_LOGS,
} from './fakes/fakeLogs.js';
import { rpc, startTestServers, type TestServers } from './harness.js';
import { blockWithTxs, hex32, openLogStore } from '../logs/logFixtures.js';

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const call = async (method: string, params: unknown[]) => rpc(servers.publicUrl, method, params);
const unknownTag = hex32(0x404);
const effects = { noteHashes: [], nullifiers: FAKE_LOG_BLOCK.nullifiers };

describe('log methods with the fake node', () => {
  test("the canned logs sit in the fake chain's block 1 and its one tx", () => {
    expect(FAKE_LOG_BLOCK).toEqual({
      number: 1,
      hash: blockHashOf(1),
      txHash: blockOneTxEffect.txHash,
      nullifiers: blockOneTxEffect.nullifiers,
    });
  });

  test("private logs: one list per tag in the tags' order, an empty list for no match, no effects unless asked", async () => {
    const reply = await call('svc_getPrivateLogsByTags', [{ tags: [unknownTag, FAKE_PRIVATE_LOG_TAG] }]);
    expect(reply.result).toEqual([
      [],
      [
        {
          txHash: FAKE_LOG_BLOCK.txHash,
          l2BlockNumber: 1,
          l2BlockHash: FAKE_LOG_BLOCK.hash,
          txIndexInBlock: 0,
          logIndexInTx: 0,
          fields: [hex32(0xa1), hex32(0xa2)],
        },
        {
          txHash: FAKE_LOG_BLOCK.txHash,
          l2BlockNumber: 1,
          l2BlockHash: FAKE_LOG_BLOCK.hash,
          txIndexInBlock: 0,
          logIndexInTx: 1,
          fields: [hex32(0xb1)],
        },
      ],
    ]);
    expect(servers.node.calls.at(-1)).toEqual({
      method: 'getPrivateLogsByTags',
      args: [[unknownTag, FAKE_PRIVATE_LOG_TAG], false, 20],
    });
  });

  test("includeEffects attaches the tx's note hashes and nullifiers; a tag is matched in either case", async () => {
    const upper = `0x${FAKE_PRIVATE_LOG_TAG.slice(2).toUpperCase()}`;
    const reply = await call('svc_getPrivateLogsByTags', [{ tags: [upper], includeEffects: true }]);
    expect(reply.result).toEqual([FAKE_PRIVATE_LOGS.map((log) => ({ ...log, ...effects }))]);
  });

  test('public logs answer only for the given contract', async () => {
    const known = await call('svc_getPublicLogsByTags', [
      { contractAddress: FAKE_LOG_CONTRACT, tags: [FAKE_PUBLIC_LOG_TAG, FAKE_PRIVATE_LOG_TAG], includeEffects: true },
    ]);
    expect(known.result).toEqual([[{ ...FAKE_PUBLIC_LOGS[0], ...effects }], []]);
    const other = await call('svc_getPublicLogsByTags', [
      { contractAddress: hex32(0xc0df), tags: [FAKE_PUBLIC_LOG_TAG] },
    ]);
    expect(other.result).toEqual([[]]);
  });

  test('a tag matching more logs than logsPerTagMax is -32005, never a shortened list', async () => {
    const tight = await startTestServers({}, { publicLimits: { logsPerTagMax: 1 } });
    try {
      const reply = await rpc(tight.publicUrl, 'svc_getPrivateLogsByTags', [{ tags: [FAKE_PRIVATE_LOG_TAG] }]);
      expect(reply.error).toEqual({
        code: -32005,
        message: `tag ${FAKE_PRIVATE_LOG_TAG} matches more logs than the limit logsPerTagMax of 1`,
        data: { code: 'LIMIT_EXCEEDED', limit: 'logsPerTagMax', value: 1, requested: 2 },
      });
      const atBound = await rpc(tight.publicUrl, 'svc_getPublicLogsByTags', [
        { contractAddress: FAKE_LOG_CONTRACT, tags: [FAKE_PUBLIC_LOG_TAG] },
      ]);
      expect(atBound.result).toEqual([FAKE_PUBLIC_LOGS]);
    } finally {
      await tight.close();
    }
  });
});

describe('log methods over the real log index', () => {
  test('answer and refuse over HTTP as the index does', async () => {
    const fixture = await openLogStore();
    const tag = hex32(0x7a6);
    const contract = hex32(0xc0de);
    const logsOfTag = [
      { tag, fields: [hex32(1)] },
      { tag, fields: [hex32(2)] },
      { tag, fields: [hex32(3)] },
    ];
    await fixture.add(
      blockWithTxs(1, [
        {
          id: 1,
          privateLogs: logsOfTag,
          publicLogs: [{ contractAddress: contract, tag, fields: [hex32(4)] }],
          noteHashes: [hex32(0x11)],
        },
      ]),
    );
    const real = await startTestServers({ logs: fixture.logs }, { publicLimits: { logsPerTagMax: 2 } });
    try {
      const block = fixture.kept[0]!;
      const publicReply = await rpc(real.publicUrl, 'svc_getPublicLogsByTags', [
        { contractAddress: contract, tags: [tag], includeEffects: true },
      ]);
      expect(publicReply.result).toEqual([
        [
          {
            txHash: block.body.txEffects[0]!.txHash,
            l2BlockNumber: 1,
            l2BlockHash: block.hash,
            txIndexInBlock: 0,
            logIndexInTx: 0,
            fields: [hex32(4)],
            noteHashes: [hex32(0x11)],
            nullifiers: block.body.txEffects[0]!.nullifiers,
          },
        ],
      ]);
      const refused = await rpc(real.publicUrl, 'svc_getPrivateLogsByTags', [{ tags: [tag] }]);
      expect(refused.error).toMatchObject({
        code: -32005,
        data: { code: 'LIMIT_EXCEEDED', limit: 'logsPerTagMax', value: 2, requested: 3 },
      });
    } finally {
      await real.close();
    }
  });
});
