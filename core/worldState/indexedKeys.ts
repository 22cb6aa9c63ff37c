/**
 * The keys of the two indexed trees (nullifiers, public data leaf slots) in sorted order, each with its leaf index
 * and the block that inserted it: what a block needs to find its low leaves, and what queries need to find a key or
 * the leaf just below it.
 *
 * Where they live:
 * - in memory (core/merkle/sortedKeyIndex.ts) while both trees together hold at most a bound of keys; storage keeps
 *   one record per block (`ws:k:<block>`, the block's inserted keys) that rebuilds them when the engine opens. In this
 *   mode every lookup answers synchronously: the simulator and small chains never wait on storage for one.
 * - in storage, one record per key (`ws:x:<tree>:<key>` -> "<leafIndex>:<block>"), once a block takes them past the
 *   bound: that block's batch writes every key's record and marks the store's format (WORLD_STATE_FORMAT_KEYS_ON_DISK).
 *   They stay there, whatever unwinds follow; memory then holds none, and lookups seek storage.
 *
 * A lookup as of a past block takes the tree's size then: keys only ever get new leaves past the size, so a key at or
 * past it was inserted later. Answers are the same in both modes (the contract in indexedKeys.test.ts).
 */
import type { Hex } from '../../spec/chain.js';
import { MerkleTreeId } from '../../spec/constants.js';
import { assert } from '../assert.js';
import type { KeyPlacement } from '../merkle/sortedKeyIndex.js';
import { SortedKeyIndex } from '../merkle/sortedKeyIndex.js';
import type { StoragePort } from '../ports.js';
import type { InsertedKeys, StorageOperation } from './storageLayout.js';
import { blockOfKey, worldStateKeys as KEY } from './storageLayout.js';

export type MaybePromise<T> = T | Promise<T>;
export type IndexedTreeId = typeof MerkleTreeId.NULLIFIER_TREE | typeof MerkleTreeId.PUBLIC_DATA_TREE;

/**
 * Keys read by the first storage seek of a walk past keys inserted after the block a lookup is as of; each further
 * seek reads NEIGHBOUR_SEEK_GROWTH times more, up to NEIGHBOUR_SEEK_KEYS_MAX, so a walk over n later keys takes
 * about log(n) seeks (a lookup as of an old block may pass most keys of the tree).
 */
const NEIGHBOUR_SEEK_KEYS = 8;
const NEIGHBOUR_SEEK_GROWTH = 8;
const NEIGHBOUR_SEEK_KEYS_MAX = 4_096;
/**
 * The block of a key a plan knows only from its low leaf's `next` pointer (the tree has no record of it at hand): a
 * block plan reads keys and leaf indexes only.
 */
const BLOCK_NOT_READ = -1;

/** The key and leaf index a leaf's `next` points to as of the latest block; undefined past the largest key. */
export type NextOfLeaf = (leafIndex: number) => Promise<readonly [key: Hex, leafIndex: number] | undefined>;

/** Every key a block inserted, with its tree and leaf index. */
function* keysOf(inserted: InsertedKeys): Generator<[IndexedTreeId, Hex, number]> {
  for (const [key, leafIndex] of inserted.nullifier) yield [MerkleTreeId.NULLIFIER_TREE, key, leafIndex];
  for (const [key, leafIndex] of inserted.publicData) yield [MerkleTreeId.PUBLIC_DATA_TREE, key, leafIndex];
}

