import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { Hex } from '../../spec/chain.js';
import { MerkleTreeId } from '../../spec/constants.js';
import {
  applyBlocks,
  dump,
  effectsOf,
  blockHashOf,
  openSmall,
} from '../../test/worldState/worldStateSurvivorFixtures.js';
import type { StoragePort } from '../ports.js';
import type { KeyPlacement } from '../merkle/sortedKeyIndex.js';
import type { IndexedTreeId, NextOfLeaf } from './indexedKeys.js';
import { IndexedKeys } from './indexedKeys.js';
import type { InsertedKeys } from './storageLayout.js';
import { WORLD_STATE_FORMAT_KEYS_ON_DISK, WORLD_STATE_FORMAT_VERSION } from './storageLayout.js';

const NULLIFIERS = MerkleTreeId.NULLIFIER_TREE;
const SLOTS = MerkleTreeId.PUBLIC_DATA_TREE;
const keyHex = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** Keys as two IndexedKeys would hold them: one in memory, one in storage, fed the same blocks. */
class Pair {
  readonly memory: IndexedKeys;
  readonly stored: IndexedKeys;
  private readonly blocks: InsertedKeys[] = [];
  private leaves = [0, 0];
  /** Each tree's keys by leaf index, to answer where a leaf points as the tree would. */
  private readonly keyAtLeaf = [new Map<number, Hex>(), new Map<number, Hex>()];

  constructor(
    readonly storage: StoragePort,
    memoryKeysMax = 0,
  ) {
    this.memory = new IndexedKeys(createMemoryStorage(), Number.MAX_SAFE_INTEGER);
    this.stored = new IndexedKeys(storage, memoryKeysMax);
  }

  /** Sizes of the two trees after each block so far. */
  readonly sizes: [number, number][] = [];

  async insert(nullifiers: readonly number[], slots: readonly number[]): Promise<void> {
    const block = this.blocks.length;
    const placed = (keys: readonly number[], tree: 0 | 1) =>
      keys.map((key) => [keyHex(key), this.leaves[tree]!++] as const);
    const inserted: InsertedKeys = { nullifier: placed(nullifiers, 0), publicData: placed(slots, 1) };
    for (const keys of [this.memory, this.stored]) {
      const insertion = keys.insertion(inserted, block);
      await this.storage.batch([...insertion.ops] as { type: 'put'; key: string; value: string }[]);
      keys.applyInsertion(inserted, block, insertion);
    }
    this.blocks.push(inserted);
    this.sizes.push([this.leaves[0]!, this.leaves[1]!]);
    for (const [key, leaf] of inserted.nullifier) this.keyAtLeaf[0]!.set(leaf, key);
    for (const [key, leaf] of inserted.publicData) this.keyAtLeaf[1]!.set(leaf, key);
  }

  /** Where a leaf of the latest tree points: the next larger key, as the memory index has it. */
  nextOf(tree: IndexedTreeId): NextOfLeaf {
    return async (leafIndex) => {
      const key = this.keyAtLeaf[tree === NULLIFIERS ? 0 : 1]!.get(leafIndex)!;
      const index = this.memory.forPlanning(
        tree,
        () => [],
        Number.MAX_SAFE_INTEGER,
        () => this.nextOf(tree),
      );
      const whole = (await index).successor(key);
      return whole === undefined ? undefined : [whole[0], whole[1].leafIndex];
    };
  }

  async unwind(count: number): Promise<void> {
    const unwound = this.blocks.splice(this.blocks.length - count);
    this.sizes.splice(this.sizes.length - count);
    this.leaves = this.sizes.at(-1) ?? [0, 0];
    for (const keys of [this.memory, this.stored]) {
      for (const block of unwound) {
        await this.storage.batch([...keys.unwindOps(block)] as { type: 'put'; key: string; value: string }[]);
        keys.applyUnwind(block);
      }
    }
  }
}

const sizeOf = (pair: Pair, block: number, tree: IndexedTreeId) => pair.sizes[block]![tree === NULLIFIERS ? 0 : 1]!;

/** Every lookup of `probes` as of every block answers the same from memory and from storage. */
async function expectSameAnswers(pair: Pair, probes: readonly number[]): Promise<void> {
  for (let block = 0; block < pair.sizes.length; block++) {
    for (const tree of [NULLIFIERS, SLOTS] as const) {
      const size = sizeOf(pair, block, tree);
      for (const probe of probes) {
        const key = keyHex(probe);
        expect(await pair.stored.find(tree, key, size)).toEqual(pair.memory.find(tree, key, size));
        expect(await pair.stored.below(tree, key, size)).toEqual(pair.memory.below(tree, key, size));
      }
    }
  }
}

