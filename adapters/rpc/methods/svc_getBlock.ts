import { blockResponseOf } from '../../../spec/wire/block.js';
import type { MethodHandler } from '../methodHandler.js';

/** Attestations are not kept yet: `includeAttestations` answers an empty list (see the method's description). */
export const svc_getBlock: MethodHandler<'svc_getBlock'> = async (node, [param, options]) => {
  const found = await node.getBlock(param);
  return found && blockResponseOf(found.block, found.checkpoint?.l1, options);
};
