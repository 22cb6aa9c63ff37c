import { checkpointDataOf } from '../../../spec/wire/checkpoint.js';
import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/**
 * A range is bounded by the `limit` it asks for; an epoch by how many checkpoints it holds (at most one per slot),
 * refused whole when that exceeds the bound rather than cut.
 */
export const svc_getCheckpointsData: MethodHandler<'svc_getCheckpointsData'> = async (node, [query], { limits }) => {
  if ('epoch' in query) {
    const checkpoints = await node.chain.getCheckpointsInEpoch(query.epoch);
    assertWithinLimit(limits, 'checkpointDataEntriesPerCallMax', checkpoints.length);
    return checkpoints.map(checkpointDataOf);
  }
  assertWithinLimit(limits, 'checkpointDataEntriesPerCallMax', query.limit);
  const checkpoints = await node.chain.getCheckpoints(query.from, query.limit);
  return checkpoints.map(checkpointDataOf);
};
