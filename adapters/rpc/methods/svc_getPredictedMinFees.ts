import type { MethodHandler } from '../methodHandler.js';

/** Current minimum fees, then one forecast per coming slot under the mana usage asked for (default 'target'). */
export const svc_getPredictedMinFees: MethodHandler<'svc_getPredictedMinFees'> = (node, [manaUsage]) =>
  node.fees.getPredictedMinFees(manaUsage ?? 'target');
