import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the transaction pool (the figure is read from the txs it holds), which this node version does not have yet:
 * the call answers -32004 naming it.
 */
export const svc_getMaxPriorityFees: MethodHandler<'svc_getMaxPriorityFees'> = () => {
  throw subsystemUnavailable('txPool', 'notBuilt');
};
