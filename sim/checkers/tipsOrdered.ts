/** Checker: on every node, after every chain change, finalized <= proven <= checkpointed <= proposed. */
import type { L2Tips } from '../../spec/chain.js';
import { tipsOrdered } from '../../core/chain/tips.js';
import type { SimFailure } from './simFailure.js';

export function checkTipsOrdered(node: string, tips: L2Tips): SimFailure[] {
  return tipsOrdered(tips) ? [] : [{ kind: 'tipsOutOfOrder', node, detail: JSON.stringify(tips) }];
}
