import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** The node's Ethereum Node Record (`enr:...`) when its network runs discovery; undefined (null) otherwise. */
export const svc_getEncodedEnr: MethodHandler<'svc_getEncodedEnr'> = (node) => {
  if (node.p2p === undefined) throw subsystemUnavailable('p2p', 'notEnabled');
  return node.p2p.encodedEnr();
};
