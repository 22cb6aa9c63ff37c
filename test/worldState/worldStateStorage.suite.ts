/**
 * The world state's behaviour on a storage adapter: one atomic batch per block, resuming after a reopen, a crash
 * between two batches, unwinds that restore the store byte for byte, prunes, an interrupted clear. Run against
 * every adapter (worldStateStorage.test.ts), like the storage port's own contract suite.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MerkleTreeId } from '../../spec/constants.js';
import type { Hex } from '../../spec/chain.js';
import type { StoragePort } from '../../core/ports.js';
import type { BlockStateEffects } from '../../core/worldState/blockEffects.js';
import type { WorldStateOptions } from '../../core/worldState/worldStateConfig.js';
import { WorldState } from '../../core/worldState/worldState.js';
import { hexOf } from './modelCheck.js';
import { verifyNullifierMembership, verifyPublicDataWitness } from './witnessVerifier.js';

export interface WorldStateStorageHarness {
  /** The store open now: empty at first, the reopened one after `reopen`. */
  readonly store: StoragePort;
  /** The same data through a freshly opened store; writes not yet issued are lost, as in a crash. */
  reopen(): Promise<StoragePort>;
  cleanup(): Promise<void>;
}

const OPTIONS: WorldStateOptions = {
  genesisBlockHash: hexOf(0x9e9e515n),
  treeHeights: { nullifier: 20, noteHash: 20, publicData: 16, l1ToL2Message: 12, archive: 10 },
  pageHeight: 3,
};

/** Block n's effects: two txs, fresh nullifiers, one slot written every block and one new slot. */
function effectsOf(n: number): BlockStateEffects {
  const tx = (t: number) => ({
    noteHashes: [hexOf(BigInt(n * 100 + t * 10 + 1)), hexOf(BigInt(n * 100 + t * 10 + 2))],
    nullifiers: [hexOf(BigInt(n * 1_000 + t * 10 + 100))],
    publicDataWrites: [
      { leafSlot: hexOf(7n), value: hexOf(BigInt(n * 10 + t)) },
      { leafSlot: hexOf(BigInt(1_000 + n * 10 + t)), value: hexOf(BigInt(n)) },
    ],
  });
  return { txs: [tx(0), tx(1)], l1ToL2Messages: [hexOf(BigInt(5_000 + n))] };
}

const blockHashOf = (n: number): Hex => hexOf(BigInt(0xb10c0000 + n));

async function applyBlocks(engine: WorldState, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const n = engine.latestBlockNumber + 1;
    await (await engine.prepareBlock(n, effectsOf(n))).finish(blockHashOf(n)).commit();
  }
}

async function dump(store: StoragePort): Promise<[string, string][]> {
  return store.iterator({ gte: 'ws:', lt: 'ws;' }).all();
}

/** What a client could ask as of `block`, gathered for comparison. */
async function answers(engine: WorldState, block: number) {
  return {
    state: engine.getStateReference(block),
    archive: engine.getTreeSnapshot(MerkleTreeId.ARCHIVE, block),
    nullifier: await engine.getNullifierMembershipWitness(block, hexOf(1_100n)),
    low: await engine.getLowNullifierMembershipWitness(block, hexOf(1_101n)),
    slot: await engine.getPublicDataWitness(block, hexOf(7n)),
    noteHash: await engine.getMembershipWitnessByValue(MerkleTreeId.NOTE_HASH_TREE, block, hexOf(101n)),
    blockHash: await engine.findLeafIndices(MerkleTreeId.ARCHIVE, block, [blockHashOf(1)]),
  };
}

export function describeWorldStateStorage(name: string, makeHarness: () => Promise<WorldStateStorageHarness>): void {
  describe(`world state on ${name}`, () => {
    let harness: WorldStateStorageHarness;
    beforeEach(async () => {
      harness = await makeHarness();
    });
    afterEach(async () => {
      await harness.cleanup();
    });
    const current = () => harness;
    describeDurability(current);
    describeUnwindAndPrune(current);
    describeRefusals(current);
  });
}

