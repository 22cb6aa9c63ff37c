import type { MethodHandler } from '../methodHandler.js';

/** Validates the tx and puts it in the pool; an invalid tx is -32602 with every reason, a pool refusal -32003. */
export const svc_sendTx: MethodHandler<'svc_sendTx'> = (node, [tx]) => node.txs.sendTx(tx);
