/** Fake tx answers of the fake node. */
import { subsystemUnavailable, type Subsystem } from '../../../core/errors.js';
import type { TxService } from '../../../core/txs/txService.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../../spec/config/allowList.js';

const missing = (subsystem: Subsystem) => async (): Promise<never> => {
  throw subsystemUnavailable(subsystem, 'notBuilt');
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
  getAllowedPublicSetup: () => SETUP_ALLOW_LIST_DEFAULTS,
};
