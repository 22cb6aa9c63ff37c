/**
 * Compares the engine with the reference model as of one block: every root and size, sibling paths and leaves at
 * sampled indices, lookups of present and absent values, nullifier and public data witnesses. Every witness the engine
 * returns is also checked with the verifier written from docs/protocol.md against the root the engine reports for that
 * block.
 */
import { expect } from 'vitest';
import { MerkleTreeId } from '../../spec/constants.js';
import type { Hex } from '../../spec/chain.js';
import type { WorldState } from '../../core/worldState/worldState.js';
import type { BlockStateEffects } from '../../core/worldState/blockEffects.js';
import type { ModelHeights, ModelState, ModelTree, ModelTxEffects, ReferenceWorldState } from './referenceModel.js';
import { leafHashes, modelTree } from './referenceModel.js';
import {
  field32,
  toHex,
  verifyMembership,
  verifyNullifierAbsence,
  verifyNullifierMembership,
  verifyPublicDataWitness,
} from './witnessVerifier.js';

export const hexOf = (n: bigint): Hex => toHex(field32(n));

export function engineEffects(txs: readonly ModelTxEffects[], messages: readonly bigint[]): BlockStateEffects {
  return {
    txs: txs.map((tx) => ({
      noteHashes: tx.noteHashes.map(hexOf),
      nullifiers: tx.nullifiers.map(hexOf),
      publicDataWrites: tx.publicDataWrites.map((w) => ({ leafSlot: hexOf(w.slot), value: hexOf(w.value) })),
    })),
    l1ToL2Messages: messages.map(hexOf),
  };
}

type TreeName = keyof ModelHeights;
const TREES: readonly [TreeName, MerkleTreeId][] = [
  ['nullifier', MerkleTreeId.NULLIFIER_TREE],
  ['noteHash', MerkleTreeId.NOTE_HASH_TREE],
  ['publicData', MerkleTreeId.PUBLIC_DATA_TREE],
  ['l1ToL2Message', MerkleTreeId.L1_TO_L2_MESSAGE_TREE],
  ['archive', MerkleTreeId.ARCHIVE],
];

/** Values to look up: a few present ones (first, last, one in the middle) and a few that are nowhere. */
function sampleIndices(size: number, capacity: number): number[] {
  const picks = new Set([0, size - 1, Math.floor(size / 2), size, Math.floor(size * 0.3)]);
  return [...picks].filter((i) => i >= 0 && i < capacity);
}

export async function expectBlockMatchesModel(
  engine: WorldState,
  model: ReferenceWorldState,
  block: number,
  probes: readonly bigint[],
): Promise<void> {
  const state = model.blocks[block]!;
  const hashes = leafHashes(state);
  const trees = {} as Record<TreeName, ModelTree>;
  for (const [name, treeId] of TREES) {
    const height = model.heights[name];
    const tree = modelTree(height, hashes[name]);
    trees[name] = tree;
    const snapshot = engine.getTreeSnapshot(treeId, block);
    expect(snapshot, `${name} at block ${block}`).toEqual({
      root: tree.root,
      nextAvailableLeafIndex: hashes[name].length,
    });
    await expectLeavesAndPaths(engine, treeId, block, height, hashes[name], tree);
  }
  await expectAppendOnlyLookups(engine, state, block, probes, trees);
  await expectNullifierWitnesses(engine, state, block, probes, model.heights.nullifier, trees.nullifier.root);
  await expectPublicData(engine, state, block, probes, model.heights.publicData, trees.publicData.root);
}

async function expectLeavesAndPaths(
  engine: WorldState,
  treeId: MerkleTreeId,
  block: number,
  height: number,
  leaves: readonly Hex[],
  tree: ModelTree,
): Promise<void> {
  for (const index of sampleIndices(leaves.length, 2 ** height)) {
    const witness = await engine.getSiblingPath(treeId, block, BigInt(index));
    expect(witness).toEqual(tree.siblingPath(index));
    const leaf = leaves[index] ?? hexOf(0n);
    expect(verifyMembership(tree.root, leaf, witness!, height)).toBe(true);
    expect(await engine.getLeafValue(treeId, block, BigInt(index))).toBe(leaves[index] ?? null);
  }
  expect(await engine.getSiblingPath(treeId, block, 2n ** BigInt(height))).toBeNull();
}

