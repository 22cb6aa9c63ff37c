/**
 * Checker: every tx the workload submitted is accounted for at the end of the run. A rejected tx must carry an error
 * code; an accepted one must be pending in the sequencer's pool, mined in its chain, or have left the pool with a
 * reason (replaced, evicted, expired...) or through an operator's forced rollback (which empties the pool and drops
 * the txs of the blocks it removes). An accepted tx that is none of these was lost without a trace.
 */
import type { Hex } from '../../spec/chain.js';
import type { RollupNode } from '../../core/node/node.js';
import type { TxPoolActivity } from '../../core/txPool/nodeTxPool.js';
import type { TxLedgerEntry } from '../txWorkload.js';
import type { SimFailure } from './simFailure.js';

/** The last thing the sequencer's pool said about a tx. */
type PoolFate =
  | { readonly kind: 'accepted' | 'returned' | 'clearedByForcedRollback' }
  | { readonly kind: 'removed'; readonly reason: string };

function describeFate(fate: PoolFate | undefined): string {
  if (fate === undefined) return 'no pool event';
  return fate.kind === 'removed' ? `removed (${fate.reason})` : fate.kind;
}

export class TxAccounting {
  private readonly fates = new Map<Hex, PoolFate>();

  constructor(private readonly sequencerName: string) {}

  /** Follows the sequencer's pool (any incarnation). */
  onPoolActivity(node: string, activity: TxPoolActivity): void {
    if (node !== this.sequencerName) return;
    switch (activity.kind) {
      case 'accepted':
        for (const removal of activity.removed)
          this.fates.set(removal.txHash, { kind: 'removed', reason: removal.reason });
        this.fates.set(activity.txHash, { kind: 'accepted' });
        return;
      case 'removed':
        for (const removal of activity.removed)
          this.fates.set(removal.txHash, { kind: 'removed', reason: removal.reason });
        return;
      case 'returned':
        for (const txHash of activity.txHashes) this.fates.set(txHash, { kind: 'returned' });
        return;
    }
  }

  /** A forced rollback of the sequencer cleared its pool: what it held then, and what the removed blocks held, is accounted for. */
  onPoolCleared(node: string, pooledTxHashes: readonly Hex[]): void {
    if (node !== this.sequencerName) return;
    for (const txHash of pooledTxHashes) this.fates.set(txHash, { kind: 'clearedByForcedRollback' });
  }

  async check(ledger: readonly TxLedgerEntry[], sequencer: RollupNode): Promise<SimFailure[]> {
    const failures: SimFailure[] = [];
    const fail = (detail: string) => failures.push({ kind: 'txUnaccounted', node: this.sequencerName, detail });
    for (const entry of ledger) {
      if (entry.outcome.kind === 'rejected') {
        if (entry.outcome.code === undefined)
          fail(`tx ${entry.txHash} (${entry.step}) was refused without an error code: ${entry.outcome.message}`);
        continue;
      }
      if (sequencer.txPool.current.has(entry.txHash)) continue;
      const fate = this.fates.get(entry.txHash);
      if (fate?.kind === 'clearedByForcedRollback' || (fate?.kind === 'removed' && fate.reason !== 'mined')) continue;
      const receipt = await sequencer.service.txs.getTxReceipt(entry.txHash, {});
      if (receipt.status !== 'pending' && receipt.status !== 'dropped') continue;
      fail(
        `tx ${entry.txHash} (${entry.step} at ${entry.atMs} ms) was accepted, but is neither pooled nor mined (receipt ${receipt.status}, last pool event: ${describeFate(fate)})`,
      );
    }
    return failures;
  }
}
