/** The world-state methods over HTTP: wire shapes of witnesses, null for absent leaves, -32006 for unknown blocks. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { blockHashOf, fakeSiblingPath, hex32, knownLeaf } from './fakeNode.js';
import { rpc, startTestServers, type TestServers } from './harness.js';

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const call = async (method: string, params: unknown[]) => rpc(servers.publicUrl, method, params);

describe('world-state methods', () => {
  test('a membership witness travels as { leafIndex: decimal string, siblingPath }', async () => {
    expect((await call('svc_getNoteHashMembershipWitness', ['latest', knownLeaf])).result).toEqual({
      leafIndex: '5',
      siblingPath: fakeSiblingPath,
    });
    expect((await call('svc_getNoteHashMembershipWitness', ['latest', hex32(9)])).result).toBeNull();
  });

  test('the L1-to-L2 message witness is the [index, SiblingPath] tuple', async () => {
    expect((await call('svc_getL1ToL2MessageMembershipWitness', [1, knownLeaf])).result).toEqual([
      '5',
      { leafIndex: '5', siblingPath: fakeSiblingPath },
    ]);
  });

  test('nullifier witnesses carry the leaf preimage; the low witness is null when the nullifier exists', async () => {
    const witness = (await call('svc_getNullifierMembershipWitness', [{ hash: blockHashOf(1) }, knownLeaf])).result;
    expect(witness).toEqual({
      index: '5',
      leafPreimage: { nullifier: knownLeaf, nextNullifier: hex32(0), nextIndex: '0' },
      siblingPath: fakeSiblingPath,
    });
    expect((await call('svc_getLowNullifierMembershipWitness', ['latest', knownLeaf])).result).toBeNull();
    expect((await call('svc_getLowNullifierMembershipWitness', ['latest', hex32(3)])).result).toMatchObject({
      index: '5',
    });
  });

  test('findLeavesIndexes answers one entry per value, null where absent', async () => {
    const found = (await call('svc_findLeavesIndexes', ['latest', 0, [hex32(3), knownLeaf]])).result;
    expect(found).toEqual([null, { data: '5', l2BlockNumber: 1, l2BlockHash: blockHashOf(1) }]);
  });

  test('an unknown reference block is -32006; a bad tree id or field is -32602 naming the param', async () => {
    expect((await call('svc_getPublicStorageAt', [99, hex32(1), hex32(2)])).error).toMatchObject({ code: -32006 });
    expect((await call('svc_findLeavesIndexes', ['latest', 7, [knownLeaf]])).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('treeId'),
    });
    const tooBig = `0x${'f'.repeat(64)}`;
    expect((await call('svc_getPublicDataWitness', ['latest', tooBig])).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('leafSlot'),
    });
  });

  test('the sync status names the oldest block still queryable', async () => {
    expect((await call('svc_getWorldStateSyncStatus', [])).result).toMatchObject({
      oldestHistoricBlockNumber: 0,
      treesAreSynced: true,
    });
  });
});

describe('fee methods', () => {
  test('fees are decimal strings; the prediction defaults to target', async () => {
    expect((await call('svc_getCurrentMinFees', [])).result).toEqual({
      feePerDaGas: '100',
      feePerL2Gas: (2n ** 70n).toString(),
    });
    expect((await call('svc_getPredictedMinFees', [])).result).toEqual(
      [0, 1, 2].map(() => ({ feePerDaGas: '100', feePerL2Gas: '1000' })),
    );
    expect((await call('svc_getPredictedMinFees', ['limit'])).result).toHaveLength(3);
    expect((await call('svc_getPredictedMinFees', ['max'])).error).toMatchObject({ code: -32602 });
  });
});

describe('svc_getAllowedPublicSetup', () => {
  test('lists the built-in entries with their flags; calldataLength is a number or null', async () => {
    const elements = (await call('svc_getAllowedPublicSetup', [])).result as {
      kind: string;
      selector: string;
      calldataLength: number | null;
    }[];
    expect(elements.map((element) => element.kind)).toEqual(['instance', 'instance']);
    expect(elements.every((element) => /^0x[0-9a-f]{8}$/.test(element.selector) && element.calldataLength === 3)).toBe(
      true,
    );
  });
});
