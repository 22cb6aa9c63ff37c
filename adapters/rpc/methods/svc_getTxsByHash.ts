import { assertWithinLimit, type MethodHandler } from '../methodHandler.js';

/** The pending txs among the hashes (unknown ones are left out), proofs stripped unless includeProof. */
export const svc_getTxsByHash: MethodHandler<'svc_getTxsByHash'> = (node, [txHashes, options], { limits }) => {
  assertWithinLimit(limits, 'txHashesPerCallMax', txHashes.length);
  return node.txs.getTxsByHash(txHashes, options?.includeProof === true);
};
