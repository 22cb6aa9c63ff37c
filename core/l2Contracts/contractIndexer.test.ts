import { describe, expect, test } from 'vitest';
import type { Block, ContractClassPublication, ContractInstancePublication, Hex } from '../../spec/chain.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { createGenesis } from '../worldState/genesis.js';
import { CONTRACT_KEY_BLOCK_NUMBER_MAX } from './contractConstants.js';
import { contractIndexer } from './contractIndexer.js';
import {
  ascendingBlock,
  blockOfAscendingKey,
  blockOfDescendingKey,
  canonicalField,
  classKey,
  currentClassKey,
  descendingBlock,
  instanceKey,
} from './contractKeys.js';

const field = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const genesis = createGenesis(31337, 1);

const cls = (id: Hex, bytecode: Hex): ContractClassPublication => ({
  id,
  version: 1,
  artifactHash: field(1),
  privateFunctionsRoot: field(2),
  publicBytecodeCommitment: field(3),
  packedBytecode: bytecode,
});
const inst = (address: Hex, original: Hex, current: Hex): ContractInstancePublication => ({
  address,
  version: 1,
  salt: field(4),
  deployer: field(5),
  currentContractClassId: current,
  originalContractClassId: original,
  initializationHash: field(6),
  publicKeysHash: field(7),
});

function blockOf(
  n: number,
  txs: { classes?: ContractClassPublication[]; instances?: ContractInstancePublication[] }[],
): Block {
  return {
    ...genesis.block,
    header: { ...genesis.block.header, globalVariables: { ...genesis.block.header.globalVariables, blockNumber: n } },
    body: {
      txEffects: txs.map((tx, i) => ({
        ...minimalTxEffect(field(0x100 + i), field(0x200 + i)),
        contractClassPublications: tx.classes ?? [],
        contractInstancePublications: tx.instances ?? [],
      })),
    },
  };
}

const A = field(0xa),
  B = field(0xb),
  C = field(0xc),
  X = field(0x1234);

describe('contract keys', () => {
  test('block suffixes sort earliest first (ascending) or newest first (descending) and read back', () => {
    expect(ascendingBlock(9) < ascendingBlock(10)).toBe(true);
    expect(descendingBlock(10) < descendingBlock(9)).toBe(true);
    expect(blockOfAscendingKey(classKey(A, 42))).toBe(42);
    expect(blockOfDescendingKey(currentClassKey(X, A, 42))).toBe(42);
    expect(blockOfDescendingKey(currentClassKey(X, A, CONTRACT_KEY_BLOCK_NUMBER_MAX))).toBe(
      CONTRACT_KEY_BLOCK_NUMBER_MAX,
    );
    expect(() => ascendingBlock(CONTRACT_KEY_BLOCK_NUMBER_MAX + 1)).toThrow(/assertion failed/);
    expect(() => descendingBlock(-1)).toThrow(/assertion failed/);
  });

  test('fields are compared as lowercase 32-byte hex; keys refuse any other form', () => {
    expect(canonicalField('0xABC')).toBe(field(0xabc));
    expect(canonicalField('abc')).toBeUndefined();
    expect(canonicalField(`0x${'1'.repeat(65)}`)).toBeUndefined();
    expect(() => classKey('0xA' as Hex, 1)).toThrow(/canonical/);
  });
});

describe('contract indexer', () => {
  test('a block without publications writes nothing', () => {
    expect(contractIndexer.blockAdded(blockOf(3, [{}, {}]))).toEqual([]);
  });

  test('per block: the first registration of a class, the first publication of an address, the last version per original class', () => {
    const block = blockOf(7, [
      { classes: [cls(A, '0x01')], instances: [inst(X, A, A)] },
      { classes: [cls(A, '0x02')], instances: [inst(X, B, B), inst(X, A, C)] },
    ]);
    const ops = contractIndexer.blockAdded(block);
    expect(ops.every((op) => op.key.startsWith(contractIndexer.keyPrefix))).toBe(true);
    const value = (key: string) => ops.find((op) => op.key === key && op.type === 'put');
    expect(JSON.parse((value(classKey(A, 7)) as { value: string }).value).packedBytecode).toBe('0x01');
    expect(JSON.parse((value(instanceKey(X, 7)) as { value: string }).value)).toEqual(inst(X, A, A));
    expect(value(currentClassKey(X, A, 7))).toMatchObject({ value: C });
    expect(value(currentClassKey(X, B, 7))).toMatchObject({ value: B });
    expect(ops).toHaveLength(4);
  });

  test('entries are written in canonical form, whatever the case of the effect', () => {
    const upper = (hex: Hex) => `0x${hex.slice(2).toUpperCase()}` as Hex;
    const ops = contractIndexer.blockAdded(
      blockOf(2, [{ classes: [cls(upper(A), '0xABCD')], instances: [inst(upper(X), upper(A), upper(B))] }]),
    );
    expect(ops.map((op) => op.key)).toEqual([classKey(A, 2), instanceKey(X, 2), currentClassKey(X, A, 2)]);
    expect(ops[0]).toMatchObject({ value: expect.stringContaining('"packedBytecode":"0xabcd"') });
    expect(ops[2]).toMatchObject({ value: B });
  });

  test('removing a block deletes exactly the keys adding it wrote', () => {
    const block = blockOf(5, [
      { classes: [cls(A, '0x01'), cls(B, '0x02')], instances: [inst(X, A, A), inst(field(0x99), C, C)] },
    ]);
    const put = contractIndexer.blockAdded(block);
    const removed = contractIndexer.blockRemoved(block);
    expect(removed.every((op) => op.type === 'del')).toBe(true);
    expect(removed.map((op) => op.key)).toEqual(put.map((op) => op.key));
  });

  test('a mined publication that is not a field element is a bug', () => {
    expect(() => contractIndexer.blockAdded(blockOf(1, [{ instances: [inst('0xnothex' as Hex, A, A)] }]))).toThrow(
      /assertion failed/,
    );
  });
});
