import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/** A page of pending txs in priority order after `after`; `limit` defaults to and may not exceed txsPerCallMax. */
export const svc_getPendingTxs: MethodHandler<'svc_getPendingTxs'> = (node, [limit, after, options], { limits }) => {
  if (limit !== undefined) assertWithinLimit(limits, 'txsPerCallMax', limit);
  return node.txs.getPendingTxs(limit ?? limits.txsPerCallMax, after, options?.includeProof === true);
};
