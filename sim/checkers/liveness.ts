/**
 * Checker (liveness phase): once every fault is healed, every node converges within a bound: each holds L1's
 * checkpointed chain (same checkpoint count, same checkpointed block) and a checkpoint proposed after the heal has
 * landed on L1, so the sequencer is producing again. The bound is a few L2 slots plus the worst L1 inclusion delay
 * and two archiver polls. The heal switches the simulated L1's inclusion delay off (sim/faultInjector.ts): a delay that
 * carries a checkpoint into the next slot costs a whole slot, and a run of such draws has no bound.
 */
import type { Hex } from '../../spec/chain.js';
import { L1_SLOT_DURATION_SECONDS } from '../../spec/constants.js';
import type { SimL1 } from '../simL1.js';
import type { NamedNode } from './agreement.js';
import type { SimFailure } from './simFailure.js';

/** L2 slots a healed network gets to converge: one to reach the next slot start, one to publish, one to spare. */
export const LIVENESS_BOUND_SLOTS = 3;

export interface LivenessTiming {
  readonly slotDurationSeconds: number;
  readonly archiverPollIntervalMs: number;
  readonly inclusionDelay: { readonly blocksMax: number };
}

/** How long after the heal every node must have converged, in ms. */
export function livenessBoundMs(timing: LivenessTiming): number {
  const inclusionMs = (timing.inclusionDelay.blocksMax + 2) * L1_SLOT_DURATION_SECONDS * 1000;
  return LIVENESS_BOUND_SLOTS * timing.slotDurationSeconds * 1000 + inclusionMs + 2 * timing.archiverPollIntervalMs;
}

export class ConvergenceWatch {
  private healedAtMs: number | undefined;
  private healedAtL1Block = 0n;
  private convergedAtMs: number | undefined;

  constructor(
    private readonly l1: SimL1,
    private readonly boundMs: number,
    /** Told once, when the nodes converge after the heal. */
    private readonly onConverged: (atMs: number, healedAtMs: number) => void = () => undefined,
  ) {}

  /** Every fault is healed now. */
  healed(atMs: number, nodes: readonly NamedNode[]): void {
    this.healedAtMs = atMs;
    this.healedAtL1Block = this.l1.head().number;
    this.observe(atMs, nodes);
  }

  /** Checks convergence now (call after node activity); the first time it holds is kept. */
  observe(atMs: number, nodes: readonly NamedNode[]): void {
    if (this.healedAtMs === undefined || this.convergedAtMs !== undefined) return;
    if (!this.converged(nodes)) return;
    this.convergedAtMs = atMs;
    this.onConverged(atMs, this.healedAtMs);
  }

  private converged(nodes: readonly NamedNode[]): boolean {
    const count = this.l1.checkpointCount();
    const hashes = new Set<Hex>();
    for (const { node } of nodes) {
      const { checkpointed } = node.chain.tips;
      if (checkpointed.checkpoint.number !== count) return false;
      hashes.add(checkpointed.block.hash);
    }
    if (hashes.size !== 1) return false;
    const head = this.l1.head().number;
    return (
      head > this.healedAtL1Block &&
      this.l1.logsIn('checkpointProposed', this.healedAtL1Block + 1n, head, head).length > 0
    );
  }

  /** At the end of the run: the failure if the bound has passed without convergence. */
  check(endMs: number, nodes: readonly NamedNode[]): SimFailure[] {
    if (this.healedAtMs === undefined || this.convergedAtMs !== undefined) return [];
    if (endMs - this.healedAtMs < this.boundMs) return [];
    const tips = nodes.map(({ name, node }) => {
      const { lastError } = node.archiverActor.getSnapshot().context;
      const where = `${name} checkpoint ${node.chain.tips.checkpointed.checkpoint.number} (block ${node.chain.tips.checkpointed.block.number}), machines ${JSON.stringify(node.machineStates())}`;
      return lastError === undefined ? where : `${where}, last sync error: ${lastError}`;
    });
    return [
      {
        kind: 'notConverged',
        detail: `faults healed at ${this.healedAtMs} ms; ${this.boundMs} ms later the nodes had not converged on L1's ${this.l1.checkpointCount()} checkpoints: ${tips.join('; ')}`,
      },
    ];
  }

  get convergedAt(): number | undefined {
    return this.convergedAtMs;
  }
}
