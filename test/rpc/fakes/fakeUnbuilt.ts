/** Fake answers for the parts the node does not serve yet: each names its missing subsystem (-32004). */
import { subsystemUnavailable, type Subsystem } from '../../../core/errors.js';
import type { ContractService, LogService, TxService } from '../../../core/nodeService.js';

const missing = (subsystem: Subsystem) => async (): Promise<never> => {
  throw subsystemUnavailable(subsystem, 'notBuilt');
};

export const fakeLogs: LogService = { getPrivateLogsByTags: missing('logs'), getPublicLogsByTags: missing('logs') };

export const fakeContracts: ContractService = {
  getContractClass: missing('contracts'),
  getContract: missing('contracts'),
  getProtocolContractAddresses: () => {
    throw subsystemUnavailable('contracts', 'notBuilt');
  },
};

export const fakeTxs: TxService = {
  sendTx: missing('txPool'),
  getTxReceipt: missing('txPool'),
  getTxEffect: missing('txPool'),
  getTxByHash: missing('txPool'),
  getTxsByHash: missing('txPool'),
  getPendingTxs: missing('txPool'),
  getPendingTxCount: missing('txPool'),
  getMaxPriorityFees: missing('txPool'),
  isValidTx: missing('publicExecution'),
  simulatePublicCalls: missing('publicExecution'),
};
