import type { MethodHandler } from '../methodHandler.js';

export const svcAdmin_pauseSync: MethodHandler<'svcAdmin_pauseSync'> = (node) => node.admin.pauseSync();
