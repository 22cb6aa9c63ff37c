/**
 * The world state's refusals and query edges, each with the code, message and figures a caller sees: blocks out of
 * order or past a tree's capacity, stale drafts and unwinds (also across a clear or an unwind that restores the
 * latest block number), stores of another genesis or layout, blocks outside the kept range, malformed arguments,
 * and the indexed trees' leaf preimages.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { MerkleTreeId, WORLD_STATE_LOOKUP_VALUES_MAX } from '../../spec/constants.js';
import type { Hex } from '../../spec/chain.js';
import { WorldState } from '../../core/worldState/worldState.js';
import type { WorldStateOptions } from '../../core/worldState/worldStateConfig.js';
import { hexOf } from './modelCheck.js';
import {
  EMPTY_EFFECTS,
  SMALL_OPTIONS,
  ZERO,
  applyBlocks,
  blockHashOf,
  effectsOf,
  openSmall,
} from './worldStateSurvivorFixtures.js';

const fresh = (options: Partial<WorldStateOptions> = {}) =>
  WorldState.open(createMemoryStorage(), { ...SMALL_OPTIONS, ...options });

describe('world state: blocks', () => {
  it('refuses a block that does not follow the latest one, saying which', async () => {
    const engine = await fresh();
    await expect(engine.prepareBlock(2, effectsOf(2))).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_OUT_OF_ORDER',
      message: 'block 2 does not follow the latest block 0',
      details: { blockNumber: 2, latest: 0 },
    });
  });

  it('gives in the draft the same state reference that the finished and committed block has', async () => {
    const engine = await fresh();
    const draft = await engine.prepareBlock(1, effectsOf(1));
    const prepared = draft.finish(blockHashOf(1));
    expect(draft.stateReference).toEqual(prepared.stateReference);
    expect(draft.lastArchive).toEqual(engine.getTreeSnapshot(MerkleTreeId.ARCHIVE, 0));
    await prepared.commit();
    expect(engine.getStateReference(1)).toEqual(draft.stateReference);
    expect(draft.stateReference.noteHashTree.nextAvailableLeafIndex).toBe(4);
  });

  it('fills the L1-to-L2 message tree to the last leaf, then refuses the next message as TREE_FULL', async () => {
    const engine = await fresh();
    const messages = (from: number, count: number) => Array.from({ length: count }, (_, i) => hexOf(BigInt(from + i)));
    await (await engine.prepareBlock(1, { txs: [], l1ToL2Messages: messages(10, 8) })).finish(blockHashOf(1)).commit();
    expect(engine.getTreeSnapshot(MerkleTreeId.L1_TO_L2_MESSAGE_TREE, 1).nextAvailableLeafIndex).toBe(8);
    await expect(engine.prepareBlock(2, { txs: [], l1ToL2Messages: messages(20, 1) })).rejects.toMatchObject({
      code: 'WORLD_STATE_TREE_FULL',
      message: 'tree 3 has room for 8 leaves, the block needs 9',
      details: { treeId: 3, capacity: 8, size: 9 },
    });
    expect(engine.latestBlockNumber).toBe(1);
  });

  it('takes blocks until the archive is full, then refuses the next one as TREE_FULL', async () => {
    const engine = await fresh({ treeHeights: { ...SMALL_OPTIONS.treeHeights!, archive: 2 } });
    for (let n = 1; n <= 3; n++) await (await engine.prepareBlock(n, EMPTY_EFFECTS)).finish(blockHashOf(n)).commit();
    await expect(engine.prepareBlock(4, EMPTY_EFFECTS)).rejects.toMatchObject({
      code: 'WORLD_STATE_TREE_FULL',
      details: { treeId: MerkleTreeId.ARCHIVE, capacity: 4, size: 5 },
    });
  });

  it('refuses to finish a block with a hash that is not 32 bytes of hex', async () => {
    const engine = await fresh();
    const draft = await engine.prepareBlock(1, effectsOf(1));
    expect(() => draft.finish('0x1234')).toThrow('a block hash is 32 bytes of hex');
    expect(() => draft.finish(`0x${'zz'.repeat(32)}` as Hex)).toThrow('a block hash is 32 bytes of hex');
  });
});

describe('world state: stale drafts and unwinds', () => {
  const stale = { code: 'WORLD_STATE_DRAFT_STALE', message: expect.stringContaining('prepare it again') as unknown };

  it('refuses a draft overtaken by another block, with the latest block number', async () => {
    const engine = await fresh();
    const first = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    const second = (await engine.prepareBlock(1, effectsOf(1, 1))).finish(blockHashOf(1, 1));
    await first.commit();
    await expect(second.commit()).rejects.toMatchObject({
      ...stale,
      message: 'the world state moved on since this change was prepared; prepare it again',
      details: { latest: 1 },
    });
    expect(() => second.markCommitted()).toThrow(expect.objectContaining(stale));
    expect(engine.getStateReference(1)).toEqual(first.stateReference);
  });

  it('refuses a draft overtaken by an unwind that left the latest block where it was', async () => {
    const engine = await fresh();
    const draft = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    await engine.unwindTo(0);
    await expect(draft.commit()).rejects.toMatchObject(stale);
    expect(engine.latestBlockNumber).toBe(0);
  });

  it('refuses a draft overtaken by a clear then an unwind, or an unwind then a clear', async () => {
    const engine = await fresh();
    const before = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    await engine.clear();
    await engine.unwindTo(0);
    expect(() => before.markCommitted()).toThrow(expect.objectContaining(stale));
    const again = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    await engine.unwindTo(0);
    await engine.clear();
    expect(() => again.markCommitted()).toThrow(expect.objectContaining(stale));
    expect(engine.latestBlockNumber).toBe(0);
  });

  it('refuses an unwind overtaken by a new block or by another unwind', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 2);
    const overtakenByBlock = await engine.prepareUnwind(1);
    await applyBlocks(engine, 3);
    await expect(overtakenByBlock.commit()).rejects.toMatchObject(stale);
    expect(engine.latestBlockNumber).toBe(3);
    const overtakenByUnwind = await engine.prepareUnwind(3);
    await engine.unwindTo(3);
    expect(() => overtakenByUnwind.markCommitted()).toThrow(expect.objectContaining(stale));
    const once = await engine.prepareUnwind(2);
    await once.commit();
    await expect(once.commit()).rejects.toMatchObject(stale);
    expect(engine.latestBlockNumber).toBe(2);
  });
});

describe('world state: opening a store written otherwise', () => {
  it('refuses a store of another genesis block, naming both hashes', async () => {
    const storage = createMemoryStorage();
    await openSmall(storage);
    const other = hexOf(1n);
    await expect(openSmall(storage, { genesisBlockHash: other })).rejects.toMatchObject({
      code: 'WORLD_STATE_GENESIS_MISMATCH',
      message: `the stored world state starts from genesis block ${SMALL_OPTIONS.genesisBlockHash}, not ${other}`,
      details: { stored: SMALL_OPTIONS.genesisBlockHash, expected: other },
    });
  });

  it('refuses a store of other parameters, naming every one that differs', async () => {
    const storage = createMemoryStorage();
    await openSmall(storage);
    await expect(openSmall(storage, { pageHeight: 3 })).rejects.toMatchObject({
      code: 'WORLD_STATE_STORAGE_MISMATCH',
      message: 'the stored world state was written with another pageHeight',
      details: { differs: ['pageHeight'] },
    });
    const heights = { ...SMALL_OPTIONS.treeHeights!, noteHash: 9 };
    await expect(openSmall(storage, { treeHeights: heights, txSubtreeHeight: 1 })).rejects.toMatchObject({
      message: 'the stored world state was written with another treeHeights, txSubtreeHeight',
      details: { differs: ['treeHeights', 'txSubtreeHeight'] },
    });
    expect((await openSmall(storage)).latestBlockNumber).toBe(0);
  });
});

describe('world state: blocks outside the kept range', () => {
  it('answers BLOCK_UNKNOWN for a negative, fractional or future block', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 3);
    for (const block of [-1, 1.5, 4, Number.NaN]) {
      expect(() => engine.getStateReference(block)).toThrow(
        expect.objectContaining({
          code: 'WORLD_STATE_BLOCK_UNKNOWN',
          message: `block ${block} is not in the world state (latest: 3)`,
          details: { block, latest: 3 },
        }),
      );
    }
  });

  it('answers BLOCK_PRUNED below the oldest kept block, naming it', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 3);
    await engine.pruneHistoryBefore(2);
    await expect(engine.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, 1, 0n)).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_PRUNED',
      message: 'the state of block 1 is no longer kept (oldest kept: 2)',
      details: { block: 1, oldest: 2 },
    });
  });
});

describe('world state: malformed and out-of-range query arguments', () => {
  it('refuses a leaf index that is not a bigint', async () => {
    const engine = await fresh();
    await expect(engine.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, 0, 0 as unknown as bigint)).rejects.toMatchObject({
      code: 'WORLD_STATE_QUERY_INVALID',
      message: 'a leaf index is a bigint',
    });
  });

  it('answers null for a leaf index outside the tree', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 1);
    for (const index of [-1n, 2n ** 8n]) {
      expect(await engine.getLeafValue(MerkleTreeId.NOTE_HASH_TREE, 1, index)).toBeNull();
      expect(await engine.getSiblingPath(MerkleTreeId.NOTE_HASH_TREE, 1, index)).toBeNull();
      expect(await engine.getNullifierLeafPreimage(1, index)).toBeNull();
    }
  });

  it('refuses a field that is not 32 bytes of hex, quoting at most 80 characters of it', async () => {
    const engine = await fresh();
    const long = `0x${'ab'.repeat(100)}` as Hex;
    const bad = ['0x12', `0x${'zz'.repeat(32)}`, long] as Hex[];
    for (const value of bad) {
      await expect(engine.getNullifierMembershipWitness(0, value)).rejects.toMatchObject({
        code: 'WORLD_STATE_QUERY_INVALID',
        message: `not a 32-byte field: ${value.slice(0, 80)}`,
      });
    }
  });

  it('takes a lookup of the most values allowed and refuses one more', async () => {
    const engine = await fresh();
    const values = Array.from({ length: WORLD_STATE_LOOKUP_VALUES_MAX }, (_, i) => hexOf(BigInt(i + 1)));
    expect(await engine.findLeafIndices(MerkleTreeId.NOTE_HASH_TREE, 0, values)).toHaveLength(values.length);
    const count = WORLD_STATE_LOOKUP_VALUES_MAX + 1;
    await expect(
      engine.findLeafIndices(MerkleTreeId.NOTE_HASH_TREE, 0, [...values, hexOf(99_999n)]),
    ).rejects.toMatchObject({
      code: 'WORLD_STATE_LOOKUP_TOO_LARGE',
      message: `a lookup takes at most ${WORLD_STATE_LOOKUP_VALUES_MAX} values, not ${count}`,
      details: { max: WORLD_STATE_LOOKUP_VALUES_MAX, count },
    });
  });

  it('refuses a membership witness by value in an indexed tree', async () => {
    const engine = await fresh();
    await expect(engine.getMembershipWitnessByValue(MerkleTreeId.NULLIFIER_TREE, 0, hexOf(1n))).rejects.toThrow(
      'membership by value is for append-only trees',
    );
  });
});

describe('world state: values and preimages', () => {
  it('finds a note hash by value, at its index, and not a value that shares its first digits', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 2);
    const witness = await engine.getMembershipWitnessByValue(MerkleTreeId.NOTE_HASH_TREE, 2, hexOf(201n));
    expect(witness?.leafIndex).toBe(4n);
    const found = await engine.findLeafIndices(MerkleTreeId.NOTE_HASH_TREE, 2, [hexOf(101n), ZERO]);
    expect(found).toEqual([{ data: 0n, l2BlockNumber: 1, l2BlockHash: blockHashOf(1) }, null]);
    expect(await engine.getMembershipWitnessByValue(MerkleTreeId.NOTE_HASH_TREE, 1, hexOf(201n))).toBeNull();
  });

  it('gives the preimage of an inserted leaf, and null for a padding leaf or past the size', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 1);
    const { nextAvailableLeafIndex: size } = engine.getTreeSnapshot(MerkleTreeId.NULLIFIER_TREE, 1);
    const inserted = size - 4;
    expect((await engine.getNullifierLeafPreimage(1, BigInt(inserted)))?.nullifier).toBe(hexOf(1_100n));
    expect(await engine.getNullifierLeafPreimage(1, BigInt(inserted + 1))).toBeNull();
    expect(await engine.getNullifierLeafPreimage(1, BigInt(size))).toBeNull();
    expect(await engine.getNullifierLeafPreimage(0, BigInt(inserted))).toBeNull();
  });

  it('gives the preimage of a public data leaf with its slot and latest value', async () => {
    const engine = await fresh();
    await applyBlocks(engine, 2);
    const witness = await engine.getPublicDataWitness(2, hexOf(7n));
    const preimage = await engine.getPublicDataLeafPreimage(2, witness.index);
    expect(preimage).toEqual(witness.leafPreimage);
    expect(preimage?.value).toBe(hexOf(3n));
    expect(await engine.getPublicStorageAt(2, hexOf(1n), hexOf(2n))).toBe(ZERO);
  });
});
