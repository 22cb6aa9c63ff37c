/**
 * A naive world state for the property test: every tree a plain array of leaves per block, roots and sibling paths
 * recomputed from scratch for every question, indexed-tree insertions one at a time by linear search. Shares no code
 * with the engine (its hash is the witness verifier's, written from docs/protocol.md).
 */
import { genesisPublicData } from '../../spec/genesis.js';
import { field32, hashFields, toHex, type PathWitness } from './witnessVerifier.js';

type Hex = `0x${string}`;

export interface ModelHeights {
  readonly nullifier: number;
  readonly noteHash: number;
  readonly publicData: number;
  readonly l1ToL2Message: number;
  readonly archive: number;
}

export interface ModelIndexedLeaf {
  readonly key: bigint;
  value: bigint;
  nextKey: bigint;
  nextIndex: number;
}

export interface ModelTxEffects {
  readonly noteHashes: readonly bigint[];
  readonly nullifiers: readonly bigint[];
  readonly publicDataWrites: readonly { readonly slot: bigint; readonly value: bigint }[];
}

/** Everything after one block; leaves carry the block that inserted them. */
export interface ModelState {
  readonly noteHashes: { value: bigint; block: number }[];
  readonly messages: { value: bigint; block: number }[];
  readonly archive: { value: bigint; block: number }[];
  /** null: a padding leaf of a tx's nullifier subtree. */
  readonly nullifiers: ({ leaf: ModelIndexedLeaf; block: number } | null)[];
  readonly publicData: { leaf: ModelIndexedLeaf; block: number }[];
}

export class DuplicateNullifier extends Error {}

const ZERO_HEX = toHex(new Uint8Array(32));

export function nullifierHash(leaf: ModelIndexedLeaf): Hex {
  return hashFields([leaf.key, leaf.nextKey, BigInt(leaf.nextIndex)]);
}

export function publicDataHash(leaf: ModelIndexedLeaf): Hex {
  return hashFields([leaf.key, leaf.value, leaf.nextKey, BigInt(leaf.nextIndex)]);
}

/** Empty subtree roots, from scratch. */
function emptyRoots(height: number): Hex[] {
  const roots: Hex[] = [ZERO_HEX];
  for (let level = 1; level <= height; level++) roots.push(hashFields([roots[level - 1]!, roots[level - 1]!]));
  return roots;
}

/** Every non-empty node of the tree, level by level (level 0 = leaves). */
function layers(height: number, leaves: readonly Hex[]): Map<number, Hex>[] {
  const empty = emptyRoots(height);
  const result: Map<number, Hex>[] = [new Map()];
  leaves.forEach((leaf, i) => {
    if (leaf !== ZERO_HEX) result[0]!.set(i, leaf);
  });
  for (let level = 0; level < height; level++) {
    const below = result[level]!;
    const above = new Map<number, Hex>();
    for (const index of below.keys()) {
      const parent = Math.floor(index / 2);
      if (above.has(parent)) continue;
      above.set(
        parent,
        hashFields([below.get(parent * 2) ?? empty[level]!, below.get(parent * 2 + 1) ?? empty[level]!]),
      );
    }
    result.push(above);
  }
  return result;
}

/** A tree recomputed from scratch from its leaves: its root and any sibling path. */
export interface ModelTree {
  readonly root: Hex;
  siblingPath(leafIndex: number): PathWitness;
}

export function modelTree(height: number, leaves: readonly Hex[]): ModelTree {
  const empty = emptyRoots(height);
  const all = layers(height, leaves);
  return {
    root: all[height]!.get(0) ?? empty[height]!,
    siblingPath(leafIndex) {
      const siblingPath: Hex[] = [];
      let index = leafIndex;
      for (let level = 0; level < height; level++) {
        siblingPath.push(all[level]!.get(index % 2 === 0 ? index + 1 : index - 1) ?? empty[level]!);
        index = Math.floor(index / 2);
      }
      return { leafIndex: BigInt(leafIndex), siblingPath };
    },
  };
}

export function leafHashes(
  state: ModelState,
): Record<'nullifier' | 'noteHash' | 'publicData' | 'l1ToL2Message' | 'archive', Hex[]> {
  const plain = (entries: readonly { value: bigint }[]): Hex[] => entries.map((e) => toHex(field32(e.value)));
  return {
    nullifier: state.nullifiers.map((e) => (e === null ? ZERO_HEX : nullifierHash(e.leaf))),
    noteHash: plain(state.noteHashes),
    publicData: state.publicData.map((e) => publicDataHash(e.leaf)),
    l1ToL2Message: plain(state.messages),
    archive: plain(state.archive),
  };
}

