/** Fake contract answers of the fake node. */
import { subsystemUnavailable } from '../../../core/errors.js';
import type { ContractService } from '../../../core/nodeService.js';

const missing = (): never => {
  throw subsystemUnavailable('contracts', 'notBuilt');
};

export const fakeContracts: ContractService = {
  getContractClass: async () => missing(),
  getContract: async () => missing(),
  getProtocolContractAddresses: missing,
};
