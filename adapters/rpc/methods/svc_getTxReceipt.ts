import type { MethodHandler } from '../methodHandler.js';

/** Always a receipt: mined (with its tip status), pending, or dropped (not found). */
export const svc_getTxReceipt: MethodHandler<'svc_getTxReceipt'> = (node, [txHash, options]) =>
  node.txs.getTxReceipt(txHash, options ?? {});
