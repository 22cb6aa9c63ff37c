/**
 * Fixtures of the focused world-state tests (worldStateSurvivors*.test.ts): small trees, a few blocks, and a store
 * whose page reads can be made to wait for something else to happen first (an unwind, a clear), to reproduce races.
 */
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { Hex } from '../../spec/chain.js';
import type { StoragePort } from '../../core/ports.js';
import type { BlockStateEffects } from '../../core/worldState/blockEffects.js';
import type { WorldStateOptions } from '../../core/worldState/worldStateConfig.js';
import { WorldState } from '../../core/worldState/worldState.js';
import { hexOf } from './modelCheck.js';

export const SMALL_OPTIONS: WorldStateOptions = {
  genesisBlockHash: hexOf(0x9e9e515n),
  treeHeights: { nullifier: 8, noteHash: 8, publicData: 8, l1ToL2Message: 3, archive: 4 },
  txSubtreeHeight: 2,
  pageHeight: 2,
};

export const ZERO: Hex = hexOf(0n);

/** Block n's effects (`seed` varies them): one tx with a note hash, a nullifier and two slot writes, one message. */
export function effectsOf(n: number, seed = 0): BlockStateEffects {
  const s = BigInt(seed * 1_000_000);
  return {
    txs: [
      {
        noteHashes: [hexOf(s + BigInt(n * 100 + 1))],
        nullifiers: [hexOf(s + BigInt(n * 1_000 + 100))],
        publicDataWrites: [
          { leafSlot: hexOf(7n), value: hexOf(s + BigInt(n + 1)) },
          { leafSlot: hexOf(BigInt(1_000 + n)), value: hexOf(BigInt(n + 1)) },
        ],
      },
    ],
    l1ToL2Messages: [hexOf(s + BigInt(5_000 + n))],
  };
}

export const EMPTY_EFFECTS: BlockStateEffects = { txs: [], l1ToL2Messages: [] };

export const blockHashOf = (n: number, seed = 0): Hex => hexOf(BigInt(0xb10c0000 + n + seed * 1_000));

/** Applies blocks up to `upTo`, each with `effectsOf(n, seed)`. */
export async function applyBlocks(engine: WorldState, upTo: number, seed = 0): Promise<void> {
  for (let n = engine.latestBlockNumber + 1; n <= upTo; n++)
    await (await engine.prepareBlock(n, effectsOf(n, seed))).finish(blockHashOf(n, seed)).commit();
}

export async function dump(store: StoragePort): Promise<[string, string][]> {
  return store.iterator({ gte: 'ws:', lt: 'ws;' }).all();
}

export interface HookedStorage {
  readonly storage: StoragePort;
  /** Runs once `hook` after the next seek got its answer from the store, before the reader sees it. */
  afterNextSeek(hook: () => Promise<void>): void;
  /** Runs `hook` after every seek, until `stop`. */
  afterEverySeek(hook: () => Promise<void>): void;
  stop(): void;
  /** Every batch written since `record` (to see what a prune deletes). */
  record(): StorageBatchOp[][];
}

export type StorageBatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** A memory store whose seeks (page reads and lookups by value: the iterators with a limit) can be followed by a hook. */
export function hookedStorage(base: StoragePort = createMemoryStorage()): HookedStorage {
  let hook: { run: () => Promise<void>; once: boolean } | undefined;
  let batches: StorageBatchOp[][] | undefined;
  const iterator = (options: { limit?: number }) => {
    const inner = base.iterator(options);
    if (options.limit === undefined) return inner;
    return {
      all: async () => {
        const rows = await inner.all();
        const current = hook;
        if (current !== undefined) {
          if (current.once) hook = undefined;
          await current.run();
        }
        return rows;
      },
    };
  };
  const batch = (ops: StorageBatchOp[]) => {
    batches?.push([...ops]);
    return base.batch(ops);
  };
  const storage = new Proxy(base, {
    get(target, prop) {
      if (prop === 'iterator') return iterator;
      if (prop === 'batch') return batch;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    storage,
    afterNextSeek: (run) => {
      hook = { run, once: true };
    },
    afterEverySeek: (run) => {
      hook = { run, once: false };
    },
    stop: () => {
      hook = undefined;
    },
    record: () => (batches = []),
  };
}

export const openSmall = (storage: StoragePort, options: Partial<WorldStateOptions> = {}): Promise<WorldState> =>
  WorldState.open(storage, { ...SMALL_OPTIONS, ...options });
