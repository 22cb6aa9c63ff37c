/** Contract classes and instances: not built in this version of the node yet. */
import type { Chain } from '../chain/chain.js';
import { subsystemUnavailable } from '../errors.js';
import type { BlockQuery, ContractService } from '../nodeService.js';

export function createContractQueries(_chain: Chain, _resolveBlockNumber: (query: BlockQuery) => Promise<number | undefined>): ContractService {
  const missing = (): never => {
    throw subsystemUnavailable('contracts', 'notBuilt');
  };
  return { getContractClass: async () => missing(), getContract: async () => missing(), getProtocolContractAddresses: missing };
}
