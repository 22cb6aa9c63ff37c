/**
 * What the world state writes and deletes in its store, and how its reads behave when an unwind or a clear overtakes
 * them: an interrupted clear, keys that are not the world state's, zero values, unwinds and prunes that delete exactly
 * the versions no kept block can read, a corrupted store, and reads redone (or refused) after an unwind.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { MerkleTreeId, WORLD_STATE_READ_ATTEMPTS_MAX } from '../../spec/constants.js';
import type { StoragePort } from '../../core/ports.js';
import { worldStateKeys } from '../../core/worldState/storageLayout.js';
import { WorldState } from '../../core/worldState/worldState.js';
import { hexOf } from './modelCheck.js';
import type { StorageBatchOp } from './worldStateSurvivorFixtures.js';
import {
  EMPTY_EFFECTS,
  SMALL_OPTIONS,
  ZERO,
  applyBlocks,
  blockHashOf,
  dump,
  hookedStorage,
  openSmall,
} from './worldStateSurvivorFixtures.js';

const open = (storage: StoragePort) => WorldState.open(storage, SMALL_OPTIONS);

/** Every stored page version, as `tree:page` -> versions. */
async function pageVersions(storage: StoragePort): Promise<Map<string, number[]>> {
  const versions = new Map<string, number[]>();
  for (const [key] of await dump(storage)) {
    if (!key.startsWith('ws:p:')) continue;
    const [, , tree, page, version] = key.split(':');
    const id = `${tree}:${page}`;
    versions.set(id, [...(versions.get(id) ?? []), parseInt(version!, 16)]);
  }
  return versions;
}

async function expectOnlyExistingKeysDeleted(storage: StoragePort, ops: readonly StorageBatchOp[]): Promise<void> {
  const keys = new Set((await dump(storage)).map(([key]) => key));
  const deleted = ops.filter((op) => op.type === 'del').map((op) => op.key);
  expect(deleted.filter((key) => !keys.has(key))).toEqual([]);
}

