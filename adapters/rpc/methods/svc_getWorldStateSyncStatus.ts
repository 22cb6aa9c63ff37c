import type { MethodHandler } from '../methodHandler.js';

/** How far the world state has followed the chain. */
export const svc_getWorldStateSyncStatus: MethodHandler<'svc_getWorldStateSyncStatus'> = (node) =>
  node.worldState.getWorldStateSyncStatus();
