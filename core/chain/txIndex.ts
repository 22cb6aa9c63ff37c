/** Where each mined tx is: `txByHash:<hash>` -> `<blockNumber>:<index in block>`, kept with its block. */
import type { Hex } from '../../spec/chain.js';
import type { BlockIndexer } from './blockIndexer.js';
import type { ChainStore } from './chainStore.js';

const PREFIX = 'txByHash:';
const keyOf = (txHash: Hex): string => `${PREFIX}${txHash.toLowerCase()}`;

export const txIndexer: BlockIndexer = {
  keyPrefix: PREFIX,
  blockAdded: (block) =>
    block.body.txEffects.map((effect, index) => ({
      type: 'put',
      key: keyOf(effect.txHash),
      value: `${block.header.globalVariables.blockNumber}:${index}`,
    })),
  blockRemoved: (block) => block.body.txEffects.map((effect) => ({ type: 'del', key: keyOf(effect.txHash) })),
};

export interface TxLocation {
  readonly blockNumber: number;
  readonly indexInBlock: number;
}

export async function findTx(store: ChainStore, txHash: Hex): Promise<TxLocation | undefined> {
  const text = await store.getIndexEntry(keyOf(txHash));
  if (text === undefined) return undefined;
  const [blockNumber, indexInBlock] = text.split(':').map(Number);
  return { blockNumber: blockNumber!, indexInBlock: indexInBlock! };
}
