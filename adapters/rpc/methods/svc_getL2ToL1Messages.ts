import type { MethodHandler } from '../methodHandler.js';

/** Deprecated: an epoch's L2-to-L1 messages nested per checkpoint, per block, per tx ([] for an unknown epoch). */
export const svc_getL2ToL1Messages: MethodHandler<'svc_getL2ToL1Messages'> = (node, [epoch]) =>
  node.messages.getL2ToL1Messages(epoch);
