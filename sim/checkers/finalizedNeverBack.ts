/**
 * Checker: a node's finalized block never moves back, across its restarts too, except through an operator's forced
 * rollback (a prune with reason 'rollback' below the finalized block, which only `force` allows).
 */
import type { ChainEvent, L2Tips } from '../../spec/chain.js';
import type { SimFailure } from './simFailure.js';

export class FinalizedNeverBack {
  /** Per node (by name, across incarnations): the highest finalized block seen since the last forced rollback. */
  private readonly highest = new Map<string, number>();

  observe(node: string, tips: L2Tips, event: ChainEvent | undefined): SimFailure[] {
    const finalized = tips.finalized.block.number;
    const before = this.highest.get(node);
    const forcedRollback =
      event?.type === 'chainPruned' &&
      event.reason === 'rollback' &&
      before !== undefined &&
      event.toBlock.number < before;
    this.highest.set(node, before === undefined || forcedRollback ? finalized : Math.max(before, finalized));
    if (before === undefined || forcedRollback || finalized >= before) return [];
    return [{ kind: 'finalizedMovedBack', node, detail: `finalized block went from ${before} back to ${finalized}` }];
  }
}
