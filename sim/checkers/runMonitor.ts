/**
 * The checkers that watch a run as it goes, wired to the nodes: after every chain activity (tips ordered, finalized
 * never back, no conflicting finalized blocks, liveness convergence, the txs' lifecycles) and every pool activity
 * (no shared nullifiers, replacements with the bump, the tx accounting's record, the txs' lifecycles). End-of-run checkers run from `finish`.
 */
import type { Hex } from '../../spec/chain.js';
import { TX_POOL_SETTINGS_DEFAULT, type NodeActivity, type RollupNode } from '../../core/node/node.js';
import type { TxPoolActivity } from '../../core/txPool/nodeTxPool.js';
import type { SimEvent } from '../faults.js';
import type { SimL1 } from '../simL1.js';
import type { TxLedgerEntry } from '../txWorkload.js';
import { checkAgreement, checkStateRoots, type NamedNode } from './agreement.js';
import { checkStoredCheckpoints, checkCheckpointFees } from './checkpointFees.js';
import { checkProposers } from './proposers.js';
import { quorumCarryingLogs } from './quorumCarrying.js';
import { checkSlotOutcomes } from './slotOutcomes.js';
import { FinalizedAgreement } from './finalizedAgreement.js';
import { FinalizedNeverBack } from './finalizedNeverBack.js';
import { ConvergenceWatch } from './liveness.js';
import { checkPoolNullifiers } from './poolNullifiers.js';
import { checkProgress, type ProgressOptions } from './progress.js';
import { checkReplacements } from './replacementBump.js';
import { FailureLog, type SimFailure } from './simFailure.js';
import { checkTipsOrdered } from './tipsOrdered.js';
import { TxAccounting } from './txAccounting.js';
import { TxLifecycleWatch } from './txLifecycle.js';
import type { MachineCoverage } from '../machineCoverage.js';

export interface RunMonitorOptions {
  readonly sequencerName: string;
  readonly l1: SimL1;
  readonly livenessBoundMs: number;
  /** The current incarnation of every node. */
  readonly nodes: () => readonly NamedNode[];
  /** Simulated ms since the run started. */
  readonly elapsedMs: () => number;
  /** Where the monitor notes what it observed (the convergence after the heal). */
  readonly event: (event: SimEvent) => void;
  /** The workload's submissions so far (the tx lifecycle checker reads the refused ones). */
  readonly ledger: () => readonly TxLedgerEntry[];
  /** Where the tx lifecycle machines' coverage goes. */
  readonly coverage: MachineCoverage;
}

export class RunMonitor {
  private readonly log = new FailureLog();
  private readonly finalizedNeverBack = new FinalizedNeverBack();
  private readonly finalizedAgreement = new FinalizedAgreement();
  private readonly accounting: TxAccounting;
  private readonly lifecycle: TxLifecycleWatch;
  private readonly convergence: ConvergenceWatch;

  constructor(private readonly options: RunMonitorOptions) {
    this.accounting = new TxAccounting(options.sequencerName);
    this.lifecycle = new TxLifecycleWatch(options.sequencerName, options.ledger, options.coverage, (failure) =>
      this.log.add(failure),
    );
    this.convergence = new ConvergenceWatch(options.l1, options.livenessBoundMs, (atMs, healedAtMs) =>
      options.event({
        atMs,
        kind: 'sim.converged',
        detail: `every node holds L1's ${options.l1.checkpointCount()} checkpoints, ${atMs - healedAtMs} ms after the heal`,
      }),
    );
  }

  get failures(): readonly SimFailure[] {
    return this.log.failures;
  }

  failure(failure: SimFailure): void {
    this.log.add(failure);
  }

  /**
   * Follows a new incarnation's pool (its chain activity arrives through `onActivity`); a restarted one first
   * resynchronises the tx lifecycles from its receipts.
   */
  async attach(name: string, node: RollupNode, isLive: () => boolean, restarted: boolean): Promise<void> {
    if (restarted) await this.lifecycle.onRestart(name, node);
    node.txPool.onActivity((activity) => {
      if (isLive()) this.onPoolActivity(name, node, activity);
    });
  }

  onActivity(name: string, label: string, node: RollupNode, activity: NodeActivity): void {
    const tips = node.chain.tips;
    const event = activity.kind === 'chain' ? activity.event : undefined;
    this.log.addAll(checkTipsOrdered(label, tips));
    this.log.addAll(this.finalizedNeverBack.observe(name, tips, event));
    this.log.addAll(this.finalizedAgreement.observe(name, tips));
    if (event !== undefined) this.convergence.observe(this.options.elapsedMs(), this.options.nodes());
    this.lifecycle.onChainActivity(name, node, activity);
  }

  private onPoolActivity(name: string, node: RollupNode, activity: TxPoolActivity): void {
    const bump = (node.currentConfig().txPool ?? TX_POOL_SETTINGS_DEFAULT).priceBumpPercentage;
    this.log.addAll(checkReplacements(name, activity, bump));
    this.log.addAll(checkPoolNullifiers(name, node.txPool.current));
    this.accounting.onPoolActivity(name, activity);
    this.lifecycle.onPoolActivity(name, activity);
  }

  poolCleared(name: string, txHashes: readonly Hex[]): void {
    this.accounting.onPoolCleared(name, txHashes);
    this.lifecycle.onPoolCleared(name, txHashes);
  }

  healed(atMs: number): void {
    this.convergence.healed(atMs, this.options.nodes());
  }

  /** The reference models of the protocol's rules over what L1 recorded: fees, proposals' outcomes, proposers. */
  private checkL1Rules(): void {
    const l1 = this.options.l1;
    const head = l1.head().number;
    const validators = l1.validatorsAt(head, head).map((v) => v.address);
    const proposed = quorumCarryingLogs(l1.logsIn('checkpointProposed', 0n, head, head), validators.length);
    this.log.addAll(checkCheckpointFees(proposed, l1.constants.ethPerFeeAsset));
    const blockTimestamp = (n: bigint) => l1.blockAt(n, head).ref.timestamp;
    this.log.addAll(checkSlotOutcomes(l1.sentTransactions(), l1.constants, blockTimestamp));
    this.log.addAll(
      checkProposers({
        proposed,
        pruned: l1.logsIn('chainPruned', 0n, head, head),
        validators,
        epochDurationSlots: l1.constants.epochDuration,
        genesisArchiveRoot: l1.constants.genesisArchiveRoot,
      }),
    );
  }

  /** The end-of-run checkers, over the nodes' final incarnations (stopped). */
  async finish(progress: ProgressOptions, ledger: readonly TxLedgerEntry[]): Promise<readonly SimFailure[]> {
    const nodes = this.options.nodes();
    this.log.addAll(await checkAgreement(nodes));
    this.log.addAll(checkStateRoots(nodes));
    const sequencer = nodes.find((n) => n.name === this.options.sequencerName);
    if (sequencer !== undefined) this.log.addAll(await this.accounting.check(ledger, sequencer.node));
    this.checkL1Rules();
    if (sequencer !== undefined) this.log.addAll(await checkStoredCheckpoints(sequencer.name, sequencer.node));
    this.log.addAll(this.convergence.check(this.options.elapsedMs(), nodes));
    this.log.addAll(checkProgress(progress, this.options.l1.checkpointCount()));
    return this.log.failures;
  }
}
