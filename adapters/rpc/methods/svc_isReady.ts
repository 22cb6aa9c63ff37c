import type { MethodHandler } from '../methodHandler.js';

export const svc_isReady: MethodHandler<'svc_isReady'> = (node) => node.info.isReady();
