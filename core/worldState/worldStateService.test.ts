import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { MerkleTreeId, WORLD_STATE_LOOKUP_VALUES_MAX } from '../../spec/constants.js';
import { openMemoryChain, proposeBlock, type MemoryChain } from '../../test/helpers/memoryChain.js';
import { Chain } from '../chain/chain.js';
import { resolveBlockNumber } from '../chain/referenceBlock.js';
import type { BlockQuery } from '../nodeService.js';
import type { WorldState } from './worldState.js';
import { WorldStateError } from './worldStateError.js';
import { createWorldStateService, type WorldStateService } from './worldStateService.js';

const atBlock = (number: number): BlockQuery => ({ kind: 'number', number });
const NULLIFIER = `0x${'00'.repeat(31)}05` as Hex;

/** A memory chain with `count` empty blocks proposed on genesis. */
async function chainWithBlocks(count: number): Promise<MemoryChain> {
  const node = await openMemoryChain();
  for (let slot = 1; slot <= count; slot++) await proposeBlock(node, slot, []);
  return node;
}

const serviceOf = (chain: Chain): WorldStateService =>
  createWorldStateService({ chain, resolveBlockNumber: (query) => resolveBlockNumber(chain, query) });

/** The error a promise rejects with (the test fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('WorldStateService', () => {
  it('answers every block up to the proposed tip, and a later one as not known', async () => {
    const { chain } = await chainWithBlocks(2);
    const service = serviceOf(chain);
    for (const block of [0, 1, 2]) {
      expect(await service.getNullifierMembershipWitness(atBlock(block), NULLIFIER)).toBeDefined();
    }
    const error = await rejection(service.getNullifierMembershipWitness(atBlock(3), NULLIFIER));
    expect(error).toMatchObject({ code: 'STATE_NOT_AVAILABLE', message: 'block 3 is not known to this node' });
    expect(error.details).toEqual({ reason: 'unknown' });
  });

  it('answers a block the chain has but its world state has not reached as not known, and says it is not synced', async () => {
    const node = await chainWithBlocks(2);
    // The world state unwound on its own, as a crash between the two stores' writes can leave it.
    await node.chain.worldState.unwindTo(1);
    const service = serviceOf(node.chain);
    const error = await rejection(service.getNoteHashMembershipWitness(atBlock(2), NULLIFIER));
    expect(error).toMatchObject({ code: 'STATE_NOT_AVAILABLE', message: 'block 2 is not known to this node' });
    expect(error.details).toEqual({ blockNumber: 2, reason: 'unknown' });
    expect(await service.getWorldStateSyncStatus()).toMatchObject({ latestBlockNumber: 1, treesAreSynced: false });
  });

  it('reports the world state synced when it is at the proposed tip', async () => {
    const { chain } = await chainWithBlocks(2);
    expect(await serviceOf(chain).getWorldStateSyncStatus()).toEqual({
      latestBlockNumber: 2,
      latestBlockHash: chain.tips.proposed.hash,
      finalizedBlockNumber: 0,
      oldestHistoricBlockNumber: 0,
      treesAreSynced: true,
    });
  });

  it('answers a block whose state was pruned as no longer kept', async () => {
    const { chain } = await chainWithBlocks(2);
    await chain.worldState.pruneHistoryBefore(2);
    const service = serviceOf(chain);
    const error = await rejection(service.getPublicDataWitness(atBlock(1), NULLIFIER));
    expect(error).toMatchObject({
      code: 'STATE_NOT_AVAILABLE',
      message: 'the state of block 1 is no longer kept: the state of block 1 is no longer kept (oldest kept: 2)',
    });
    expect(error.details).toEqual({ blockNumber: 1, reason: 'pruned' });
    expect((await service.getWorldStateSyncStatus()).oldestHistoricBlockNumber).toBe(2);
  });

  it('answers a malformed argument as invalid params, and a lookup of too many values as over the limit', async () => {
    const service = serviceOf((await chainWithBlocks(0)).chain);
    const invalid = await rejection(service.getLowNullifierMembershipWitness(atBlock(0), '0x01'));
    expect(invalid).toMatchObject({ code: 'INVALID_PARAMS', message: 'not a 32-byte field: 0x01' });
    const values = Array.from({ length: WORLD_STATE_LOOKUP_VALUES_MAX + 1 }, () => NULLIFIER);
    const tooMany = await rejection(service.findLeavesIndexes(atBlock(0), MerkleTreeId.NOTE_HASH_TREE, values));
    expect(tooMany).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: `a lookup takes at most ${WORLD_STATE_LOOKUP_VALUES_MAX} values, not ${values.length}`,
      details: { max: WORLD_STATE_LOOKUP_VALUES_MAX, count: values.length },
    });
  });

  it("passes the world state's other errors through as they are", async () => {
    const node = await chainWithBlocks(0);
    const interrupted = new WorldStateError('WORLD_STATE_READ_INTERRUPTED', 'overtaken; retry', { block: 0 });
    const overtaken: WorldState = Object.create(node.chain.worldState, {
      getPublicStorageAt: { value: () => Promise.reject(interrupted) },
    });
    const service = serviceOf(new Chain(node.chain.store, overtaken, node.clock));
    expect(await rejection(service.getPublicStorageAt(atBlock(0), NULLIFIER, NULLIFIER))).toBe(interrupted);
  });
});
