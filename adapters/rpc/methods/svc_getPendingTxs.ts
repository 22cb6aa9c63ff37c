import { subsystemUnavailable } from '../../../core/errors.js';
import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/**
 * Needs the transaction pool, which this node version does not have yet: params are checked (by the
 * dispatcher, and the list bound here), then the call answers -32004 naming it.
 */
export const svc_getPendingTxs: MethodHandler<'svc_getPendingTxs'> = (_node, [limit], { limits }) => {
  if (limit !== undefined) assertWithinLimit(limits, 'txsPerCallMax', limit);
  throw subsystemUnavailable('txPool', 'notBuilt');
};
