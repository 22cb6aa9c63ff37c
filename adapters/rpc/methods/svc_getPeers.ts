import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the peer-to-peer network, which this node version does not have yet: params are checked (by the
 * dispatcher), then the call answers -32004 naming it.
 */
export const svc_getPeers: MethodHandler<'svc_getPeers'> = () => {
  throw subsystemUnavailable('p2p', 'notBuilt');
};
