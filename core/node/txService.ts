/** Transactions: the pool and receipts are being wired in (issue 5); until then every call names the missing part. */
import { subsystemUnavailable } from '../errors.js';
import type { TxService } from '../nodeService.js';

export function createUnavailableTxService(): TxService {
  const pool = async (): Promise<never> => {
    throw subsystemUnavailable('txPool', 'notBuilt');
  };
  const execution = async (): Promise<never> => {
    throw subsystemUnavailable('publicExecution', 'notBuilt');
  };
  return {
    sendTx: pool,
    getTxReceipt: pool,
    getTxEffect: pool,
    getTxByHash: pool,
    getTxsByHash: pool,
    getPendingTxs: pool,
    getPendingTxCount: pool,
    getMaxPriorityFees: pool,
    isValidTx: execution,
    simulatePublicCalls: execution,
  };
}
