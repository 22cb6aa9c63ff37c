import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** Duplicate proposals and attestations the node detected, for a slashing round, the current one, or all kept. */
export const svcAdmin_getSlashOffenses: MethodHandler<'svcAdmin_getSlashOffenses'> = (node, [round]) => {
  if (node.validators === undefined) throw subsystemUnavailable('slashing', 'notEnabled');
  return node.validators.getSlashOffenses(round);
};
