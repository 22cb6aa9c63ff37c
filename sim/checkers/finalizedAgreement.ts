/**
 * Checker: no two nodes ever finalize different blocks at one height. Every finalized tip a node reaches is noted
 * with its hash; a second node finalizing that height with another hash fails. An operator's forced rollback may
 * make a node finalize a height again, with the same hash or after rebuilding its chain from L1.
 */
import type { Hex, L2Tips } from '../../spec/chain.js';
import type { SimFailure } from './simFailure.js';

/** Finalized heights remembered; beyond this the oldest are forgotten (a run finalizes far fewer). */
export const FINALIZED_HEIGHTS_KEPT_MAX = 100_000;

export class FinalizedAgreement {
  private readonly byHeight = new Map<number, { readonly hash: Hex; readonly node: string }>();

  observe(node: string, tips: L2Tips): SimFailure[] {
    const { number, hash } = tips.finalized.block;
    if (number === 0) return [];
    const first = this.byHeight.get(number);
    if (first === undefined) {
      if (this.byHeight.size >= FINALIZED_HEIGHTS_KEPT_MAX) this.byHeight.delete(this.byHeight.keys().next().value!);
      this.byHeight.set(number, { hash, node });
      return [];
    }
    if (first.hash === hash) return [];
    return [
      {
        kind: 'finalizedConflict',
        node,
        detail: `${node} finalized block ${number} as ${hash}, ${first.node} finalized it as ${first.hash}`,
      },
    ];
  }
}
