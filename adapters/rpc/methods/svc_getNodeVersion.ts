import type { MethodHandler } from '../methodHandler.js';

export const svc_getNodeVersion: MethodHandler<'svc_getNodeVersion'> = (node) => node.info.getNodeVersion();
