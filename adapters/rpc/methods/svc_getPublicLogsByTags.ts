import { subsystemUnavailable } from '../../../core/errors.js';
import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/**
 * Needs the log index, which this node version does not have yet: params are checked (by the
 * dispatcher, and the list bound here), then the call answers -32004 naming it.
 */
export const svc_getPublicLogsByTags: MethodHandler<'svc_getPublicLogsByTags'> = (_node, [query], { limits }) => {
  assertWithinLimit(limits, 'tagsPerQueryMax', query.tags.length);
  throw subsystemUnavailable('logs', 'notBuilt');
};
