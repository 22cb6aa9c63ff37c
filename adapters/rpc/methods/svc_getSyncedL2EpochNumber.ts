import type { MethodHandler } from '../methodHandler.js';

export const svc_getSyncedL2EpochNumber: MethodHandler<'svc_getSyncedL2EpochNumber'> = (node) =>
  node.getSyncedL2EpochNumber();
