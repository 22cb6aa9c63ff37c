/**
 * What a node answers its peers besides the block proposals its validator client holds: its status (chain, rollup
 * version, tips) and the pooled txs they ask for by hash.
 */
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { TXS_BY_HASH_REQUEST_HASHES_MAX } from '../../spec/p2p/constants.js';
import type { TxValue } from '../../spec/wire/tx.js';
import type { Chain } from '../chain/chain.js';
import type { NetworkRequestHandlers } from '../ports.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';

export interface NodeRequestParts {
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly txPool: NodeTxPool;
}

export function nodeRequestHandlers(parts: NodeRequestParts): Pick<NetworkRequestHandlers, 'status' | 'txsByHash'> {
  const { chain, constants, txPool } = parts;
  return {
    status() {
      const { proposed, checkpointed } = chain.tips;
      return {
        l1ChainId: constants.l1ChainId,
        rollupVersion: constants.rollupVersion,
        proposedBlock: { number: proposed.number, hash: proposed.hash },
        checkpointedBlock: { number: checkpointed.block.number, hash: checkpointed.block.hash },
      };
    },
    /** The pooled txs among the first TXS_BY_HASH_REQUEST_HASHES_MAX distinct hashes asked for. */
    async txsByHash(hashes) {
      const asked = [...new Set(hashes.map((h) => h.toLowerCase() as Hex))].slice(0, TXS_BY_HASH_REQUEST_HASHES_MAX);
      const found: TxValue[] = [];
      for (const hash of asked) {
        const pooled = txPool.current.get(hash);
        if (pooled !== undefined) found.push(pooled.tx);
      }
      return found;
    },
  };
}
