import type { MethodHandler } from '../methodHandler.js';

export const svc_getChainTips: MethodHandler<'svc_getChainTips'> = (node) => node.chain.getChainTips();
