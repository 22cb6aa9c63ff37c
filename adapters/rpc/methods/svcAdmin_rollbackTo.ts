import type { MethodHandler } from '../methodHandler.js';

/**
 * Rolls the node back to a block and resumes sync (unless resumeSync is false); below the finalized block only with
 * force, which also clears the world state and the pool. Answers once the rollback is done; -32007 when refused.
 */
export const svcAdmin_rollbackTo: MethodHandler<'svcAdmin_rollbackTo'> = (
  node,
  [targetBlockNumber, force, resumeSync],
) => node.admin.rollbackTo(targetBlockNumber, force ?? false, resumeSync ?? true);
