/**
 * The contract part of NodeService over the contract index (contractIndexer.ts): registers the index with the chain
 * store and answers classes, instances as of a reference block, and the protocol contracts' addresses.
 */
import type { Chain } from '../chain/chain.js';
import { PROTOCOL_CONTRACTS, type ProtocolContractAddresses } from './contractConstants.js';
import { contractIndexer } from './contractIndexer.js';
import { findContractClass, findContractInstance } from './contractStore.js';
import type { ContractClassPublication, ContractInstancePublication, Hex } from '../../spec/chain.js';
import type { BlockQuery } from '../nodeService.js';
import { unknownReferenceBlock } from '../chain/referenceBlock.js';

/** Published contract classes and instances. */
export interface ContractService {
  /** A registered contract class, or undefined. */
  getContractClass(id: Hex): Promise<ContractClassPublication | undefined>;
  /**
   * A published instance with its current class as of the reference block; undefined when never published (as of
   * that block). STATE_NOT_AVAILABLE when the node does not have the reference block.
   */
  getContract(address: Hex, reference: BlockQuery): Promise<ContractInstancePublication | undefined>;
  getProtocolContractAddresses(): ProtocolContractAddresses;
}

/** Registers the contract index on `chain`'s store (before the chain syncs) and answers from it. */
export function createContractService(
  chain: Chain,
  resolveBlockNumber: (query: BlockQuery) => Promise<number | undefined>,
): ContractService {
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
