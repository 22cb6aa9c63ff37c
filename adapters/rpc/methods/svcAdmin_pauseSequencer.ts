import type { MethodHandler } from '../methodHandler.js';

export const svcAdmin_pauseSequencer: MethodHandler<'svcAdmin_pauseSequencer'> = (node) => node.admin.pauseSequencer();
