import { describe, expect, it } from 'vitest';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { TXS_BY_HASH_REQUEST_HASHES_MAX } from '../../spec/p2p/constants.js';
import { makeTx } from '../../test/txPool/txFixtures.js';
import type { Chain } from '../chain/chain.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';
import { nodeRequestHandlers } from './nodeRequestHandlers.js';

const hash = (byte: string): Hex => `0x${byte.repeat(32)}`;

function handlersOver(pooled: readonly ReturnType<typeof makeTx>[]) {
  const byHash = new Map(pooled.map((tx) => [tx.txHash, { tx }]));
  let lookups = 0;
  const txPool = { current: { get: (h: Hex) => (lookups++, byHash.get(h)) } } as unknown as NodeTxPool;
  const chain = {
    tips: {
      proposed: { number: 9, hash: hash('09') },
      checkpointed: { block: { number: 7, hash: hash('07') }, checkpoint: { number: 2, hash: hash('02') } },
    },
  } as unknown as Chain;
  const constants = { l1ChainId: 31337, rollupVersion: 4 } as L1RollupConstants;
  return { handlers: nodeRequestHandlers({ chain, constants, txPool }), lookups: () => lookups };
}

describe("the node's answers to its peers", () => {
  it('tells its chain, rollup version and tips', () => {
    expect(handlersOver([]).handlers.status()).toEqual({
      l1ChainId: 31337,
      rollupVersion: 4,
      proposedBlock: { number: 9, hash: hash('09') },
      checkpointedBlock: { number: 7, hash: hash('07') },
    });
  });

  it('answers the pooled txs among the hashes asked, once each, in any case, and looks up a bounded number', async () => {
    const [a, b] = [makeTx({ hash: 1 }), makeTx({ hash: 2 })];
    const { handlers, lookups } = handlersOver([a, b]);
    const asked = [`0x${a.txHash.slice(2).toUpperCase()}` as Hex, a.txHash, hash('ff')];
    expect(await handlers.txsByHash(asked)).toEqual([a]);
    const many = Array.from(
      { length: 2 * TXS_BY_HASH_REQUEST_HASHES_MAX },
      (_, i) => `0x${i.toString(16).padStart(64, '0')}` as Hex,
    );
    const before = lookups();
    await handlers.txsByHash([...many, b.txHash]);
    expect(lookups() - before).toBeLessThanOrEqual(TXS_BY_HASH_REQUEST_HASHES_MAX);
  });
});