function describeDurability(current: () => WorldStateStorageHarness): void {
  it('resumes from the last committed block after a reopen, with the same answers at every block', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await applyBlocks(engine, 3);
    const before = await Promise.all([0, 1, 2, 3].map((b) => answers(engine, b)));
    const reopened = await WorldState.open(await current().reopen(), OPTIONS);
    expect(reopened.latestBlockNumber).toBe(3);
    expect(await Promise.all([0, 1, 2, 3].map((b) => answers(reopened, b)))).toEqual(before);
    await applyBlocks(reopened, 1);
    expect(reopened.latestBlockNumber).toBe(4);
  });

  it('after a crash between two batches, holds all of block 1 and nothing of block 2, and redoes block 2 the same', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await applyBlocks(engine, 1);
    const afterOne = await dump(current().store);
    const dropped = (await engine.prepareBlock(2, effectsOf(2))).finish(blockHashOf(2));
    // The node stops here: block 2's batch is never issued.
    const reopened = await WorldState.open(await current().reopen(), OPTIONS);
    expect(await dump(current().store)).toEqual(afterOne);
    expect(reopened.latestBlockNumber).toBe(1);
    const redone = (await reopened.prepareBlock(2, effectsOf(2))).finish(blockHashOf(2));
    expect([redone.stateReference, redone.archive]).toEqual([dropped.stateReference, dropped.archive]);
    await redone.commit();
    expect(reopened.getStateReference(2)).toEqual(dropped.stateReference);
  });

  it("writes the block and the caller's operations in one batch: all or nothing", async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    const prepared = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    const before = await dump(current().store);
    const bad = { type: 'put', key: 'chain:tips', value: undefined } as unknown as {
      type: 'put';
      key: string;
      value: string;
    };
    await expect(prepared.commit([{ type: 'put', key: 'chain:l1Sync', value: '42' }, bad])).rejects.toThrow();
    expect(await dump(current().store)).toEqual(before);
    expect(await current().store.get('chain:l1Sync')).toBeUndefined();
    expect(engine.latestBlockNumber).toBe(0);
    await prepared.commit([{ type: 'put', key: 'chain:l1Sync', value: '42' }]);
    expect(await current().store.get('chain:l1Sync')).toBe('42');
    expect(engine.getStateReference(1)).toEqual(prepared.stateReference);
  });

  it('finishes a clear that a crash interrupted, back to genesis', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    const genesis = await dump(current().store);
    await applyBlocks(engine, 2);
    const meta = JSON.parse((await current().store.get('ws:meta'))!) as Record<string, unknown>;
    await current().store.put('ws:meta', JSON.stringify({ ...meta, clearing: true }));
    const reopened = await WorldState.open(await current().reopen(), OPTIONS);
    expect(reopened.latestBlockNumber).toBe(0);
    expect(await dump(current().store)).toEqual(genesis);
    await reopened.clear();
    expect(await dump(current().store)).toEqual(genesis);
  });
}

function describeUnwindAndPrune(current: () => WorldStateStorageHarness): void {
  it('an unwind leaves the store exactly as it was at the target block', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await applyBlocks(engine, 2);
    const atTwo = await dump(current().store);
    const answersAtTwo = await answers(engine, 2);
    await applyBlocks(engine, 3);
    await engine.unwindTo(2);
    expect(await dump(current().store)).toEqual(atTwo);
    expect(await answers(engine, 2)).toEqual(answersAtTwo);
    await expect(engine.getSiblingPath(MerkleTreeId.NOTE_HASH_TREE, 3, 0n)).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_UNKNOWN',
    });
    const reopened = await WorldState.open(await current().reopen(), OPTIONS);
    expect(await answers(reopened, 2)).toEqual(answersAtTwo);
  });

  it('a prune keeps every answer at kept blocks, refuses older ones as pruned, and deletes the replaced pages', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await applyBlocks(engine, 5);
    const kept = await Promise.all([3, 4, 5].map((b) => answers(engine, b)));
    const pagesBefore = (await dump(current().store)).filter(([key]) => key.startsWith('ws:p:')).length;
    await engine.pruneHistoryBefore(3);
    const pagesAfter = (await dump(current().store)).filter(([key]) => key.startsWith('ws:p:')).length;
    expect(pagesAfter).toBeLessThan(pagesBefore);
    expect(await Promise.all([3, 4, 5].map((b) => answers(engine, b)))).toEqual(kept);
    await expect(engine.getNullifierMembershipWitness(2, hexOf(1_100n))).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_PRUNED',
    });
    expect(() => engine.getStateReference(6)).toThrow(expect.objectContaining({ code: 'WORLD_STATE_BLOCK_UNKNOWN' }));
    await expect(engine.unwindTo(2)).rejects.toMatchObject({ code: 'WORLD_STATE_BLOCK_PRUNED' });
    const reopened = await WorldState.open(await current().reopen(), OPTIONS);
    expect(reopened.oldestBlockNumber).toBe(3);
    expect(await Promise.all([3, 4, 5].map((b) => answers(reopened, b)))).toEqual(kept);
  });

  it('answers witnesses that verify against the root of the block asked about', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await applyBlocks(engine, 3);
    for (const block of [1, 2, 3]) {
      const { nullifierTree, publicDataTree } = engine.getStateReference(block);
      const witness = await engine.getNullifierMembershipWitness(block, hexOf(1_100n));
      expect(
        verifyNullifierMembership(nullifierTree.root, hexOf(1_100n), witness!, OPTIONS.treeHeights!.nullifier),
      ).toBe(true);
      const slot = await engine.getPublicDataWitness(block, hexOf(7n));
      expect(verifyPublicDataWitness(publicDataTree.root, hexOf(7n), slot, OPTIONS.treeHeights!.publicData)).toBe(true);
      expect(slot.leafPreimage.value).toBe(hexOf(BigInt(block * 10 + 1)));
    }
  });
}