describe('world state: clearing', () => {
  it('finishes on reopening a clear that failed after marking the store', async () => {
    const base = createMemoryStorage();
    const engine = await open(base);
    const genesis = await dump(base);
    await applyBlocks(engine, 2);
    let failing = true;
    const flaky = new Proxy(base, {
      get(target, prop) {
        if (prop === 'clear' && failing) return () => Promise.reject(new Error('disk unplugged'));
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const onFlaky = await open(flaky);
    await expect(onFlaky.clear()).rejects.toThrow('disk unplugged');
    failing = false;
    const reopened = await open(base);
    expect(reopened.latestBlockNumber).toBe(0);
    expect(await dump(base)).toEqual(genesis);
  });

  it("keeps the keys that are not the world state's", async () => {
    const storage = createMemoryStorage();
    await storage.put('chain:tips', '7');
    await storage.put('a', '1');
    const engine = await open(storage);
    const genesis = await dump(storage);
    await applyBlocks(engine, 2);
    await engine.clear();
    expect(await dump(storage)).toEqual(genesis);
    expect([await storage.get('chain:tips'), await storage.get('a')]).toEqual(['7', '1']);
  });
});

describe('world state: what a block writes', () => {
  it('stores no value key for zero note hashes, messages or block hash, and no undo journal for genesis', async () => {
    const engine = await open(createMemoryStorage());
    const zeros = { txs: [{ noteHashes: [ZERO], nullifiers: [], publicDataWrites: [] }], l1ToL2Messages: [ZERO] };
    const prepared = (await engine.prepareBlock(1, zeros)).finish(ZERO);
    const valueKeys = prepared.ops.map((op) => op.key).filter((key) => key.startsWith('ws:i:'));
    expect(valueKeys).toEqual([]);
    await prepared.commit();
    expect(await engine.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, 1, 0n)).toBe(ZERO);
    const genesis = await open(createMemoryStorage());
    expect(genesis.latestBlockNumber).toBe(0);
    const storage = createMemoryStorage();
    await open(storage);
    expect(await storage.get(worldStateKeys.journal(0))).toBeUndefined();
  });
});

describe('world state: unwinding and pruning', () => {
  it('unwinds with deletes of existing world-state keys only, and a store as it was', async () => {
    const storage = createMemoryStorage();
    const engine = await open(storage);
    await applyBlocks(engine, 1);
    const atOne = await dump(storage);
    await applyBlocks(engine, 3);
    const prepared = await engine.prepareUnwind(1);
    expect(prepared.ops.every((op) => op.key.startsWith('ws:'))).toBe(true);
    await expectOnlyExistingKeysDeleted(storage, prepared.ops as StorageBatchOp[]);
    await prepared.commit();
    expect(await dump(storage)).toEqual(atOne);
  });

  it('prunes every page version no kept block can read, deleting only existing keys, and keeps the rest', async () => {
    const hooked = hookedStorage();
    const engine = await open(hooked.storage);
    await applyBlocks(engine, 4);
    const answers = async (e: WorldState) =>
      Promise.all([2, 3, 4].map(async (b) => [e.getStateReference(b), await e.getPublicDataWitness(b, hexOf(7n))]));
    const kept = await answers(engine);
    const before = await dump(hooked.storage);
    const batches = hooked.record();
    await engine.pruneHistoryBefore(2);
    const deleted = batches.flat();
    const existing = new Set(before.map(([key]) => key));
    expect(deleted.filter((op) => op.type === 'del' && !existing.has(op.key))).toEqual([]);
    for (const [page, versions] of await pageVersions(hooked.storage))
      expect([page, versions.filter((v) => v <= 2).length <= 1]).toEqual([page, true]);
    const summaries = (await dump(hooked.storage)).filter(([key]) => key.startsWith('ws:b:')).map(([key]) => key);
    expect(summaries).toEqual([2, 3, 4].map(worldStateKeys.summary));
    const reopened = await open(hooked.storage);
    expect([reopened.oldestBlockNumber, await answers(reopened)]).toEqual([2, kept]);
  });

  it('treats a prune before an already pruned block as done', async () => {
    const engine = await open(createMemoryStorage());
    await applyBlocks(engine, 3);
    await engine.pruneHistoryBefore(2);
    await engine.pruneHistoryBefore(1);
    await engine.pruneHistoryBefore(2);
    expect(engine.oldestBlockNumber).toBe(2);
  });

  it('reloads the inserted keys on reopening: nullifiers and slots are found as before', async () => {
    const storage = createMemoryStorage();
    const engine = await open(storage);
    await applyBlocks(engine, 2);
    const ask = async (e: WorldState) => [
      await e.getNullifierMembershipWitness(2, hexOf(1_100n)),
      await e.getLowNullifierMembershipWitness(2, hexOf(1_101n)),
      await e.getPublicDataValue(2, hexOf(1_001n)),
    ];
    const before = await ask(engine);
    expect(before[0]).not.toBeNull();
    expect(await ask(await open(storage))).toEqual(before);
  });
});

describe('world state: a corrupted store', () => {
  it('names the missing record: a kept summary on opening, a journal or inserted keys on unwinding', async () => {
    const storage = createMemoryStorage();
    const engine = await open(storage);
    await applyBlocks(engine, 3);
    const journal = (await storage.get(worldStateKeys.journal(3)))!;
    await storage.del(worldStateKeys.journal(3));
    await expect(engine.unwindTo(2)).rejects.toThrow('the journal of block 3 is stored');
    await storage.put(worldStateKeys.journal(3), journal);
    await storage.del(worldStateKeys.insertedKeys(3));
    await expect(engine.unwindTo(2)).rejects.toThrow('the inserted keys of block 3 are stored');
    await storage.del(worldStateKeys.summary(1));
    await expect(open(storage)).rejects.toThrow('the summary of kept block 1 is stored');
  });
});

describe('world state: reads overtaken by unwinds', () => {
  it('redoes a read that an unwind overtook once, and gives up after repeated ones', async () => {
    const hooked = hookedStorage();
    await applyBlocks(await open(hooked.storage), 3);
    // No page of a past block is kept in memory: every attempt reads the store, and is overtaken there.
    const engine = await openSmall(hooked.storage, { historicalPageCacheBytesMax: 0 });
    // A leaf alone is one page: one read per attempt.
    const leaf = () => engine.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, 1, 0n);
    hooked.afterNextSeek(() => engine.unwindTo(3));
    expect(await leaf()).toBe(hexOf(101n));
    hooked.afterEverySeek(() => engine.unwindTo(3));
    await expect(leaf()).rejects.toMatchObject({
      code: 'WORLD_STATE_READ_INTERRUPTED',
      message: `a read as of block 1 was overtaken ${WORLD_STATE_READ_ATTEMPTS_MAX} times by unwinds; retry`,
      details: { block: 1, attempt: WORLD_STATE_READ_ATTEMPTS_MAX },
    });
    hooked.stop();
  });

  it('keeps no page read before an unwind that replaced the latest block', async () => {
    const hooked = hookedStorage();
    await applyBlocks(await open(hooked.storage), 2);
    const engine = await open(hooked.storage);
    // The read finds block 2's version of slot 7's page; block 2 is then replaced by one that leaves the slot alone.
    hooked.afterNextSeek(async () => {
      await engine.unwindTo(1);
      await (await engine.prepareBlock(2, EMPTY_EFFECTS)).finish(blockHashOf(2, 1)).commit();
    });
    expect(await engine.getPublicDataValue(2, hexOf(7n))).toBe(hexOf(2n));
    expect(await engine.getPublicDataValue(2, hexOf(7n))).toBe(hexOf(2n));
  });

  it('keeps no past page read before an unwind that replaced that block', async () => {
    const hooked = hookedStorage();
    await applyBlocks(await open(hooked.storage), 2);
    const engine = await openSmall(hooked.storage, { pageCachePagesMax: 1 });
    hooked.afterNextSeek(async () => {
      await engine.unwindTo(0);
      await applyBlocks(engine, 2, 1);
    });
    const replaced = hexOf(1_000_002n);
    expect(await engine.getPublicDataValue(1, hexOf(7n))).toBe(replaced);
    expect(await engine.getPublicDataValue(1, hexOf(7n))).toBe(replaced);
  });

  it('keeps no page that a block read before its parent as that of a later block', async () => {
    const storage = createMemoryStorage();
    await applyBlocks(await open(storage), 1);
    const engine = await openSmall(storage, { pageCachePagesMax: 1 });
    await applyBlocks(engine, 3);
    for (const block of [1, 2, 3])
      expect(await engine.getPublicDataValue(block, hexOf(7n))).toBe(hexOf(BigInt(block + 1)));
  });

  it('answers BLOCK_UNKNOWN for a lookup as of a block that an unwind removed meanwhile', async () => {
    const hooked = hookedStorage();
    const engine = await open(hooked.storage);
    await applyBlocks(engine, 2);
    hooked.afterNextSeek(() => engine.unwindTo(1));
    await expect(engine.findLeafIndices(MerkleTreeId.NOTE_HASH_TREE, 2, [hexOf(201n)])).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_UNKNOWN',
      details: { block: 2, latest: 1 },
    });
  });
});
