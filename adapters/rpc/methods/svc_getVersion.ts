import type { MethodHandler } from '../methodHandler.js';

export const svc_getVersion: MethodHandler<'svc_getVersion'> = (node) => node.info.getVersion();
