import type { MethodHandler } from '../methodHandler.js';

export const svc_getSyncedL2SlotNumber: MethodHandler<'svc_getSyncedL2SlotNumber'> = (node) =>
  node.chain.getSyncedL2SlotNumber();