/** A block plan's lookups of `probes` against the latest keys answer the same from either index. */
async function expectSamePlanning(pair: Pair, probes: readonly number[]): Promise<void> {
  const latest = pair.sizes.length - 1;
  for (const tree of [NULLIFIERS, SLOTS] as const) {
    const keys = probes.map(keyHex);
    const size = sizeOf(pair, latest, tree);
    const whole = await pair.memory.forPlanning(
      tree,
      () => keys,
      size,
      () => pair.nextOf(tree),
    );
    const planning = await pair.stored.forPlanning(
      tree,
      () => keys,
      size,
      () => pair.nextOf(tree),
    );
    for (const key of keys) {
      expect(planning.get(key)).toEqual(whole.get(key));
      // A key already there is updated (or refused as a duplicate): only a new key needs its neighbours.
      if (whole.get(key) !== undefined) continue;
      const low = whole.predecessor(key);
      expect(planning.predecessor(key)).toEqual(low);
      // A successor is known from its low leaf's pointer: its key and leaf, not its block.
      const leafOf = (entry: [Hex, KeyPlacement] | undefined) => entry && [entry[0], entry[1].leafIndex];
      if (low !== undefined) expect(leafOf(planning.successor(low[0]))).toEqual(leafOf(whole.successor(low[0])));
    }
  }
}

const blockArbitrary = fc.record({
  nullifiers: fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 6 }),
  slots: fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 6 }),
});