function describeRefusals(current: () => WorldStateStorageHarness): void {
  it('refuses a duplicate nullifier (in the tree or twice in the block) and leaves the store untouched', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await applyBlocks(engine, 1);
    const before = await dump(current().store);
    const inTree = { txs: [{ noteHashes: [], nullifiers: [hexOf(1_100n)], publicDataWrites: [] }], l1ToL2Messages: [] };
    await expect(engine.prepareBlock(2, inTree)).rejects.toMatchObject({ code: 'WORLD_STATE_DUPLICATE_NULLIFIER' });
    const twice = {
      txs: [0, 1].map(() => ({ noteHashes: [], nullifiers: [hexOf(99_999n)], publicDataWrites: [] })),
      l1ToL2Messages: [],
    };
    await expect(engine.prepareBlock(2, twice)).rejects.toMatchObject({
      code: 'WORLD_STATE_DUPLICATE_NULLIFIER',
      details: { txIndex: 1 },
    });
    await expect(
      engine.prepareBlock(2, {
        txs: [{ noteHashes: [], nullifiers: [hexOf(5n)], publicDataWrites: [] }],
        l1ToL2Messages: [],
      }),
    ).rejects.toMatchObject({
      code: 'WORLD_STATE_DUPLICATE_NULLIFIER',
    });
    expect(await dump(current().store)).toEqual(before);
    await applyBlocks(engine, 1);
  });

  it('refuses blocks out of order, stale drafts, and a store written for another genesis or other heights', async () => {
    const engine = await WorldState.open(current().store, OPTIONS);
    await expect(engine.prepareBlock(2, effectsOf(2))).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_OUT_OF_ORDER',
    });
    const first = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    const second = (await engine.prepareBlock(1, effectsOf(1))).finish(blockHashOf(1));
    await first.commit();
    await expect(second.commit()).rejects.toMatchObject({ code: 'WORLD_STATE_DRAFT_STALE' });
    expect(() => first.markCommitted()).toThrow(expect.objectContaining({ code: 'WORLD_STATE_DRAFT_STALE' }));
    const store = await current().reopen();
    await expect(WorldState.open(store, { ...OPTIONS, genesisBlockHash: hexOf(1n) })).rejects.toMatchObject({
      code: 'WORLD_STATE_GENESIS_MISMATCH',
    });
    await expect(WorldState.open(store, { ...OPTIONS, pageHeight: 4 })).rejects.toMatchObject({
      code: 'WORLD_STATE_STORAGE_MISMATCH',
    });
  });

  it('refuses too many effects and malformed fields without touching the state', async () => {
    const engine = await WorldState.open(current().store, { ...OPTIONS, txSubtreeHeight: 2 });
    const tooMany = {
      txs: [{ noteHashes: [1n, 2n, 3n, 4n, 5n].map(hexOf), nullifiers: [], publicDataWrites: [] }],
      l1ToL2Messages: [],
    };
    await expect(engine.prepareBlock(1, tooMany)).rejects.toMatchObject({ code: 'WORLD_STATE_EFFECTS_INVALID' });
    const malformed = {
      txs: [{ noteHashes: ['0x1234' as Hex], nullifiers: [], publicDataWrites: [] }],
      l1ToL2Messages: [],
    };
    await expect(engine.prepareBlock(1, malformed)).rejects.toMatchObject({ code: 'WORLD_STATE_EFFECTS_INVALID' });
    expect(engine.latestBlockNumber).toBe(0);
  });
}
