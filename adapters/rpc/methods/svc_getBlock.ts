import { blockResponseOf } from '../../../spec/wire/block.js';
import type { MethodHandler } from '../methodHandler.js';

/** L1 publish info and attestations come from the block's L1 checkpoint (none while the block is proposed only). */
export const svc_getBlock: MethodHandler<'svc_getBlock'> = async (node, [param, options]) => {
  const found = await node.chain.getBlock(param);
  return found && blockResponseOf(found.block, found.checkpoint, options);
};
