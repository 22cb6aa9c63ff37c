import type { MethodHandler } from '../methodHandler.js';

/** A pending tx; its proof is `0x` unless includeProof. */
export const svc_getTxByHash: MethodHandler<'svc_getTxByHash'> = (node, [txHash, options]) =>
  node.txs.getTxByHash(txHash, options?.includeProof === true);
