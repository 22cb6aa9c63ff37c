/**
 * Checker: a pooled tx leaves for a newcomer (a replacement sharing a nullifier, or an eviction from a full pool)
 * only when the newcomer pays at least the bump more: old + max(1, floor(old * bump / 100)), per the spec's price
 * bump rule. The rule is restated here, not imported from the pool, so that a broken pool cannot also break its
 * judge.
 */
import type { TxPoolActivity } from '../../core/txPool/nodeTxPool.js';
import type { SimFailure } from './simFailure.js';

/** The least priority fee that may replace a pooled tx paying `pooledPriorityFee` under `bumpPercentage`. */
export function minimumReplacementFee(pooledPriorityFee: bigint, bumpPercentage: number): bigint {
  const bump = (pooledPriorityFee * BigInt(bumpPercentage)) / 100n;
  return pooledPriorityFee + (bump > 1n ? bump : 1n);
}

/** The failures in one pool activity of node `node` whose bump setting is `bumpPercentage`. */
export function checkReplacements(node: string, activity: TxPoolActivity, bumpPercentage: number): SimFailure[] {
  if (activity.kind !== 'accepted') return [];
  const failures: SimFailure[] = [];
  for (const removal of activity.removed) {
    if (removal.reason !== 'replaced' && removal.reason !== 'poolFull') continue;
    const offered = removal.reason === 'replaced' ? removal.replacementPriorityFee : removal.newcomerPriorityFee;
    const needed = minimumReplacementFee(removal.priorityFee, bumpPercentage);
    if (offered < needed) {
      failures.push({
        kind: 'replacementWithoutBump',
        node,
        detail: `tx ${removal.txHash} (priority fee ${removal.priorityFee}) left the pool (${removal.reason}) for tx ${activity.txHash} paying ${offered}, below the ${needed} a ${bumpPercentage}% bump needs`,
      });
    }
  }
  return failures;
}
