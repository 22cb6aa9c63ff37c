import type { MethodHandler } from '../methodHandler.js';

/** Valid, or invalid with every reason, against the node's latest state. */
export const svc_isValidTx: MethodHandler<'svc_isValidTx'> = async (node, [tx, options]) => {
  const result = await node.txs.isValidTx(tx, options ?? {});
  return result.valid ? { valid: true } : { valid: false, reasons: [...result.reasons] };
};
