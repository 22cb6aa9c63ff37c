import type { MethodHandler } from '../methodHandler.js';

export const svc_getSyncedL2EpochNumber: MethodHandler<'svc_getSyncedL2EpochNumber'> = (node) =>
  node.chain.getSyncedL2EpochNumber();
