/**
 * A chain store over in-memory storage for the contract index tests: blocks carrying chosen publications are added
 * on top and pruned as the chain store does it (one batch each, index entries included).
 */
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { Chain } from '../../core/chain/chain.js';
import { ChainStore } from '../../core/chain/chainStore.js';
import { genesisTips } from '../../core/chain/tips.js';
import { contractIndexer } from '../../core/l2Contracts/contractIndexer.js';
import { createGenesis, type Genesis } from '../../core/worldState/genesis.js';
import type { Block, ContractClassPublication, ContractInstancePublication, Hex, TxEffect } from '../../spec/chain.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';

export const field = (n: number | bigint): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

export function classOf(id: Hex, bytecode: Hex = '0x01020304'): ContractClassPublication {
  return {
    id,
    version: 1,
    artifactHash: field(0xa1),
    privateFunctionsRoot: field(0xa2),
    publicBytecodeCommitment: field(0xa3),
    packedBytecode: bytecode,
  };
}

export function instanceOf(
  address: Hex,
  originalClassId: Hex,
  currentClassId: Hex = originalClassId,
  salt: Hex = field(0x5a17),
): ContractInstancePublication {
  return {
    address,
    version: 1,
    salt,
    deployer: field(0xde),
    currentContractClassId: currentClassId,
    originalContractClassId: originalClassId,
    initializationHash: field(0x1a),
    publicKeysHash: field(0x9e),
  };
}

/** What one tx of a test block publishes. */
export interface TxPublications {
  readonly classes?: readonly ContractClassPublication[];
  readonly instances?: readonly ContractInstancePublication[];
}

let txCounter = 0;

function effectWith(publications: TxPublications): TxEffect {
  txCounter += 1;
  return {
    ...minimalTxEffect(field(0x7000_0000 + txCounter), field(0x6000_0000 + txCounter)),
    contractClassPublications: publications.classes ?? [],
    contractInstancePublications: publications.instances ?? [],
  };
}

/** Block `n` on top of genesis's shape, with one tx per entry of `txs`; hash and archive distinct per (n, salt). */
export function blockWith(genesis: Genesis, n: number, txs: readonly TxPublications[], salt = 0): Block {
  const tag = BigInt(n) + (BigInt(salt) << 40n);
  return {
    ...genesis.block,
    hash: field((0xb1n << 200n) + tag),
    archive: { root: field((0xa5n << 200n) + tag), nextAvailableLeafIndex: n + 1 },
    header: { ...genesis.block.header, globalVariables: { ...genesis.block.header.globalVariables, blockNumber: n } },
    body: { txEffects: txs.map(effectWith) },
  };
}

export interface TestChain {
  readonly store: ChainStore;
  readonly genesis: Genesis;
  /** The chain as the contract queries see it (store and tips only). */
  readonly chain: Chain;
  /** Adds the next block with one tx per entry; returns its number. */
  add(txs: readonly TxPublications[]): Promise<number>;
  pruneTo(blockNumber: number): Promise<void>;
  readonly tip: number;
  close(): Promise<void>;
}

export async function openTestChain(options: { readonly registerIndexer: boolean }): Promise<TestChain> {
  const storage = createMemoryStorage();
  const genesis = createGenesis(31337, 1);
  const genesisRef = { number: 0, hash: genesis.block.hash };
  const identity = {
    l1ChainId: 31337,
    rollupAddress: field(0xab),
    rollupVersion: 1,
    genesisArchiveRoot: genesis.block.archive.root,
  };
  const store = await ChainStore.open(storage, identity, genesis, genesisTips(genesisRef, genesisRef));
  if (options.registerIndexer) store.registerIndexer(contractIndexer);
  let rebuilds = 0;
  const tipsAt = (ref: { number: number; hash: Hex }) => ({ ...store.tips, proposed: ref });
  return {
    store,
    genesis,
    chain: {
      store,
      get tips() {
        return store.tips;
      },
    } as unknown as Chain,
    get tip() {
      return store.tips.proposed.number;
    },
    async add(txs) {
      const block = blockWith(genesis, store.tips.proposed.number + 1, txs, rebuilds);
      const n = block.header.globalVariables.blockNumber;
      await store.commit({
        addBlocks: [{ block, archiveTree: genesis.archiveTree }],
        tips: tipsAt({ number: n, hash: block.hash }),
      });
      return n;
    },
    async pruneTo(blockNumber) {
      const kept = await store.getBlock(blockNumber);
      if (kept === undefined) throw new Error(`block ${blockNumber} is not kept`);
      rebuilds += 1;
      await store.commit({ removeBlocksAbove: blockNumber, tips: tipsAt({ number: blockNumber, hash: kept.hash }) });
    },
    close: () => storage.close(),
  };
}
