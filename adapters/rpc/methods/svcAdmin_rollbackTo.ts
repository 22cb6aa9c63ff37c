import { NodeError } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Rolling back is the archiver's job, and this node version's archiver cannot roll back on request yet. The core's
 * subsystem list (core/errors.ts) has no entry for that capability, so the -32004 answer is built here with the same
 * payload shape as subsystemUnavailable's: `{ subsystem: 'archiver rollback', reason: 'notBuilt' }`.
 */
export const svcAdmin_rollbackTo: MethodHandler<'svcAdmin_rollbackTo'> = () => {
  throw new NodeError('SUBSYSTEM_DISABLED', 'the archiver rollback is not part of this node version yet', {
    subsystem: 'archiver rollback',
    reason: 'notBuilt',
  });
};
