import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { MerkleTreeId, NULLIFIER_TREE_PREFILL_LEAVES, PUBLIC_DATA_TREE_PREFILL_LEAVES } from '../../spec/constants.js';
import { emptyRoot } from '../merkle/emptyRoots.js';
import { createGenesis, genesisStateReference } from './genesis.js';
import { nullifierGenesisLeaves, prefilledStateReference, publicDataGenesisLeaves } from './genesisState.js';
import { publicDataLeafSlot } from './publicDataSlot.js';
import { WorldState } from './worldState.js';

describe('genesis state', () => {
  it('prefills the nullifier tree with 64 linked leaves and the public data tree with slot 0 and the test balances', () => {
    const state = genesisStateReference();
    expect(state.nullifierTree.nextAvailableLeafIndex).toBe(NULLIFIER_TREE_PREFILL_LEAVES);
    expect(state.publicDataTree.nextAvailableLeafIndex).toBe(PUBLIC_DATA_TREE_PREFILL_LEAVES);
    expect(publicDataGenesisLeaves().map((leaf) => BigInt(leaf.key))).toEqual(
      [...publicDataGenesisLeaves().map((leaf) => BigInt(leaf.key))].sort((a, b) => (a < b ? -1 : 1)),
    );
    expect(state.nullifierTree.root).not.toBe(emptyRoot(42));
    expect(state.noteHashTree).toEqual({ root: emptyRoot(42), nextAvailableLeafIndex: 0 });
    const leaves = nullifierGenesisLeaves();
    expect(leaves.at(-1)).toMatchObject({ nextKey: zeroHex(32), nextIndex: 0 });
    expect(leaves[5]).toMatchObject({ nextIndex: 6 });
  });

  it('is what the engine builds at the protocol heights, and the genesis block carries it', async () => {
    const genesis = createGenesis(31337, 1);
    const engine = await WorldState.open(createMemoryStorage(), { genesisBlockHash: genesis.block.hash });
    expect(engine.getStateReference(0)).toEqual(prefilledStateReference());
    expect(genesis.block.header.state).toEqual(engine.getStateReference(0));
    expect(engine.getTreeSnapshot(MerkleTreeId.ARCHIVE, 0)).toEqual(genesis.block.archive);
    expect(await engine.getBlockHash(0)).toBe(genesis.block.hash);
  });

  it('derives a public storage slot as hashToField(contract || slot)', () => {
    const contract = `0x${'11'.repeat(32)}` as const;
    expect(publicDataLeafSlot(contract, zeroHex(32))).not.toBe(publicDataLeafSlot(contract, `0x${'00'.repeat(31)}01`));
    expect(publicDataLeafSlot(contract, zeroHex(32))).toMatch(/^0x00[0-9a-f]{62}$/);
  });
});
