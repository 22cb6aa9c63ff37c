/**
 * A chain update whose world-state change writes more records than a JavaScript call takes arguments (the block that
 * moves the indexed trees' keys to storage writes one record per key, hundreds of thousands): the store commits it
 * whole, in its one batch.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { createGenesis } from '../worldState/genesis.js';
import { ChainStore } from './chainStore.js';
import { genesisTips } from './tips.js';

const genesis = createGenesis(31337, 1);
const genesisRef = { number: 0, hash: genesis.block.hash };
/** Past V8's limit on arguments of one call here (about 125,000). */
const RECORDS = 200_000;

describe('chain store', () => {
  it('commits a world-state change of more records than a call takes arguments', async () => {
    const storage = createMemoryStorage();
    const identity = {
      l1ChainId: 31337,
      rollupAddress: `0x${'ab'.repeat(20)}` as const,
      rollupVersion: 1,
      genesisArchiveRoot: genesis.block.archive.root,
    };
    const tips = genesisTips(genesisRef, genesisRef);
    const store = await ChainStore.open(storage, identity, genesis, tips);
    const worldStateOps = Array.from({ length: RECORDS }, (_, i) => ({
      type: 'put' as const,
      key: `ws:x:0:${i.toString(16).padStart(64, '0')}`,
      value: `${i}:1`,
    }));
    await store.commit({ worldStateOps, tips });
    expect(await storage.get(`ws:x:0:${(RECORDS - 1).toString(16).padStart(64, '0')}`)).toBe(`${RECORDS - 1}:1`);
    expect((await storage.keys({ gte: 'ws:x:', lt: 'ws:x;' }).all()).length).toBe(RECORDS);
  }, 60_000);
});
