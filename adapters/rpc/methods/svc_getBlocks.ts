import { blockResponseOf } from '../../../spec/wire/block.js';
import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

export const svc_getBlocks: MethodHandler<'svc_getBlocks'> = async (node, [from, limit, options], { limits }) => {
  assertWithinLimit(limits, 'blocksPerCallMax', limit);
  const found = await node.chain.getBlocks(from, limit);
  return found.map(({ block, checkpoint }) => blockResponseOf(block, checkpoint, options));
};
