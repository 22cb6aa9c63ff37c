import type { MethodHandler } from '../methodHandler.js';

/** A block hash's leaf in the reference block's archive tree. */
export const svc_getBlockHashMembershipWitness: MethodHandler<'svc_getBlockHashMembershipWitness'> = (
  node,
  [reference, blockHash],
) => node.worldState.getBlockHashMembershipWitness(reference, blockHash);
