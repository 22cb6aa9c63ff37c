import type { MethodHandler } from '../methodHandler.js';

export const svc_getChainId: MethodHandler<'svc_getChainId'> = (node) => node.info.getChainId();
