import type { MethodHandler } from '../methodHandler.js';

export const svcAdmin_resumeSequencer: MethodHandler<'svcAdmin_resumeSequencer'> = (node) =>
  node.admin.resumeSequencer();
