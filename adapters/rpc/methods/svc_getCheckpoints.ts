import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';
import { checkpointResponseFromNode } from './svc_getCheckpoint.js';

export const svc_getCheckpoints: MethodHandler<'svc_getCheckpoints'> = async (
  node,
  [from, limit, options],
  { limits },
) => {
  assertWithinLimit(limits, 'checkpointsPerCallMax', limit);
  const checkpoints = await node.chain.getCheckpoints(from, limit);
  return Promise.all(checkpoints.map((checkpoint) => checkpointResponseFromNode(node, checkpoint, options)));
};
