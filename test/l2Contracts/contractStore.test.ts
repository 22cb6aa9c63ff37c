/**
 * The contract index in a chain store over memory storage: classes, instances and class updates as of each block,
 * entries leaving with pruned blocks, the public-execution reader, and the node's contract queries.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { Chain } from '../../core/chain/chain.js';
import { txIndexer } from '../../core/chain/txIndex.js';
import { contractIndexer } from '../../core/l2Contracts/contractIndexer.js';
import { CONTRACT_KEY_PREFIX } from '../../core/l2Contracts/contractKeys.js';
import {
  contractReaderAt,
  findContractClass,
  findContractInstance,
  latestContractReader,
} from '../../core/l2Contracts/contractStore.js';
import { NodeError } from '../../core/errors.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { createContractService } from '../../core/l2Contracts/contractService.js';
import type { BlockQuery } from '../../core/nodeService.js';
import type { Hex } from '../../spec/chain.js';
import { classOf, field, instanceOf, openTestChain, type TestChain } from './contractStoreFixtures.js';

const A = field(0xa1a55),
  B = field(0xb1a55),
  C = field(0xc1a55);
const X = field(0xadd1),
  Y = field(0xadd2);

const upperCase = (hex: Hex): Hex => `0x${hex.slice(2).toUpperCase()}`;

let chain: TestChain;
afterEach(async () => {
  await chain.close();
});

const contractKeys = async () => (await chain.store.getIndexEntries(CONTRACT_KEY_PREFIX, 1_000)).map(([key]) => key);

describe('contract index', () => {
  test('the first registration of a class wins; ids are compared in lowercase', async () => {
    chain = await openTestChain({ registerIndexer: true });
    await chain.add([{ classes: [classOf(A, '0xaa')] }]);
    await chain.add([{ classes: [classOf(A, '0xbb'), classOf(B, '0xcc')] }]);
    expect((await findContractClass(chain.store, A))?.packedBytecode).toBe('0xaa');
    expect((await findContractClass(chain.store, upperCase(A)))?.id).toBe(A);
    expect(await findContractClass(chain.store, B, 1)).toBeUndefined();
    expect((await findContractClass(chain.store, B, 2))?.packedBytecode).toBe('0xcc');
    expect(await findContractClass(chain.store, C)).toBeUndefined();
    expect(await findContractClass(chain.store, 'not hex')).toBeUndefined();
  });

  test('an instance exists from its publication block; a class update applies from its block on', async () => {
    chain = await openTestChain({ registerIndexer: true });
    await chain.add([]); // 1
    await chain.add([{ instances: [instanceOf(X, A)] }]); // 2
    await chain.add([]); // 3
    await chain.add([{ instances: [instanceOf(X, A, B, field(0x0dd))] }]); // 4: update (same original), other salt ignored
    await chain.add([{ instances: [instanceOf(X, C, C)] }]); // 5: another original: ignored
    await chain.add([{ instances: [instanceOf(X, A, C)] }, { instances: [instanceOf(X, A, A)] }]); // 6: last in block wins
    const at = async (n: number) => (await findContractInstance(chain.store, X, n))?.currentContractClassId;
    expect(await findContractInstance(chain.store, X, 1)).toBeUndefined();
    expect([await at(2), await at(3), await at(4), await at(5), await at(6)]).toEqual([A, A, B, B, A]);
    expect(await findContractInstance(chain.store, X, 4)).toEqual(instanceOf(X, A, B));
    expect(await findContractInstance(chain.store, Y, 6)).toBeUndefined();
  });

  test('entries leave with their blocks', async () => {
    chain = await openTestChain({ registerIndexer: true });
    await chain.add([{ classes: [classOf(A)], instances: [instanceOf(X, A)] }]); // 1
    await chain.add([{ classes: [classOf(B)], instances: [instanceOf(X, A, B)] }]); // 2
    await chain.pruneTo(1);
    expect((await findContractInstance(chain.store, X, 1))?.currentContractClassId).toBe(A);
    expect(await findContractClass(chain.store, B)).toBeUndefined();
    await chain.add([{ instances: [instanceOf(X, A, C)] }]); // 2 again, another block
    expect((await findContractInstance(chain.store, X, 2))?.currentContractClassId).toBe(C);
    await chain.pruneTo(0);
    expect(await contractKeys()).toEqual([]);
  });

  test('a prune between the two reads of a lookup is read again, never taken for a broken index', async () => {
    chain = await openTestChain({ registerIndexer: true });
    await chain.add([{ instances: [instanceOf(X, A)] }]);
    const racing = racingStore(chain);
    expect(await findContractInstance(racing, X, 1)).toBeUndefined();
  });

  test('the contract index and the tx index share a store', async () => {
    chain = await openTestChain({ registerIndexer: true });
    expect(() => chain.store.registerIndexer(txIndexer)).not.toThrow();
    expect(() => chain.store.registerIndexer(contractIndexer)).toThrow(/overlaps/);
  });
});

/** The chain's store, except that the first read of an instance prunes the chain to genesis before it answers. */
function racingStore(testChain: TestChain) {
  let pruned = false;
  return {
    getIndexEntry: (key: string) => testChain.store.getIndexEntry(key),
    async getIndexEntries(prefix: string, limit: number) {
      const found = await testChain.store.getIndexEntries(prefix, limit);
      if (!pruned && prefix.includes(':instance:')) {
        pruned = true;
        await testChain.pruneTo(0);
      }
      return found;
    },
  };
}

