import { blockDataOf } from '../../../spec/wire/block.js';
import type { MethodHandler } from '../methodHandler.js';

export const svc_getBlockData: MethodHandler<'svc_getBlockData'> = async (node, [param]) => {
  const found = await node.chain.getBlock(param);
  return found && blockDataOf(found.block);
};
