/** The contract methods over HTTP: wire shapes of a class and an instance, the class as of a block, null, -32006. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROTOCOL_CONTRACTS } from '../../core/l2Contracts/contractConstants.js';
import { blockHashOf, hex32 } from './fakeNode.js';
import { fakeClass, fakeInstance, fakeUpdatedClassId } from './fakes/fakeContracts.js';
import { rpc, startTestServers, type TestServers } from './harness.js';

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const call = async (method: string, params: unknown[]) => rpc(servers.publicUrl, method, params);
const upperCase = (hex: string) => `0x${hex.slice(2).toUpperCase()}`;

describe('svc_getContractClass', () => {
  test('a registered class travels as ContractClassPublic, its bytecode as hex bytes', async () => {
    expect((await call('svc_getContractClass', [fakeClass.id])).result).toEqual({
      id: fakeClass.id,
      version: 1,
      artifactHash: fakeClass.artifactHash,
      privateFunctionsRoot: fakeClass.privateFunctionsRoot,
      publicBytecodeCommitment: fakeClass.publicBytecodeCommitment,
      packedBytecode: '0x0a0b0c0d',
    });
  });

  test('the id is read in any case; an unknown class is null; a malformed id is -32602', async () => {
    expect((await call('svc_getContractClass', [upperCase(fakeClass.id)])).result).toMatchObject({ id: fakeClass.id });
    expect((await call('svc_getContractClass', [hex32(0xdead)])).result).toBeNull();
    expect((await call('svc_getContractClass', ['0x12'])).error).toMatchObject({ code: -32602 });
  });
});

describe('svc_getContract', () => {
  test("defaults to 'latest', where the class update of block 3 applies", async () => {
    expect((await call('svc_getContract', [fakeInstance.address])).result).toEqual({
      ...fakeInstance,
      currentContractClassId: fakeUpdatedClassId,
    });
  });

  test('resolves the current class as of the reference block, by number, hash or tip', async () => {
    expect((await call('svc_getContract', [fakeInstance.address, 2])).result).toEqual(fakeInstance);
    expect((await call('svc_getContract', [fakeInstance.address, blockHashOf(1)])).result).toEqual(fakeInstance);
    expect((await call('svc_getContract', [fakeInstance.address, 'checkpointed'])).result).toMatchObject({
      currentContractClassId: fakeClass.id,
    });
    expect((await call('svc_getContract', [fakeInstance.address, 'proposed'])).result).toMatchObject({
      currentContractClassId: fakeUpdatedClassId,
    });
  });

  test('null before its publication and for an address never published', async () => {
    expect((await call('svc_getContract', [fakeInstance.address, 0])).result).toBeNull();
    expect((await call('svc_getContract', [hex32(0xfeed), 'latest'])).result).toBeNull();
  });

  test('an unknown reference block is -32006', async () => {
    expect((await call('svc_getContract', [fakeInstance.address, 99])).error).toMatchObject({ code: -32006 });
    expect((await call('svc_getContract', [fakeInstance.address, hex32(0xbad)])).error).toMatchObject({ code: -32006 });
  });
});

describe('svc_getProtocolContractAddresses', () => {
  test('the class registry, the instance registry and the fee asset', async () => {
    const result = (await call('svc_getProtocolContractAddresses', [])).result;
    expect(result).toEqual({
      classRegistry: PROTOCOL_CONTRACTS.classRegistry,
      instanceRegistry: PROTOCOL_CONTRACTS.instanceRegistry,
      feeAsset: hex32(4),
    });
  });
});
