import type { MethodHandler } from '../methodHandler.js';

/** The public-data leaf of a slot, or its low leaf when unset. */
export const svc_getPublicDataWitness: MethodHandler<'svc_getPublicDataWitness'> = (node, [reference, leafSlot]) =>
  node.worldState.getPublicDataWitness(reference, leafSlot);
