import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/** Leaf indexes (with the inserting block) of up to `leavesPerQueryMax` values, in input order; null where absent. */
export const svc_findLeavesIndexes: MethodHandler<'svc_findLeavesIndexes'> = async (
  node,
  [reference, treeId, leafValues],
  { limits },
) => {
  assertWithinLimit(limits, 'leavesPerQueryMax', leafValues.length);
  const found = await node.worldState.findLeavesIndexes(reference, treeId, leafValues);
  return found.map((entry) => entry ?? null);
};
