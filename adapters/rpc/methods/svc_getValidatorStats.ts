import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * One validator's counts and duties between fromSlot and toSlot (default: the stats window); null when it had no
 * duty in the kept history, -32602 when fromSlot is after toSlot.
 */
export const svc_getValidatorStats: MethodHandler<'svc_getValidatorStats'> = (
  node,
  [validatorAddress, fromSlot, toSlot],
) => {
  if (node.validators === undefined) throw subsystemUnavailable('validator', 'notEnabled');
  return node.validators.getValidatorStats(validatorAddress, fromSlot, toSlot);
};
