import type { MethodHandler } from '../methodHandler.js';

/** An L1-to-L2 message's `[leafIndex, SiblingPath]`. */
export const svc_getL1ToL2MessageMembershipWitness: MethodHandler<'svc_getL1ToL2MessageMembershipWitness'> = (
  node,
  [reference, message],
) => node.worldState.getL1ToL2MessageMembershipWitness(reference, message);
