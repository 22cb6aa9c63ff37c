import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { MerkleTreeId } from '../../spec/constants.js';
import { WorldState } from '../../core/worldState/worldState.js';
import { hexOf } from './modelCheck.js';
import {
  hashFields,
  nullifierLeafHash,
  rootFromPath,
  verifyMembership,
  verifyNullifierAbsence,
  verifyNullifierMembership,
  verifyPublicDataWitness,
} from './witnessVerifier.js';

const zero = hexOf(0n);

describe('witness verifier (from docs/protocol.md)', () => {
  it('recomputes a height-2 root by hand, sibling nearest the leaf first', () => {
    const [a, b, c] = [hexOf(1n), hexOf(2n), hexOf(3n)];
    const root = hashFields([hashFields([a, b]), hashFields([c, zero])]);
    expect(rootFromPath(c, 2n, [zero, hashFields([a, b])])).toBe(root);
    expect(verifyMembership(root, b, { leafIndex: 1n, siblingPath: [a, hashFields([c, zero])] }, 2)).toBe(true);
    expect(verifyMembership(root, b, { leafIndex: 0n, siblingPath: [a, hashFields([c, zero])] }, 2)).toBe(false);
    expect(verifyMembership(root, b, { leafIndex: 1n, siblingPath: [hashFields([c, zero]), a] }, 2)).toBe(false);
  });

  it('accepts the engine’s witnesses and refuses every tampered field', async () => {
    const engine = await WorldState.open(createMemoryStorage(), { genesisBlockHash: hexOf(77n) });
    const tx = {
      noteHashes: [hexOf(9n)],
      nullifiers: [hexOf(1_000n), hexOf(500n)],
      publicDataWrites: [{ leafSlot: hexOf(42n), value: hexOf(3n) }],
    };
    await (await engine.prepareBlock(1, { txs: [tx], l1ToL2Messages: [] })).finish(hexOf(0xb1n)).commit();
    const { nullifierTree, publicDataTree, noteHashTree } = engine.getStateReference(1);
    const member = (await engine.getNullifierMembershipWitness(1, hexOf(500n)))!;
    expect(verifyNullifierMembership(nullifierTree.root, hexOf(500n), member, 42)).toBe(true);
    expect(nullifierLeafHash(member.leafPreimage)).toBe(
      await engine.getLeafValue(MerkleTreeId.NULLIFIER_TREE, 1, member.index),
    );
    expect(
      verifyNullifierMembership(nullifierTree.root, hexOf(500n), { ...member, index: member.index + 1n }, 42),
    ).toBe(false);
    expect(
      verifyNullifierMembership(
        nullifierTree.root,
        hexOf(500n),
        { ...member, leafPreimage: { ...member.leafPreimage, nextIndex: 0n } },
        42,
      ),
    ).toBe(false);
    const low = (await engine.getLowNullifierMembershipWitness(1, hexOf(700n)))!;
    expect(low.leafPreimage.nullifier).toBe(hexOf(500n));
    expect(verifyNullifierAbsence(nullifierTree.root, hexOf(700n), low, 42)).toBe(true);
    expect(verifyNullifierAbsence(nullifierTree.root, hexOf(1_001n), low, 42)).toBe(false);
    const slot = await engine.getPublicDataWitness(1, hexOf(42n));
    expect(verifyPublicDataWitness(publicDataTree.root, hexOf(42n), slot, 40)).toBe(true);
    expect(
      verifyPublicDataWitness(
        publicDataTree.root,
        hexOf(42n),
        { ...slot, leafPreimage: { ...slot.leafPreimage, value: hexOf(4n) } },
        40,
      ),
    ).toBe(false);
    const absent = await engine.getPublicDataWitness(1, hexOf(43n));
    expect(absent.leafPreimage.slot).toBe(hexOf(42n));
    expect(verifyPublicDataWitness(publicDataTree.root, hexOf(43n), absent, 40)).toBe(true);
    const note = (await engine.getMembershipWitnessByValue(MerkleTreeId.NOTE_HASH_TREE, 1, hexOf(9n)))!;
    expect(verifyMembership(noteHashTree.root, hexOf(9n), note, 42)).toBe(true);
    expect(verifyMembership(noteHashTree.root, hexOf(10n), note, 42)).toBe(false);
  });
});
