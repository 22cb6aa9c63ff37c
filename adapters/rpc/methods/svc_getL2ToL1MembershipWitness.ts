import type { MethodHandler } from '../methodHandler.js';

/**
 * A tx's L2-to-L1 message witness against the smallest outbox root covering it, or null until one lands on L1 (the
 * node's INVALID_PARAMS, e.g. a message the tx does not hold, maps to -32602).
 */
export const svc_getL2ToL1MembershipWitness: MethodHandler<'svc_getL2ToL1MembershipWitness'> = (
  node,
  [txHash, message, messageIndexInTx],
) => node.messages.getL2ToL1MembershipWitness(txHash, message, messageIndexInTx?.index);