describe('indexed keys in memory and in storage', () => {
  it('answer every lookup alike, as of every block, through unwinds and across a move to storage', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(blockArbitrary, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(0, 10, 40),
        fc.uniqueArray(fc.integer({ min: 0, max: 420 }), { minLength: 1, maxLength: 12 }),
        async (blocks, unwound, memoryKeysMax, probes) => {
          const pair = new Pair(createMemoryStorage(), memoryKeysMax);
          // Key 0 is every key's low leaf, as the genesis leaves are; keys stay distinct across blocks.
          const seen = new Set<string>();
          const fresh = (keys: readonly number[], tree: string) =>
            keys.filter((key) => !seen.has(`${tree}${key}`) && seen.add(`${tree}${key}`));
          await pair.insert([0], [0]);
          for (const block of blocks) await pair.insert(fresh(block.nullifiers, 'n'), fresh(block.slots, 's'));
          await expectSameAnswers(pair, probes);
          await expectSamePlanning(pair, probes);
          await pair.unwind(Math.min(unwound, blocks.length));
          await expectSameAnswers(pair, probes);
          await expectSamePlanning(pair, probes);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('walk past keys inserted after the block they are asked about, across several storage seeks', async () => {
    const pair = new Pair(createMemoryStorage());
    await pair.insert([0, 1000], [0]);
    // 30 keys between 0 and 1000 in a later block: a lookup as of block 0 walks past all of them.
    await pair.insert(
      Array.from({ length: 30 }, (_, i) => 100 + i),
      [],
    );
    expect(await pair.stored.below(NULLIFIERS, keyHex(500), 2)).toEqual({ leafIndex: 0, blockNumber: 0 });
    expect(await pair.stored.below(NULLIFIERS, keyHex(500), 32)).toEqual({ leafIndex: 31, blockNumber: 1 });
    const planning = await pair.stored.forPlanning(
      NULLIFIERS,
      () => [keyHex(50)],
      2,
      () => async (leafIndex) => {
        expect(leafIndex).toBe(0);
        return [keyHex(1000), 1];
      },
    );
    expect(planning.predecessor(keyHex(50))).toEqual([keyHex(0), { leafIndex: 0, blockNumber: 0 }]);
    expect(planning.successor(keyHex(0))).toEqual([keyHex(1000), { leafIndex: 1, blockNumber: -1 }]);
  });

  it('count only keys in memory, and write nothing while under the bound', async () => {
    const keys = new IndexedKeys(createMemoryStorage(), 3);
    const block: InsertedKeys = { nullifier: [[keyHex(1), 0]], publicData: [[keyHex(2), 0]] };
    const under = keys.insertion(block, 0);
    expect(under).toEqual({ ops: [], movesToStorage: false });
    keys.applyInsertion(block, 0, under);
    expect([keys.memoryKeys, keys.inStorage]).toEqual([2, false]);
    const over = keys.insertion({ nullifier: [[keyHex(3), 1]], publicData: [[keyHex(4), 1]] }, 1);
    expect(over.movesToStorage).toBe(true);
    expect(over.ops.map((op) => op.key)).toEqual([
      `ws:x:0:${'0'.repeat(63)}1`,
      `ws:x:2:${'0'.repeat(63)}2`,
      `ws:x:0:${'0'.repeat(63)}3`,
      `ws:x:2:${'0'.repeat(63)}4`,
    ]);
    keys.applyInsertion({ nullifier: [[keyHex(3), 1]], publicData: [[keyHex(4), 1]] }, 1, over);
    expect([keys.memoryKeys, keys.inStorage]).toEqual([0, true]);
    // Once in storage, a block writes its own keys' records only, and moves nothing.
    const after = keys.insertion({ nullifier: [[keyHex(5), 2]], publicData: [] }, 2);
    expect(after).toEqual({
      ops: [{ type: 'put', key: `ws:x:0:${'0'.repeat(63)}5`, value: '2:2' }],
      movesToStorage: false,
    });
  });

  it('refuse a bound that is not a count of keys', () => {
    for (const bound of [-1, 1.5, Number.NaN])
      expect(() => new IndexedKeys(createMemoryStorage(), bound)).toThrow(/count of keys/);
  });

  it('refuse a stored placement that does not decode, naming it', async () => {
    const storage = createMemoryStorage();
    const keys = new IndexedKeys(storage, 0, true);
    for (const bad of ['12', ':3', 'x:3', '4:y'])
      await storage.put(`ws:x:0:${'0'.repeat(63)}7`, bad).then(async () => {
        await expect(keys.find(NULLIFIERS, keyHex(7), 10)).rejects.toThrow(/stored key placement/);
      });
  });
});

describe('moving many keys', () => {
  it('moves more keys than a call takes arguments, in the one block that passes the bound', async () => {
    const storage = createMemoryStorage();
    const count = 200_000;
    const keys = new IndexedKeys(storage, count);
    const first: InsertedKeys = {
      nullifier: Array.from({ length: count }, (_, i) => [keyHex(i + 1), i] as const),
      publicData: [],
    };
    keys.applyInsertion(first, 0, keys.insertion(first, 0));
    const next: InsertedKeys = { nullifier: [[keyHex(count + 1), count]], publicData: [] };
    const moving = keys.insertion(next, 1);
    expect([moving.ops.length, moving.movesToStorage]).toEqual([count + 1, true]);
    await storage.batch([...moving.ops] as { type: 'put'; key: string; value: string }[]);
    keys.applyInsertion(next, 1, moving);
    expect(await keys.find(NULLIFIERS, keyHex(77), count + 1)).toEqual({ leafIndex: 76, blockNumber: 0 });
    expect(await keys.below(NULLIFIERS, keyHex(count + 5), count + 1)).toEqual({ leafIndex: count, blockNumber: 1 });
  }, 60_000);
});

describe('the world state past its key bound', () => {
  const countRecords = async (storage: StoragePort) =>
    (await dump(storage)).filter(([key]) => key.startsWith('ws:x:')).length;
  const formatOf = async (storage: StoragePort) =>
    (JSON.parse((await storage.get('ws:meta'))!) as { format: number }).format;

  it('moves every key to storage in the block that passes the bound, and keeps them there', async () => {
    const storage = createMemoryStorage();
    // Genesis holds 9 keys, block 1 adds 3, each later block 2: block 3 passes 14.
    const engine = await openSmall(storage, { keyIndexMemoryKeysMax: 14 });
    await applyBlocks(engine, 2);
    expect([await formatOf(storage), await countRecords(storage)]).toEqual([WORLD_STATE_FORMAT_VERSION, 0]);
    await applyBlocks(engine, 3);
    expect([await formatOf(storage), await countRecords(storage)]).toEqual([WORLD_STATE_FORMAT_KEYS_ON_DISK, 16]);
    await engine.unwindTo(1);
    expect([await formatOf(storage), await countRecords(storage)]).toEqual([WORLD_STATE_FORMAT_KEYS_ON_DISK, 12]);
    const reopened = await openSmall(storage);
    await applyBlocks(reopened, 4, 1);
    expect(await countRecords(storage)).toBe(18);
    const nullifier = effectsOf(4, 1).txs[0]!.nullifiers[0]!;
    // Nullifier leaves: 4 of genesis, then 4 per block's tx (blocks 1 to 3 before block 4).
    expect((await reopened.getNullifierMembershipWitness(4, nullifier))?.index).toBe(16n);
    expect(await reopened.getNullifierMembershipWitness(3, nullifier)).toBeNull();
  });

  /** A store of 3 blocks (16 keys) kept in memory, and the engine that opens it with `bound`. */
  const reopenedWithBound = async (bound: number) => {
    const storage = createMemoryStorage();
    await applyBlocks(await openSmall(storage), 3);
    return { storage, engine: await openSmall(storage, { keyIndexMemoryKeysMax: bound }) };
  };

  it('keeps the keys of a store reopened within its bound in memory', async () => {
    const { storage, engine: reopened } = await reopenedWithBound(16);
    expect(reopened.keyIndex).toEqual({ memoryKeys: 16, inStorage: false });
    expect([await formatOf(storage), await countRecords(storage)]).toEqual([WORLD_STATE_FORMAT_VERSION, 0]);
  });

  it('moves the keys of a store opened with a lower bound, and refuses a duplicate from storage', async () => {
    const { storage, engine } = await reopenedWithBound(15);
    expect(engine.keyIndex).toEqual({ memoryKeys: 0, inStorage: true });
    expect([await formatOf(storage), await countRecords(storage)]).toEqual([WORLD_STATE_FORMAT_KEYS_ON_DISK, 16]);
    await expect(engine.prepareBlock(4, effectsOf(2))).rejects.toMatchObject({
      code: 'WORLD_STATE_DUPLICATE_NULLIFIER',
    });
    const draft = await engine.prepareBlock(4, effectsOf(4));
    await draft.finish(blockHashOf(4)).commit();
    expect(engine.latestBlockNumber).toBe(4);
  });
});
