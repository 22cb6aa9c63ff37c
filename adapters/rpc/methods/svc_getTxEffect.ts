import type { MethodHandler } from '../methodHandler.js';
import { txEffectValueOf } from '../../../spec/wire/txEffect.js';

/** Deprecated: the effect of a mined tx with its block; svc_getTxReceipt with includeTxEffect answers the same. */
export const svc_getTxEffect: MethodHandler<'svc_getTxEffect'> = async (node, [txHash]) => {
  const found = await node.txs.getTxEffect(txHash);
  return found && { ...found, data: txEffectValueOf(found.data) };
};
