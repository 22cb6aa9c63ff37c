import type { MethodHandler } from '../methodHandler.js';

export const svcAdmin_resumeSync: MethodHandler<'svcAdmin_resumeSync'> = (node) => node.admin.resumeSync();
