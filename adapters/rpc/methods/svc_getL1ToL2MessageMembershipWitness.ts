import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the world state (the L1-to-L2 message tree is one of its trees), which this node version does not have yet:
 * params are checked (by the dispatcher), then the call answers -32004 naming it.
 */
export const svc_getL1ToL2MessageMembershipWitness: MethodHandler<'svc_getL1ToL2MessageMembershipWitness'> = () => {
  throw subsystemUnavailable('worldState', 'notBuilt');
};
