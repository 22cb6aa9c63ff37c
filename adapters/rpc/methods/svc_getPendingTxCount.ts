import type { MethodHandler } from '../methodHandler.js';

export const svc_getPendingTxCount: MethodHandler<'svc_getPendingTxCount'> = (node) => node.txs.getPendingTxCount();
