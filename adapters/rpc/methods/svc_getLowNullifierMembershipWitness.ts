import type { MethodHandler } from '../methodHandler.js';

/** Low-leaf witness proving a nullifier's absence; null when the nullifier exists. */
export const svc_getLowNullifierMembershipWitness: MethodHandler<'svc_getLowNullifierMembershipWitness'> = (
  node,
  [reference, nullifier],
) => node.worldState.getLowNullifierMembershipWitness(reference, nullifier);