async function expectAppendOnlyLookups(
  engine: WorldState,
  state: ModelState,
  block: number,
  probes: readonly bigint[],
  trees: Record<TreeName, ModelTree>,
): Promise<void> {
  const lists: [MerkleTreeId, TreeName, readonly { value: bigint; block: number }[]][] = [
    [MerkleTreeId.NOTE_HASH_TREE, 'noteHash', state.noteHashes],
    [MerkleTreeId.L1_TO_L2_MESSAGE_TREE, 'l1ToL2Message', state.messages],
    [MerkleTreeId.ARCHIVE, 'archive', state.archive],
  ];
  for (const [treeId, name, entries] of lists) {
    const values = [...new Set([...entries.slice(-3).map((e) => e.value), ...probes])];
    const found = await engine.findLeafIndices(treeId, block, values.map(hexOf));
    values.forEach((value, i) => {
      const index = value === 0n ? -1 : entries.findIndex((e) => e.value === value);
      const expected =
        index < 0
          ? null
          : {
              data: BigInt(index),
              l2BlockNumber: entries[index]!.block,
              l2BlockHash: hexOf(state.archive[entries[index]!.block]!.value),
            };
      expect(found[i], `${name} lookup of ${value} at block ${block}`).toEqual(expected);
    });
    const witness = await engine.getMembershipWitnessByValue(treeId, block, hexOf(values[0]!));
    const first = entries.findIndex((e) => e.value === values[0]);
    expect(witness).toEqual(first < 0 || values[0] === 0n ? null : trees[name].siblingPath(first));
  }
}

async function expectNullifierWitnesses(
  engine: WorldState,
  state: ModelState,
  block: number,
  probes: readonly bigint[],
  height: number,
  root: Hex,
): Promise<void> {
  const present = state.nullifiers.filter((e) => e !== null).map((e) => e!.leaf.key);
  const keys = [...new Set([...present.slice(-3), ...probes, ...probes.map((p) => p + 1n)])];
  const found = await engine.findLeafIndices(MerkleTreeId.NULLIFIER_TREE, block, keys.map(hexOf));
  for (const [i, key] of keys.entries()) {
    const index = state.nullifiers.findIndex((e) => e !== null && e.leaf.key === key);
    const member = await engine.getNullifierMembershipWitness(block, hexOf(key));
    const low = await engine.getLowNullifierMembershipWitness(block, hexOf(key));
    if (index >= 0) {
      const leaf = state.nullifiers[index]!.leaf;
      expect(member?.index).toBe(BigInt(index));
      expect(member?.leafPreimage).toEqual({
        nullifier: hexOf(leaf.key),
        nextNullifier: hexOf(leaf.nextKey),
        nextIndex: BigInt(leaf.nextIndex),
      });
      expect(verifyNullifierMembership(root, hexOf(key), member!, height)).toBe(true);
      expect(low).toBeNull();
      expect(found[i]?.data).toBe(BigInt(index));
      expect(found[i]?.l2BlockNumber).toBe(state.nullifiers[index]!.block);
    } else {
      expect(member).toBeNull();
      expect(found[i]).toBeNull();
      expect(low).not.toBeNull();
      expect(verifyNullifierAbsence(root, hexOf(key), low!, height)).toBe(true);
    }
  }
}

async function expectPublicData(
  engine: WorldState,
  state: ModelState,
  block: number,
  probes: readonly bigint[],
  height: number,
  root: Hex,
): Promise<void> {
  const slots = [...new Set([0n, ...state.publicData.slice(-3).map((e) => e.leaf.key), ...probes])];
  for (const slot of slots) {
    const entry = state.publicData.find((e) => e.leaf.key === slot);
    expect(await engine.getPublicDataValue(block, hexOf(slot))).toBe(hexOf(entry?.leaf.value ?? 0n));
    const witness = await engine.getPublicDataWitness(block, hexOf(slot));
    expect(verifyPublicDataWitness(root, hexOf(slot), witness, height)).toBe(true);
    if (entry !== undefined) expect(witness.leafPreimage.value).toBe(hexOf(entry.leaf.value));
    else expect(BigInt(witness.leafPreimage.slot) < slot).toBe(true);
  }
}
