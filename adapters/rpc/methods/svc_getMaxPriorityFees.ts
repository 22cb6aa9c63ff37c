import type { MethodHandler } from '../methodHandler.js';

/** Per gas dimension, the highest priority fee a pooled tx can actually pay. */
export const svc_getMaxPriorityFees: MethodHandler<'svc_getMaxPriorityFees'> = (node) => node.txs.getMaxPriorityFees();
