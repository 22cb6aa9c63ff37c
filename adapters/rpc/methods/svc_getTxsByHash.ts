import { subsystemUnavailable } from '../../../core/errors.js';
import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/**
 * Needs the transaction pool, which this node version does not have yet: params are checked (by the
 * dispatcher, and the list bound here), then the call answers -32004 naming it.
 */
export const svc_getTxsByHash: MethodHandler<'svc_getTxsByHash'> = (_node, [txHashes], { limits }) => {
  assertWithinLimit(limits, 'txHashesPerCallMax', txHashes.length);
  throw subsystemUnavailable('txPool', 'notBuilt');
};
