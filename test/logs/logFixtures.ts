/**
 * Blocks with logs and a chain store holding them, for the log-index tests: blocks are written straight through
 * ChainStore.commit (no world state), as the chain does, so their index entries come and go with them.
 */
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { ChainStore } from '../../core/chain/chainStore.js';
import { genesisTips } from '../../core/chain/tips.js';
import { registerLogIndexers } from '../../core/logs/logIndexer.js';
import { createLogReader } from '../../core/logs/logReader.js';
import type { LogService } from '../../core/logs/logService.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import type { Block, Hex, L2Tips, PrivateLog, PublicLog, TxEffect } from '../../spec/chain.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';

export const hex32 = (n: number | bigint): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

export const genesis = createGenesis(31337, 1);
const genesisRef = { number: 0, hash: genesis.block.hash };

/** What a test says about one tx: its logs and effects (hashes drawn from `id`). */
export interface TxSketch {
  readonly id: number;
  readonly privateLogs?: readonly PrivateLog[];
  readonly publicLogs?: readonly PublicLog[];
  readonly noteHashes?: readonly Hex[];
}

export function txEffectOf(sketch: TxSketch): TxEffect {
  const base = minimalTxEffect(hex32(0x7000_0000n + BigInt(sketch.id)), hex32(0x9000_0000n + BigInt(sketch.id)));
  return {
    ...base,
    privateLogs: sketch.privateLogs ?? [],
    publicLogs: sketch.publicLogs ?? [],
    noteHashes: sketch.noteHashes ?? [],
  };
}

/** Block `number`, told apart from other blocks of the same number by `version` (its hash differs). */
export function blockWithTxs(number: number, txs: readonly TxSketch[], version = 0): Block {
  const { header } = genesis.block;
  return {
    ...genesis.block,
    hash: hex32(0xb10c_0000_0000n + BigInt(number) * 0x1_0000n + BigInt(version)),
    header: { ...header, globalVariables: { ...header.globalVariables, blockNumber: number } },
    body: { txEffects: txs.map(txEffectOf) },
    checkpointNumber: number,
    indexWithinCheckpoint: 0,
  };
}

function tipsAt(block: Block | undefined): L2Tips {
  const proposed =
    block === undefined ? genesisRef : { number: block.header.globalVariables.blockNumber, hash: block.hash };
  return { ...genesisTips(genesisRef, genesisRef), proposed };
}

/** A chain store with the log indexers registered, a reader over it, and the blocks it holds. */
export interface LogStoreFixture {
  readonly store: ChainStore;
  readonly logs: LogService;
  /** The blocks on the chain, genesis excluded, in order. */
  readonly kept: Block[];
  add(block: Block): Promise<void>;
  /** Removes the blocks above `blockNumber`. */
  pruneTo(blockNumber: number): Promise<void>;
  /** Every key of the store under `prefix`. */
  keysUnder(prefix: string): Promise<string[]>;
}

export async function openLogStore(): Promise<LogStoreFixture> {
  const storage = createMemoryStorage();
  const identity = {
    l1ChainId: 31337,
    rollupAddress: hex32(0xab),
    rollupVersion: 1,
    genesisArchiveRoot: genesis.block.archive.root,
  };
  const store = await ChainStore.open(storage, identity, genesis, genesisTips(genesisRef, genesisRef));
  registerLogIndexers(store);
  const kept: Block[] = [];
  return {
    store,
    logs: createLogReader(store),
    kept,
    add: async (block) => {
      await store.commit({ addBlocks: [{ block, archiveTree: genesis.archiveTree }], tips: tipsAt(block) });
      kept.push(block);
    },
    pruneTo: async (blockNumber) => {
      kept.splice(blockNumber);
      await store.commit({ removeBlocksAbove: blockNumber, tips: tipsAt(kept.at(-1)) });
    },
    keysUnder: async (prefix) => (await storage.keys({ gte: prefix, lt: `${prefix}\uffff` }).all()).map(String),
  };
}
