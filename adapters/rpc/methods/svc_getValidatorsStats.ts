import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** The validator statistics over the recent slot window; -32004 when the node does not follow the validator set. */
export const svc_getValidatorsStats: MethodHandler<'svc_getValidatorsStats'> = (node) => {
  if (node.validators === undefined) throw subsystemUnavailable('validator', 'notEnabled');
  return node.validators.getValidatorsStats();
};
