import type { MethodHandler } from '../methodHandler.js';

export const svcAdmin_getConfig: MethodHandler<'svcAdmin_getConfig'> = (node) => node.admin.getConfig();