/** `f` of a value that may still be coming: synchronous when the value is. */
export function thenMaybe<T, U>(value: MaybePromise<T>, f: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** What recording a block's inserted keys writes, and whether it moves the keys to storage. */
export interface KeyInsertion {
  readonly ops: readonly StorageOperation[];
  readonly movesToStorage: boolean;
}

export class IndexedKeys {
  private memory: { nullifier: SortedKeyIndex; publicData: SortedKeyIndex } | undefined;

  /** Keys in memory (storage keeps only the per-block records) unless `inStorage`. */
  constructor(
    private readonly storage: StoragePort,
    private readonly memoryKeysMax: number,
    inStorage = false,
  ) {
    assert(Number.isSafeInteger(memoryKeysMax) && memoryKeysMax >= 0, 'the memory bound is a count of keys');
    this.memory = inStorage ? undefined : { nullifier: new SortedKeyIndex(), publicData: new SortedKeyIndex() };
  }

  get inStorage(): boolean {
    return this.memory === undefined;
  }

  /** Keys held in memory (0 once they are in storage). */
  get memoryKeys(): number {
    return this.memory === undefined ? 0 : this.memory.nullifier.size + this.memory.publicData.size;
  }

  /** The key's placement if the tree held it when it had `size` leaves. */
  find(treeId: IndexedTreeId, key: Hex, size: number): MaybePromise<KeyPlacement | undefined> {
    if (this.memory === undefined) return this.findInStorage(treeId, key, size);
    const placement = this.memoryOf(treeId).get(key);
    return placement !== undefined && placement.leafIndex < size ? placement : undefined;
  }

  /** The largest key below `key` that the tree held when it had `size` leaves. */
  below(treeId: IndexedTreeId, key: Hex, size: number): MaybePromise<KeyPlacement | undefined> {
    if (this.memory === undefined) return this.neighbourInStorage(treeId, key, size).then((n) => n?.[1]);
    return this.memoryOf(treeId).predecessor(key, (placement) => placement.leafIndex < size)?.[1];
  }

  /**
   * An index that answers a block plan's lookups of `keys` (get, predecessor, and the predecessor's successor) as the
   * latest tree, with `size` leaves, would: in memory the tree's own index (`keys` and `nextOf` are not called); from
   * storage, each key found, else the key below it and the one its leaf points to (`nextOf`, from the tree: a storage
   * seek fewer per key). A successor so found has BLOCK_NOT_READ for its block.
   */
  forPlanning(
    treeId: IndexedTreeId,
    keys: () => readonly Hex[],
    size: number,
    nextOf: () => NextOfLeaf,
  ): MaybePromise<SortedKeyIndex> {
    if (this.memory === undefined) return this.neighbourhoodInStorage(treeId, keys(), size, nextOf());
    return this.memoryOf(treeId);
  }

  /**
   * The storage operations that record a block's inserted keys: none while the keys stay in memory; every key's
   * record once they are in storage, or when this block takes them past the bound.
   */
  insertion(inserted: InsertedKeys, block: number): KeyInsertion {
    const count = inserted.nullifier.length + inserted.publicData.length;
    if (this.memory !== undefined && this.memoryKeys + count <= this.memoryKeysMax)
      return { ops: [], movesToStorage: false };
    // Concatenated, not spread into push: moving the keys writes one record for each of them, past any call's argument
    // limit.
    const records = recordsOf(inserted, block);
    const ops = this.memory === undefined ? records : this.memoryRecords().concat(records);
    return { ops, movesToStorage: this.memory !== undefined };
  }

  /** After the batch of `insertion` is committed. */
  applyInsertion(inserted: InsertedKeys, block: number, insertion: KeyInsertion): void {
    if (insertion.movesToStorage) this.memory = undefined;
    if (this.memory === undefined) return;
    for (const [treeId, key, leafIndex] of keysOf(inserted))
      this.memoryOf(treeId).insert(key, { leafIndex, blockNumber: block });
  }

  /** The storage operations that take back the keys an unwound block inserted. */
  unwindOps(inserted: InsertedKeys): StorageOperation[] {
    if (this.memory !== undefined) return [];
    return [...keysOf(inserted)].map(([treeId, key]) => ({ type: 'del', key: KEY.indexedKey(treeId, key) }));
  }

  /** After the batch of `unwindOps` is committed. */
  applyUnwind(inserted: InsertedKeys): void {
    if (this.memory === undefined) return;
    for (const [treeId, key] of keysOf(inserted)) this.memoryOf(treeId).delete(key);
  }

  /** Rebuilds the memory index from the per-block records (keys in memory only). */
  async load(): Promise<void> {
    assert(this.memory !== undefined, 'only keys kept in memory are rebuilt');
    const prefix = KEY.insertedKeysPrefix;
    for await (const [key, value] of this.storage.iterator({ gte: prefix, lt: `${prefix.slice(0, -1)};` })) {
      this.applyInsertion(JSON.parse(value) as InsertedKeys, blockOfKey(key), { ops: [], movesToStorage: false });
    }
  }

  /** Past the bound (say, after it was lowered): the records that move every key to storage, else undefined. */
  overBound(): StorageOperation[] | undefined {
    if (this.memory === undefined || this.memoryKeys <= this.memoryKeysMax) return undefined;
    return this.memoryRecords();
  }

  /** After the batch of `overBound` is committed. */
  movedToStorage(): void {
    this.memory = undefined;
  }

  private memoryOf(treeId: IndexedTreeId): SortedKeyIndex {
    assert(this.memory !== undefined, 'keys in memory');
    return treeId === MerkleTreeId.NULLIFIER_TREE ? this.memory.nullifier : this.memory.publicData;
  }

  private memoryRecords(): StorageOperation[] {
    const ops: StorageOperation[] = [];
    for (const treeId of [MerkleTreeId.NULLIFIER_TREE, MerkleTreeId.PUBLIC_DATA_TREE] as const)
      for (const [key, placement] of this.memoryOf(treeId).entries())
        ops.push({ type: 'put', key: KEY.indexedKey(treeId, key), value: encodePlacement(placement) });
    return ops;
  }

  private async findInStorage(treeId: IndexedTreeId, key: Hex, size: number): Promise<KeyPlacement | undefined> {
    return placementWithin(await this.storage.get(KEY.indexedKey(treeId, key)), size);
  }

  /** `findInStorage` of many keys, in one storage call. */
  private async findManyInStorage(
    treeId: IndexedTreeId,
    keys: readonly Hex[],
    size: number,
  ): Promise<(KeyPlacement | undefined)[]> {
    const values = await this.storage.getMany(keys.map((key) => KEY.indexedKey(treeId, key)));
    return values.map((value) => placementWithin(value, size));
  }

  /** The nearest key below `key` that the tree held with `size` leaves, walking past later ones. */
  private async neighbourInStorage(
    treeId: IndexedTreeId,
    key: Hex,
    size: number,
  ): Promise<[Hex, KeyPlacement] | undefined> {
    const prefix = KEY.indexedKeyPrefix(treeId);
    let from = KEY.indexedKey(treeId, key);
    for (let limit = NEIGHBOUR_SEEK_KEYS; ; limit = Math.min(limit * NEIGHBOUR_SEEK_GROWTH, NEIGHBOUR_SEEK_KEYS_MAX)) {
      const entries = await this.storage.iterator({ gte: prefix, lt: from, reverse: true, limit }).all();
      for (const [storedKey, value] of entries) {
        const placement = decodePlacement(value);
        if (placement.leafIndex < size) return [`0x${storedKey.slice(prefix.length)}` as Hex, placement];
      }
      if (entries.length < limit) return undefined;
      from = entries[entries.length - 1]![0];
    }
  }

  private async neighbourhoodInStorage(
    treeId: IndexedTreeId,
    keys: readonly Hex[],
    size: number,
    nextOf: NextOfLeaf,
  ): Promise<SortedKeyIndex> {
    const distinct = [...new Set(keys)];
    const exact = await this.findManyInStorage(treeId, distinct, size);
    const missing = distinct.filter((_, i) => exact[i] === undefined);
    const below = await Promise.all(missing.map((key) => this.neighbourInStorage(treeId, key, size)));
    const lows = new Map<Hex, KeyPlacement>();
    for (const low of below) if (low !== undefined) lows.set(...low);
    const successors = await Promise.all([...lows.values()].map((low) => nextOf(low.leafIndex)));
    const index = new SortedKeyIndex();
    const add = (key: Hex, placement: KeyPlacement): void => {
      if (index.get(key) === undefined) index.insert(key, placement);
    };
    distinct.forEach((key, i) => {
      if (exact[i] !== undefined) add(key, exact[i]);
    });
    for (const [key, placement] of lows) add(key, placement);
    for (const next of successors)
      if (next !== undefined) add(next[0], { leafIndex: next[1], blockNumber: BLOCK_NOT_READ });
    return index;
  }
}

function recordsOf(inserted: InsertedKeys, block: number): StorageOperation[] {
  return [...keysOf(inserted)].map(([treeId, key, leafIndex]) => ({
    type: 'put',
    key: KEY.indexedKey(treeId, key),
    value: encodePlacement({ leafIndex, blockNumber: block }),
  }));
}

/** A stored placement, if there is one and the tree held it when it had `size` leaves. */
function placementWithin(value: string | undefined, size: number): KeyPlacement | undefined {
  if (value === undefined) return undefined;
  const placement = decodePlacement(value);
  return placement.leafIndex < size ? placement : undefined;
}

const encodePlacement = (placement: KeyPlacement): string => `${placement.leafIndex}:${placement.blockNumber}`;

function decodePlacement(value: string): KeyPlacement {
  const colon = value.indexOf(':');
  const leafIndex = Number(value.slice(0, colon));
  const blockNumber = Number(value.slice(colon + 1));
  assert(colon > 0 && Number.isSafeInteger(leafIndex) && Number.isSafeInteger(blockNumber), 'a stored key placement');
  return { leafIndex, blockNumber };
}
