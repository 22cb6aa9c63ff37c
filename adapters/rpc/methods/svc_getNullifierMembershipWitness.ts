import type { MethodHandler } from '../methodHandler.js';

/** Membership witness of a nullifier, or null when it is not in the tree. */
export const svc_getNullifierMembershipWitness: MethodHandler<'svc_getNullifierMembershipWitness'> = (
  node,
  [reference, nullifier],
) => node.worldState.getNullifierMembershipWitness(reference, nullifier);
