import type { MethodHandler } from '../methodHandler.js';

export const svc_getBlockNumber: MethodHandler<'svc_getBlockNumber'> = (node, [tip]) => node.chain.getBlockNumber(tip);
