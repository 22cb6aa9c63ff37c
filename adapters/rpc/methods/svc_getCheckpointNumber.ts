import type { MethodHandler } from '../methodHandler.js';

export const svc_getCheckpointNumber: MethodHandler<'svc_getCheckpointNumber'> = (node, [tip]) =>
  node.chain.getCheckpointNumber(tip);
