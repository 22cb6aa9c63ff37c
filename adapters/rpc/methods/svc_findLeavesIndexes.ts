import { subsystemUnavailable } from '../../../core/errors.js';
import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/**
 * Needs the world state, which this node version does not have yet: params are checked (by the
 * dispatcher, and the list bound here), then the call answers -32004 naming it.
 */
export const svc_findLeavesIndexes: MethodHandler<'svc_findLeavesIndexes'> = (_node, [, , leafValues], { limits }) => {
  assertWithinLimit(limits, 'leavesPerQueryMax', leafValues.length);
  throw subsystemUnavailable('worldState', 'notBuilt');
};
