/**
 * Checker: every tx the workload submitted lives a legal life on the sequencer (core/txs/txLifecycleMachine.ts). One
 * machine per tx follows the sequencer's pool (accepted, removed with a reason, returned after a prune, cleared by a
 * forced rollback) and chain (mined in a block, unmined by a prune, where its block stands among the tips); a
 * restarted incarnation's receipts resynchronise them. A machine that reaches `Violated` is a failure: a finalized
 * tx going back, a tx the pool refused or let go being mined by this node's sequencer, a tx mined twice, a mined tx
 * pooled again.
 */
import { createActor, type Actor } from 'xstate';
import type { Hex, L2Tips } from '../../spec/chain.js';
import type { NodeActivity, RollupNode } from '../../core/node/node.js';
import type { TxPoolActivity } from '../../core/txPool/nodeTxPool.js';
import {
  createTxLifecycleMachine,
  type MinedStanding,
  type ReceiptStatus,
  type TxLifecycleEvent,
  type TxLifecycleMachine,
} from '../../core/txs/txLifecycleMachine.js';
import type { MachineCoverage } from '../machineCoverage.js';
import type { TxLedgerEntry } from '../txWorkload.js';
import type { SimFailure } from './simFailure.js';

interface TrackedTx {
  readonly actor: Actor<TxLifecycleMachine>;
  /** The block it is mined in, while the machine says it is mined. */
  blockNumber: number | undefined;
  /** The standing last told to the machine. */
  standing: MinedStanding | undefined;
  reported: boolean;
}

function standingOf(tips: L2Tips, blockNumber: number): MinedStanding {
  if (tips.finalized.block.number >= blockNumber) return 'finalized';
  if (tips.proven.block.number >= blockNumber) return 'proven';
  if (tips.checkpointed.block.number >= blockNumber) return 'checkpointed';
  return 'proposed';
}

export class TxLifecycleWatch {
  private readonly machine = createTxLifecycleMachine();
  private readonly txs = new Map<Hex, TrackedTx>();
  /** The ledger's outcome by tx, indexed up to `indexedEntries`. */
  private readonly ledgerOutcome = new Map<Hex, TxLedgerEntry['outcome']['kind']>();
  private indexedEntries = 0;
  /** The sequencer's finalized block as last seen (a forced rollback below it undoes finality). */
  private finalizedBlock = 0;

  constructor(
    private readonly sequencerName: string,
    private readonly ledger: () => readonly TxLedgerEntry[],
    private readonly coverage: MachineCoverage,
    private readonly fail: (failure: SimFailure) => void,
  ) {}

  /** The workload's verdict on a tx, if it submitted one with this hash. */
  private submitted(txHash: Hex): TxLedgerEntry['outcome']['kind'] | undefined {
    const entries = this.ledger();
    for (; this.indexedEntries < entries.length; this.indexedEntries++) {
      const entry = entries[this.indexedEntries]!;
      // An acceptance wins over an earlier refusal of the same tx (a resubmission).
      if (this.ledgerOutcome.get(entry.txHash) !== 'accepted') this.ledgerOutcome.set(entry.txHash, entry.outcome.kind);
    }
    return this.ledgerOutcome.get(txHash);
  }

  /** The tx's machine; a tx first met refused by the pool starts in Rejected. Undefined for txs the workload never sent. */
  private tracked(txHash: Hex, create: boolean): TrackedTx | undefined {
    const known = this.txs.get(txHash);
    if (known !== undefined) return known;
    const verdict = this.submitted(txHash);
    if (!create && verdict === undefined) return undefined;
    const actor = createActor(this.machine);
    this.coverage.attach('txLifecycle', actor);
    actor.start();
    const tx: TrackedTx = { actor, blockNumber: undefined, standing: undefined, reported: false };
    this.txs.set(txHash, tx);
    if (verdict === 'rejected') this.send(txHash, tx, { type: 'pool.rejected' });
    return tx;
  }

  private send(txHash: Hex, tx: TrackedTx, event: TxLifecycleEvent): void {
    tx.actor.send(event);
    const snapshot = tx.actor.getSnapshot();
    if (snapshot.value !== 'Violated' || tx.reported) return;
    tx.reported = true;
    this.fail({
      kind: 'txLifecycleViolated',
      node: this.sequencerName,
      detail: `tx ${txHash}: ${snapshot.context.violation ?? 'violated'}`,
    });
  }

