import type { MethodHandler } from '../methodHandler.js';

/** The tx's public calls run on a throwaway fork of the latest state, with the overrides applied first. */
export const svc_simulatePublicCalls: MethodHandler<'svc_simulatePublicCalls'> = async (
  node,
  [tx, skipFeeEnforcement, overrides],
) => {
  const output = await node.txs.simulatePublicCalls(tx, skipFeeEnforcement ?? false, overrides ?? {});
  return { ...output, publicReturnValues: output.publicReturnValues.map((values) => [...values]) };
};
