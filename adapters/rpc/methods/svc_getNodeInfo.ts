import type { MethodHandler } from '../methodHandler.js';

export const svc_getNodeInfo: MethodHandler<'svc_getNodeInfo'> = (node) => node.info.getNodeInfo();
