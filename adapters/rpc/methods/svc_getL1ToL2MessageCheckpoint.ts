import type { MethodHandler } from '../methodHandler.js';

/** The checkpoint from which an L1-to-L2 message (its leaf) can be consumed; null when the node has not synced it. */
export const svc_getL1ToL2MessageCheckpoint: MethodHandler<'svc_getL1ToL2MessageCheckpoint'> = (node, [message]) =>
  node.messages.getL1ToL2MessageCheckpoint(message);
