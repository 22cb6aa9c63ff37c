import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the transaction pool, which this node version does not have yet: the pool applies the setup allow list to
 * txs entering it, and the configured list reaches the node with it. Until then the call answers -32004 naming it.
 */
export const svc_getAllowedPublicSetup: MethodHandler<'svc_getAllowedPublicSetup'> = () => {
  throw subsystemUnavailable('txPool', 'notBuilt');
};
