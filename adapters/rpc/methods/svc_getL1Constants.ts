import type { MethodHandler } from '../methodHandler.js';

export const svc_getL1Constants: MethodHandler<'svc_getL1Constants'> = (node) => node.info.getL1Constants();
