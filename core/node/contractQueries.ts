/**
 * The contract part of NodeService over the contract index (core/l2Contracts): registers the index with the chain
 * store and answers classes, instances as of a reference block, and the protocol contracts' addresses.
 */
import type { Chain } from '../chain/chain.js';
import { PROTOCOL_CONTRACTS } from '../l2Contracts/contractConstants.js';
import { contractIndexer } from '../l2Contracts/contractIndexer.js';
import { findContractClass, findContractInstance } from '../l2Contracts/contractStore.js';
import type { BlockQuery, ContractService } from '../nodeService.js';
import { unknownReferenceBlock } from './referenceBlock.js';

/** Registers the contract index on `chain`'s store (before the chain syncs) and answers from it. */
export function createContractQueries(chain: Chain, resolveBlockNumber: (query: BlockQuery) => Promise<number | undefined>): ContractService {
  chain.store.registerIndexer(contractIndexer);
  const isKept = (blockNumber: number | undefined): blockNumber is number =>
    blockNumber !== undefined && blockNumber >= 0 && blockNumber <= chain.tips.proposed.number;
  return {
    getContractClass: (id) => findContractClass(chain.store, id),
    async getContract(address, query) {
      const blockNumber = await resolveBlockNumber(query);
      if (!isKept(blockNumber)) throw unknownReferenceBlock(query, blockNumber);
      const instance = await findContractInstance(chain.store, address, blockNumber);
      // A prune during the read may have taken the reference block away: then the answer names no kept block.
      if (!isKept(blockNumber)) throw unknownReferenceBlock(query, blockNumber);
      return instance;
    },
    getProtocolContractAddresses: () => PROTOCOL_CONTRACTS,
  };
}
