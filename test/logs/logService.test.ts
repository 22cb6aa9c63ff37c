/**
 * The node's log service (core/logs/logService.ts): building it registers the log index on the chain's store, so
 * that blocks the chain writes from then on are answered by tag.
 */
import { expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { Chain } from '../../core/chain/chain.js';
import { ChainStore } from '../../core/chain/chainStore.js';
import { genesisTips } from '../../core/chain/tips.js';
import { createLogService } from '../../core/logs/logService.js';
import { WorldState } from '../../core/worldState/worldState.js';
import { ManualClock } from '../helpers/manualClock.js';
import { blockWithTxs, genesis, hex32 } from './logFixtures.js';

it('registers the log index on the chain store and answers from the blocks written after', async () => {
  const storage = createMemoryStorage();
  const genesisRef = { number: 0, hash: genesis.block.hash };
  const identity = {
    l1ChainId: 31337,
    rollupAddress: hex32(0xab),
    rollupVersion: 1,
    genesisArchiveRoot: genesis.block.archive.root,
  };
  const store = await ChainStore.open(storage, identity, genesis, genesisTips(genesisRef, genesisRef));
  const worldState = await WorldState.open(storage, { genesisBlockHash: genesis.block.hash });
  const chain = new Chain(store, worldState, new ManualClock());
  const logs = createLogService(chain);

  const tag = hex32(0x7a6);
  const block = blockWithTxs(1, [
    {
      id: 1,
      privateLogs: [{ tag, fields: [hex32(9)] }],
      publicLogs: [{ contractAddress: hex32(0xc0de), tag, fields: [] }],
    },
  ]);
  await store.commit({
    addBlocks: [{ block, archiveTree: genesis.archiveTree }],
    tips: { ...store.tips, proposed: { number: 1, hash: block.hash } },
  });

  expect(await logs.getPrivateLogsByTags([tag], false, 20)).toEqual([
    [
      {
        txHash: block.body.txEffects[0]!.txHash,
        l2BlockNumber: 1,
        l2BlockHash: block.hash,
        txIndexInBlock: 0,
        logIndexInTx: 0,
        fields: [hex32(9)],
      },
    ],
  ]);
  expect((await logs.getPublicLogsByTags(hex32(0xc0de), [tag], true, 20))[0]![0]).toMatchObject({
    nullifiers: block.body.txEffects[0]!.nullifiers,
  });
});