describe('contract reader for public execution', () => {
  test('class ids and bytecode as of a block', async () => {
    chain = await openTestChain({ registerIndexer: true });
    await chain.add([{ classes: [classOf(A, '0x0102')], instances: [instanceOf(X, A)] }]); // 1
    await chain.add([{ classes: [classOf(B, '0x0304')], instances: [instanceOf(X, A, B)] }]); // 2
    const atOne = contractReaderAt(chain, 1);
    const atTwo = contractReaderAt(chain, 2);
    expect(await atOne.contractClassId(X)).toBe(A);
    expect(await atTwo.contractClassId(upperCase(X))).toBe(B);
    expect(await atOne.contractClassBytecode(B)).toBeUndefined();
    expect(await atTwo.contractClassBytecode(B)).toEqual(Uint8Array.from([3, 4]));
    expect(await atTwo.contractClassId(Y)).toBeUndefined();
  });

  test('the latest reader follows the proposed tip', async () => {
    chain = await openTestChain({ registerIndexer: true });
    const latest = latestContractReader(chain.chain);
    await chain.add([{ classes: [classOf(A, '0x0102')], instances: [instanceOf(X, A)] }]);
    expect(await latest.contractClassId(X)).toBe(A);
    await chain.add([{ instances: [instanceOf(X, A, B)] }]);
    expect(await latest.contractClassId(X)).toBe(B);
    await chain.pruneTo(0);
    expect(await latest.contractClassId(X)).toBeUndefined();
    expect(await latest.contractClassBytecode(A)).toBeUndefined();
  });
});

describe('contract queries', () => {
  const byNumber = async (query: BlockQuery) =>
    query.kind === 'number' ? query.number : query.kind === 'tag' ? chain.tip : undefined;

  test('register the index and answer instances as of the reference block', async () => {
    chain = await openTestChain({ registerIndexer: false });
    const queries = createContractService(chain.chain, byNumber);
    await chain.add([{ classes: [classOf(A)], instances: [instanceOf(X, A)] }]);
    await chain.add([{ instances: [instanceOf(X, A, B)] }]);
    expect((await queries.getContract(X, { kind: 'number', number: 1 }))?.currentContractClassId).toBe(A);
    expect((await queries.getContract(X, { kind: 'tag', tag: 'latest' }))?.currentContractClassId).toBe(B);
    expect(await queries.getContract(X, { kind: 'number', number: 0 })).toBeUndefined();
    expect((await queries.getContractClass(A))?.id).toBe(A);
    expect(await queries.getContractClass(B)).toBeUndefined();
  });

  test('an unknown reference block is STATE_NOT_AVAILABLE (unknown)', async () => {
    chain = await openTestChain({ registerIndexer: false });
    const queries = createContractService(chain.chain, byNumber);
    for (const query of [
      { kind: 'number', number: 5 },
      { kind: 'hash', hash: field(1) },
    ] as const) {
      const error = await queries.getContract(X, query).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NodeError);
      expect(error).toMatchObject({ code: 'STATE_NOT_AVAILABLE', details: { reason: 'unknown' } });
    }
  });

  test('a reference block pruned while the instance is read is STATE_NOT_AVAILABLE', async () => {
    chain = await openTestChain({ registerIndexer: false });
    const racingChain = {
      store: { ...racingStore(chain), registerIndexer: () => undefined },
      get tips() {
        return chain.store.tips;
      },
    } as unknown as Chain;
    const queries = createContractService(racingChain, byNumber);
    await chain.add([{ instances: [instanceOf(X, A)] }]);
    await expect(queries.getContract(X, { kind: 'number', number: 1 })).rejects.toMatchObject({
      code: 'STATE_NOT_AVAILABLE',
    });
  });

  test('protocol contract addresses: two registries beside the fee asset, all distinct', async () => {
    chain = await openTestChain({ registerIndexer: false });
    const addresses = createContractService(chain.chain, byNumber).getProtocolContractAddresses();
    expect(addresses.feeAsset).toBe(PROTOCOL_CONTRACT_ADDRESSES.feeAsset);
    const all = [...Object.values(addresses), PROTOCOL_CONTRACT_ADDRESSES.authRegistry];
    expect(new Set(all).size).toBe(all.length);
  });
});