  private isMined(tx: TrackedTx): boolean {
    const value = tx.actor.getSnapshot().value;
    return typeof value === 'object' && 'Mined' in value;
  }

  onPoolActivity(node: string, activity: TxPoolActivity): void {
    if (node !== this.sequencerName) return;
    const removals = activity.kind === 'returned' ? [] : activity.removed;
    for (const removal of removals) {
      if (removal.reason === 'mined') continue; // the chain's blocksAdded says it
      const tx = this.tracked(removal.txHash, false);
      if (tx !== undefined) this.send(removal.txHash, tx, { type: 'pool.removed', reason: removal.reason });
    }
    if (activity.kind === 'accepted')
      this.send(activity.txHash, this.tracked(activity.txHash, true)!, { type: 'pool.accepted' });
    if (activity.kind === 'returned') {
      for (const txHash of activity.txHashes) {
        const tx = this.tracked(txHash, false);
        if (tx !== undefined) this.send(txHash, tx, { type: 'pool.returned' });
      }
    }
  }

  onPoolCleared(node: string, txHashes: readonly Hex[]): void {
    if (node !== this.sequencerName) return;
    for (const txHash of txHashes) {
      const tx = this.tracked(txHash, false);
      if (tx !== undefined) this.send(txHash, tx, { type: 'pool.cleared' });
    }
  }

  onChainActivity(node: string, sequencer: RollupNode, activity: NodeActivity): void {
    if (node !== this.sequencerName || activity.kind !== 'chain') return;
    const event = activity.event;
    if (event.type === 'blocksAdded') {
      for (const block of event.blocks) {
        const blockNumber = block.header.globalVariables.blockNumber;
        for (const effect of block.body.txEffects) {
          const tx = this.tracked(effect.txHash, false);
          if (tx === undefined) continue;
          this.send(effect.txHash, tx, {
            type: 'chain.mined',
            blockNumber,
            origin: event.origin,
            ...(event.peer !== undefined ? { peer: event.peer } : {}),
          });
          tx.blockNumber = blockNumber;
          tx.standing = 'proposed';
        }
      }
    }
    if (event.type === 'chainPruned' && event.reason === 'rollback' && event.toBlock.number < this.finalizedBlock) {
      // An operator's forced rollback below the finalized block: every mined tx's standing is told afresh.
      for (const [txHash, tx] of this.txs) {
        if (tx.blockNumber === undefined || !this.isMined(tx)) continue;
        tx.standing = 'proposed';
        this.send(txHash, tx, { type: 'chain.forcedRollback' });
      }
    }
    if (event.type === 'chainPruned') {
      for (const [txHash, tx] of this.txs) {
        if (tx.blockNumber === undefined || tx.blockNumber <= event.toBlock.number) continue;
        tx.blockNumber = undefined;
        tx.standing = undefined;
        this.send(txHash, tx, { type: 'chain.unmined' });
      }
    }
    this.tellStandings(sequencer.chain.tips);
  }

  /** Tells each mined tx where its block stands now, when that changed. */
  private tellStandings(tips: L2Tips): void {
    this.finalizedBlock = tips.finalized.block.number;
    for (const [txHash, tx] of this.txs) {
      // Cheapest test first: most mined txs stand where they stood (asking the machine whether it is mined is not free).
      if (tx.blockNumber === undefined) continue;
      const standing = standingOf(tips, tx.blockNumber);
      if (standing === tx.standing || !this.isMined(tx)) continue;
      tx.standing = standing;
      this.send(txHash, tx, { type: 'chain.tip', standing });
    }
  }

  /** A new incarnation of the sequencer: each tracked tx takes what its receipt says now. */
  async onRestart(node: string, sequencer: RollupNode): Promise<void> {
    if (node !== this.sequencerName) return;
    for (const [txHash, tx] of this.txs) {
      const receipt = await sequencer.service.txs.getTxReceipt(txHash, {});
      const status = receipt.status as ReceiptStatus;
      this.send(txHash, tx, { type: 'node.restarted', status });
      const mined = status !== 'pending' && status !== 'dropped';
      tx.blockNumber = mined && 'blockNumber' in receipt ? Number(receipt.blockNumber) : undefined;
      tx.standing = mined ? status : undefined;
    }
  }
}
