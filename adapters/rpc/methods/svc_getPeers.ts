import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** The node's peers as its network knows them: connected, dialing and cached, and pending ones when asked. */
export const svc_getPeers: MethodHandler<'svc_getPeers'> = (node, [includePending]) => {
  if (node.p2p === undefined) throw subsystemUnavailable('p2p', 'notEnabled');
  return node.p2p.peers(includePending === true).map(({ id, status, addresses }) => ({
    id,
    status,
    addresses: [...addresses],
  }));
};
