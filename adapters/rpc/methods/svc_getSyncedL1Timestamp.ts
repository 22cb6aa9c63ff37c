import type { MethodHandler } from '../methodHandler.js';

export const svc_getSyncedL1Timestamp: MethodHandler<'svc_getSyncedL1Timestamp'> = (node) =>
  node.chain.getSyncedL1Timestamp();
