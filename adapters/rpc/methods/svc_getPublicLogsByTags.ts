import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';
import { logResultsValueOf } from '../logResults.js';

/** One list of one contract's public logs per tag, in the tags' order; over logsPerTagMax in a tag is -32005. */
export const svc_getPublicLogsByTags: MethodHandler<'svc_getPublicLogsByTags'> = async (node, [query], { limits }) => {
  assertWithinLimit(limits, 'tagsPerQueryMax', query.tags.length);
  const found = await node.logs.getPublicLogsByTags(
    query.contractAddress,
    query.tags,
    query.includeEffects === true,
    limits.logsPerTagMax,
  );
  return logResultsValueOf(found);
};
