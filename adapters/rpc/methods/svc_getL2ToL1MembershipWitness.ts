import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the cross-chain message index, which this node version does not have yet: params are checked (by the
 * dispatcher), then the call answers -32004 naming it.
 */
export const svc_getL2ToL1MembershipWitness: MethodHandler<'svc_getL2ToL1MembershipWitness'> = () => {
  throw subsystemUnavailable('messages', 'notBuilt');
};
