import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';
import { logResultsValueOf } from '../logResults.js';

/** One list of private logs per tag, in the tags' order; a tag with more than logsPerTagMax logs is -32005. */
export const svc_getPrivateLogsByTags: MethodHandler<'svc_getPrivateLogsByTags'> = async (
  node,
  [query],
  { limits },
) => {
  assertWithinLimit(limits, 'tagsPerQueryMax', query.tags.length);
  return logResultsValueOf(
    await node.logs.getPrivateLogsByTags(query.tags, query.includeEffects === true, limits.logsPerTagMax),
  );
};
