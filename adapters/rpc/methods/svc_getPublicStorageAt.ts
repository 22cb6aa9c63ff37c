import type { MethodHandler } from '../methodHandler.js';

/** A contract's public storage slot as of the reference block (0 when never written). */
export const svc_getPublicStorageAt: MethodHandler<'svc_getPublicStorageAt'> = (node, [reference, contract, slot]) =>
  node.worldState.getPublicStorageAt(reference, contract, slot);