function cloneState(state: ModelState): ModelState {
  const cloneLeaf = <T extends { leaf: ModelIndexedLeaf } | null>(e: T): T =>
    e === null ? e : ({ ...e, leaf: { ...e.leaf } } as T);
  return {
    noteHashes: state.noteHashes.map((e) => ({ ...e })),
    messages: state.messages.map((e) => ({ ...e })),
    archive: state.archive.map((e) => ({ ...e })),
    nullifiers: state.nullifiers.map(cloneLeaf),
    publicData: state.publicData.map(cloneLeaf),
  };
}

/** Inserts `key` after its low leaf, found by scanning every leaf. */
function insertLinked(
  leaves: readonly ({ leaf: ModelIndexedLeaf } | null)[],
  key: bigint,
  value: bigint,
  newIndex: number,
): ModelIndexedLeaf {
  let low: ModelIndexedLeaf | undefined;
  for (const entry of leaves)
    if (entry !== null && entry.leaf.key < key && (low === undefined || entry.leaf.key > low.key)) low = entry.leaf;
  if (low === undefined) throw new Error(`no low leaf for ${key}`);
  const leaf = { key, value, nextKey: low.nextKey, nextIndex: low.nextIndex };
  low.nextKey = key;
  low.nextIndex = newIndex;
  return leaf;
}

export class ReferenceWorldState {
  /** State after each block, from genesis; index = block number. */
  readonly blocks: ModelState[] = [];
  oldest = 0;

  constructor(
    readonly heights: ModelHeights,
    readonly subtreeLeaves: number,
    genesisHash: bigint,
  ) {
    const nullifiers = Array.from({ length: subtreeLeaves }, (_, i) => ({
      leaf: {
        key: BigInt(i),
        value: 0n,
        nextKey: i + 1 < subtreeLeaves ? BigInt(i + 1) : 0n,
        nextIndex: i + 1 < subtreeLeaves ? i + 1 : 0,
      },
      block: 0,
    }));
    const publicData = [{ leaf: { key: 0n, value: 0n, nextKey: 0n, nextIndex: 0 }, block: 0 }];
    // The genesis balances of the test accounts (spec/genesis.ts), linked in as ordinary inserts.
    for (const { leafSlot, value } of genesisPublicData()) {
      publicData.push({ leaf: insertLinked(publicData, BigInt(leafSlot), BigInt(value), publicData.length), block: 0 });
    }
    this.blocks.push({
      noteHashes: [],
      messages: [],
      archive: [{ value: genesisHash, block: 0 }],
      nullifiers,
      publicData,
    });
  }

  get latest(): number {
    return this.blocks.length - 1;
  }

  /** Applies a block one effect at a time; DuplicateNullifier leaves the model untouched. */
  applyBlock(txs: readonly ModelTxEffects[], messages: readonly bigint[], blockHash: bigint): void {
    const n = this.blocks.length;
    const state = cloneState(this.blocks[n - 1]!);
    for (const tx of txs) this.applyTx(state, tx, n);
    for (const value of messages) state.messages.push({ value, block: n });
    state.archive.push({ value: blockHash, block: n });
    this.blocks.push(state);
  }

  private applyTx(state: ModelState, tx: ModelTxEffects, n: number): void {
    // Every tx takes one whole subtree of each of the two trees, even with nothing to put in it.
    const noteHashesStart = state.noteHashes.length;
    for (const value of tx.noteHashes) state.noteHashes.push({ value, block: n });
    while (state.noteHashes.length < noteHashesStart + this.subtreeLeaves)
      state.noteHashes.push({ value: 0n, block: n });
    const start = state.nullifiers.length;
    for (const key of tx.nullifiers) {
      if (state.nullifiers.some((e) => e !== null && e.leaf.key === key)) throw new DuplicateNullifier(String(key));
      const index = state.nullifiers.length;
      state.nullifiers.push({ leaf: insertLinked(state.nullifiers, key, 0n, index), block: n });
    }
    while (state.nullifiers.length < start + this.subtreeLeaves) state.nullifiers.push(null);
    for (const write of tx.publicDataWrites) {
      const existing = state.publicData.find((e) => e.leaf.key === write.slot);
      if (existing !== undefined) existing.leaf.value = write.value;
      else
        state.publicData.push({
          leaf: insertLinked(state.publicData, write.slot, write.value, state.publicData.length),
          block: n,
        });
    }
  }

  unwindTo(block: number): void {
    this.blocks.length = block + 1;
  }

  pruneBefore(block: number): void {
    this.oldest = Math.max(this.oldest, block);
  }
}
