/**
 * Applies a schedule (faults.ts) to a running simulation. Each step runs at its time between scheduler events
 * (`world.at`), where every continuation of earlier events has drained. A fault with a duration heals itself after
 * it; at the end of the safety phase every fault still active heals, and the liveness phase runs with none.
 *
 * A step that cannot apply (its node is paused, its node is already under the same fault, a reorg deeper than the
 * chain) is skipped and says so in the events. Admin refusals (OPERATION_REFUSED...) are outcomes, not failures;
 * an admin call that fails without an error code is a crash of the node's code.
 */
import type { Hex } from '../spec/chain.js';
import type { RollupNode } from '../core/node/node.js';
import { OPERATION_IN_PROGRESS_STATES } from '../core/node/operationsMachine.js';
import { rollbackClearsDatabases } from '../core/node/rollback.js';
import type { SimL1, SimL1Link } from './simL1.js';
import {
  describeStep,
  sortedSteps,
  stepDurationMs,
  type SimEvent,
  type SimOverlapAdminCall,
  type SimSchedule,
  type SimStep,
  type SimStepOf,
} from './faults.js';
import { checkRollback, checkRollbackRefused, expectRollback } from './checkers/rollbackRoots.js';
import type { SimFailure } from './checkers/simFailure.js';
import type { TxLedgerEntry, TxWorkload } from './txWorkload.js';
import type { SimNetwork } from './simNetwork.js';
import type { SimBlobStores } from './simBlobStores.js';
import type { SimSnapshots } from './simSnapshots.js';
import { checkSnapshotUpload } from './checkers/snapshotUploads.js';

/** What the injector acts on (runSimulation's SimWorld provides it). */
export interface FaultWorld {
  readonly l1: SimL1;
  /** The team's blob file store and the blob archive. */
  readonly blobStores: SimBlobStores;
  /** The team's snapshot store (svcAdmin_startSnapshotUpload). */
  readonly snapshots: SimSnapshots;
  readonly sequencerName: string;
  nodeNames(): readonly string[];
  node(name: string): RollupNode;
  link(name: string): SimL1Link;
  crashAndRestart(name: string): Promise<void>;
  upgradeNode(name: string, retiredIndex: number): Promise<{ readonly detail: string; readonly problem?: string }>;
  pauseNode(name: string): void;
  resumeNode(name: string): void;
  isPaused(name: string): boolean;
  setClockSkewMs(name: string, skewMs: number): void;
  at(offsetMs: number, action: () => Promise<void> | void): void;
  record(kind: string, fields: Record<string, unknown>): void;
  /** The validator gossip network; undefined in runs without validators. */
  readonly network: SimNetwork | undefined;
}

/** Where the injector reports. */
export interface FaultObserver {
  event(event: SimEvent): void;
  failure(failure: SimFailure): void;
  /** A forced rollback emptied this node's pool, which held these txs. */
  poolCleared(node: string, txHashes: readonly Hex[]): void;
  /** Every fault is healed: the liveness phase begins. */
  healed(atMs: number): void;
}

type Heal = () => Promise<void> | void;
/** What applying a step did: a line for the events, and how to undo it when it lasts. */
interface Applied {
  readonly detail: string;
  readonly heal?: Heal;
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function nodeOf(step: SimStep): string | undefined {
  return 'node' in step ? step.node : undefined;
}

export function installSchedule(
  world: FaultWorld,
  schedule: SimSchedule,
  workload: TxWorkload,
  observer: FaultObserver,
): void {
  const injector = new FaultInjector(world, workload, observer);
  for (const step of sortedSteps(schedule.steps)) {
    if (step.atMs >= schedule.safetyEndMs) continue;
    let heal: Heal | undefined;
    world.at(step.atMs, async () => {
      heal = await injector.apply(step);
    });
    const durationMs = stepDurationMs(step);
    if (durationMs === undefined) continue;
    const healAtMs = Math.min(step.atMs + durationMs, schedule.safetyEndMs);
    world.at(healAtMs, async () => {
      const pending = heal;
      heal = undefined;
      if (pending !== undefined) await injector.heal(step, healAtMs, pending);
    });
  }
  world.at(schedule.safetyEndMs, async () => {
    await injector.healEverything(schedule.safetyEndMs);
    observer.healed(schedule.safetyEndMs);
  });
}

class FaultInjector {
  /** Faults in force, as `kind:node`, so that one node is not under the same fault twice at once. */
  private readonly active = new Set<string>();
  /** The highest L1 block ever finalized: reorgs never reach it (back-to-back shallow reorgs add up). */
  private highestL1Finalized = -1n;

  constructor(
    private readonly world: FaultWorld,
    private readonly workload: TxWorkload,
    private readonly observer: FaultObserver,
  ) {}

  private note(step: SimStep, atMs: number, kind: string, detail: string): void {
    const node = nodeOf(step);
    this.world.record('fault', { kind, step: describeStep(step), detail });
    this.observer.event({ atMs, kind, detail, ...(node !== undefined ? { node } : {}) });
  }

  /** Applies a step; returns its heal when it lasts. */
  async apply(step: SimStep): Promise<Heal | undefined> {
    const key = `${step.kind}:${nodeOf(step) ?? ''}`;
    const node = nodeOf(step);
    if (node !== undefined && this.world.isPaused(node) && step.kind !== 'node.crash') {
      this.note(step, step.atMs, step.kind, `skipped: ${node} is paused`);
      return undefined;
    }
    if (stepDurationMs(step) !== undefined && this.active.has(key)) {
      this.note(step, step.atMs, step.kind, 'skipped: already in force');
      return undefined;
    }
    const applied = await this.runOrRefuse(step);
    this.note(step, step.atMs, step.kind, applied.detail);
    if (applied.heal === undefined) return undefined;
    this.active.add(key);
    const heal = applied.heal;
    return async () => {
      this.active.delete(key);
      await heal();
    };
  }

  async heal(step: SimStep, atMs: number, heal: Heal): Promise<void> {
    await heal();
    this.note(step, atMs, `${step.kind}.end`, 'healed');
  }

  /** The end of the safety phase: every fault off, whatever the schedule left in force. */
  async healEverything(atMs: number): Promise<void> {
    const { world } = this;
    this.active.clear();
    world.l1.setFinalityStalled(false);
    world.l1.setBlobsAvailable(true);
    world.l1.setBlobDelayMs(0);
    world.blobStores.setCorrupted(false);
    for (const name of world.nodeNames()) world.link(name).setBlobsLost(false);
    world.l1.setFeeSpike(1);
    // A delayed L1 inclusion can push a checkpoint into the next slot, where L1 refuses it; each slot is then a fresh
    // draw, so with the delay left on no bound holds. The liveness phase runs on a prompt L1, as on a healed network.
    world.l1.setInclusionDelay({ probability: 0, blocksMax: 0 });
    // A partition's own heal runs first at this time; this only catches one a future step kind might leave in place.
    if (world.network?.partitioned === true) world.network.heal();
    // Gossip keeps its loss (and latency): the network is not a fault to heal. A message lost on one link arrives by
    // another (nodes forward what they accept), and a committee member still missing a block proposal asks its peers
    // for it, so the liveness bound holds on a lossy network too.
    for (const name of world.nodeNames()) {
      if (world.isPaused(name)) world.resumeNode(name);
      world.setClockSkewMs(name, 0);
      const link = world.link(name);
      link.setRpcFailureRate(0);
      link.setStale(0);
      const admin = world.node(name).service.admin;
      if (admin.operationalState() === 'SyncPaused') await this.admin(name, () => admin.resumeSync());
    }
    const sequencer = world.node(world.sequencerName);
    if (sequencer.machineStates().sequencer === 'Paused')
      await this.admin(world.sequencerName, () => sequencer.service.admin.resumeSequencer());
    world.record('fault', { kind: 'healAll' });
    this.observer.event({ atMs, kind: 'sim.healed', detail: 'every fault healed: liveness phase' });
  }

  /** Runs an admin call: its refusal is an outcome; an error without a code is a failure. */
  private async admin(node: string, call: () => Promise<void>): Promise<string> {
    try {
      await call();
      return 'done';
    } catch (error) {
      const code = errorCode(error);
      if (code !== undefined) return `refused ${code}`;
      const detail = `admin call on ${node} threw without a code: ${error instanceof Error ? error.message : String(error)}`;
      this.observer.failure({ kind: 'crashed', detail });
      return `error: ${detail}`;
    }
  }

  /** Runs a step; a node's refusal with an error code (a query the node cannot answer now) is its outcome. */
  private async runOrRefuse(step: SimStep): Promise<Applied> {
    try {
      return await this.run(step);
    } catch (error) {
      const code = errorCode(error);
      if (code === undefined) throw error;
      return { detail: `refused ${code}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private run(step: SimStep): Promise<Applied> | Applied {
    const { world } = this;
    switch (step.kind) {
      case 'l1.reorg':
        return this.reorg(step);
      case 'l1.finalityStall':
        world.l1.setFinalityStalled(true);
        return { detail: `finality stalled for ${step.durationMs} ms`, heal: () => world.l1.setFinalityStalled(false) };
      case 'l1.flakyRpc':
        world.link(step.node).setRpcFailureRate(step.failurePercent / 100);
        return {
          detail: `${step.failurePercent}% of L1 calls fail for ${step.durationMs} ms`,
          heal: () => world.link(step.node).setRpcFailureRate(0),
        };
      case 'l1.staleRpc':
        world.link(step.node).setStale(step.lagBlocks);
        return {
          detail: `L1 RPC ${step.lagBlocks} blocks behind for ${step.durationMs} ms`,
          heal: () => world.link(step.node).setStale(0),
        };
      case 'l1.missingBlobs':
        world.l1.setBlobsAvailable(false);
        return { detail: `blobs unavailable for ${step.durationMs} ms`, heal: () => world.l1.setBlobsAvailable(true) };
      case 'blobs.lost':
        world.link(step.node).setBlobsLost(true);
        return {
          detail: `consensus client without blobs for ${step.durationMs} ms`,
          heal: () => world.link(step.node).setBlobsLost(false),
        };
      case 'blobs.delayed':
        world.l1.setBlobDelayMs(step.delayMs);
        return {
          detail: `blobs served ${step.delayMs} ms after their block for ${step.durationMs} ms`,
          heal: () => world.l1.setBlobDelayMs(0),
        };
      case 'blobs.corrupted':
        world.blobStores.setCorrupted(true);
        return {
          detail: `file store serves corrupted blobs for ${step.durationMs} ms`,
          heal: () => world.blobStores.setCorrupted(false),
        };
      case 'l1.feeSpike':
        world.l1.setFeeSpike(step.factor);
        return {
          detail: `L1 base fees ${step.factor}x for ${step.durationMs} ms`,
          heal: () => world.l1.setFeeSpike(1),
        };
      case 'node.crash':
        return world.crashAndRestart(step.node).then(() => ({ detail: 'crashed and restarted' }));
      case 'node.upgrade':
        return this.upgrade(step);
      case 'node.pause':
        world.pauseNode(step.node);
        return { detail: `paused for ${step.durationMs} ms`, heal: () => world.resumeNode(step.node) };
      case 'node.clockSkew':
        world.setClockSkewMs(step.node, step.skewMs);
        return {
          detail: `clock ${step.skewMs} ms off for ${step.durationMs} ms`,
          heal: () => world.setClockSkewMs(step.node, 0),
        };
      case 'admin.rollback':
        return this.rollback(step);
      case 'admin.pauseSync':
        return this.pauseSync(step);
      case 'admin.pauseSequencer':
        return this.pauseSequencer(step);
      case 'admin.overlap':
        return this.overlap(step);
      case 'admin.snapshotUpload':
        return this.snapshotUpload(step);
      case 'network.partition':
        return this.partition(step);
      default:
        return this.tx(step);
    }
  }

  private partition(step: SimStepOf<'network.partition'>): Applied {
    const { network } = this.world;
    if (network === undefined) return { detail: 'skipped: this run has no gossip network' };
    if (network.partitioned) return { detail: 'skipped: a partition is already in place' };
    network.partition([[step.node]]);
    return { detail: `${step.node} cut off from gossip for ${step.durationMs} ms`, heal: () => network.heal() };
  }

  private reorg(step: SimStepOf<'l1.reorg'>): Applied {
    const { l1 } = this.world;
    const head = l1.head().number;
    // The head only grows between reorgs, so the highest block L1 ever called finalized was so just before one.
    const finalized = head - BigInt(l1.finalityLagBlocks);
    if (finalized > this.highestL1Finalized) this.highestL1Finalized = finalized;
    if (head - BigInt(step.depth) < l1.constants.l1StartBlock)
      return { detail: `skipped: the chain is shorter than ${step.depth} blocks` };
    if (head - BigInt(step.depth) < this.highestL1Finalized)
      return {
        detail: `skipped: ${step.depth} blocks would reach L1 block ${this.highestL1Finalized}, once finalized`,
      };
    l1.reorg(step.depth);
    return { detail: `${step.depth} blocks reorged out, head ${l1.head().number}` };
  }

  private async upgrade(step: SimStepOf<'node.upgrade'>): Promise<Applied> {
    const { detail, problem } = await this.world.upgradeNode(step.node, step.retired);
    if (problem !== undefined) this.observer.failure({ kind: 'upgradeMishandled', node: step.node, detail: problem });
    return { detail: problem === undefined ? detail : `${detail}: ${problem}` };
  }

  /**
   * Two admin calls on one node at once. When the first leaves an operation in progress (a pause or resume of sync,
   * a rollback), the node must refuse the second: a second call that succeeds is a failure (adminOverlapAccepted);
   * a refusal with any error code is the expected outcome. A rollback made as the first call is checked as the
   * admin.rollback fault checks one; a second-call rollback is issued only while it must be refused. Afterwards sync
   * runs again unless a pauseSync fault holds the node, where it stays paused.
   */
  private async overlap(step: SimStepOf<'admin.overlap'>): Promise<Applied> {
    const name = step.node;
    const admin = () => this.world.node(name).service.admin;
    let second: Promise<string> | undefined;
    let busy = false;
    const issueSecond = (): void => {
      busy = OPERATION_IN_PROGRESS_STATES.includes(admin().operationalState());
      if (step.second === 'rollback' && !busy) return;
      second = this.admin(name, () => this.overlapCall(name, step.second, step.blocksBack));
    };
    let first: string;
    if (step.first === 'rollback') {
      first = (
        await this.rollback(
          { atMs: step.atMs, kind: 'admin.rollback', node: name, blocksBack: step.blocksBack, force: false },
          issueSecond,
        )
      ).detail;
    } else {
      const call = this.admin(name, () => this.overlapCall(name, step.first, step.blocksBack));
      issueSecond();
      first = `${step.first}: ${await call}`;
    }
    const secondOutcome = second === undefined ? 'not issued (nothing in progress to refuse it)' : await second;
    if (busy && secondOutcome === 'done') {
      this.observer.failure({
        kind: 'adminOverlapAccepted',
        node: name,
        detail: `${step.second} issued while ${step.first} was in progress succeeded instead of being refused`,
      });
    }
    const held = this.active.has(`admin.pauseSync:${name}`);
    const state = admin().operationalState();
    if (!held && state === 'SyncPaused') await this.admin(name, () => admin().resumeSync());
    if (held && state === 'Syncing') await this.admin(name, () => admin().pauseSync());
    return { detail: `${first}; then at once ${step.second}: ${secondOutcome}` };
  }

  /**
   * A snapshot upload to the team's store, checked against the state table: the call answers at once with the node in
   * `UploadingSnapshot`; a second upload meanwhile is refused with OPERATION_REFUSED; the node syncs no checkpoint
   * while the upload reads its database and the index lists the snapshot whole (checkers/snapshotUploads.ts); the
   * node then returns to the state it left (`Syncing`, or `SyncPaused` under a pauseSync fault). A broken rule is a
   * snapshotUploadRuleBroken failure.
   */
  private async snapshotUpload(step: SimStepOf<'admin.snapshotUpload'>): Promise<Applied> {
    const { world } = this;
    const node = world.node(step.node);
    const admin = node.service.admin;
    const before = admin.operationalState();
    const uploadsBefore = world.snapshots.uploads().length;
    const outcome = await this.admin(step.node, () => admin.startSnapshotUpload(SIM_SNAPSHOT_LOCATION));
    if (outcome !== 'done') return { detail: `upload from ${before}: ${outcome}` };
    const problems: string[] = [];
    const during = admin.operationalState();
    if (during !== 'UploadingSnapshot') problems.push(`state ${during} right after the call, not UploadingSnapshot`);
    const second = await this.admin(step.node, () => admin.startSnapshotUpload(SIM_SNAPSHOT_LOCATION));
    if (second !== 'refused OPERATION_REFUSED') problems.push(`a second upload during the first: ${second}`);
    const after = await settledOperationalState(node);
    if (after !== before) problems.push(`state ${after} after the upload, where it started in ${before}`);
    const uploads = world.snapshots.uploads().slice(uploadsBefore);
    if (uploads.length !== 1) problems.push(`${uploads.length} uploads started instead of one`);
    const failures = [
      ...problems.map((detail) => ({ kind: 'snapshotUploadRuleBroken' as const, node: step.node, detail })),
      ...uploads.flatMap((upload) => checkSnapshotUpload(world.snapshots, upload)),
    ];
    for (const failure of failures) this.observer.failure(failure);
    const listed = uploads.map((u) => world.snapshots.index(u.location).find((e) => e.name === u.name));
    const counts = listed.map((e) => (e === undefined ? 'unlisted' : `${e.entryCount} entries`)).join(', ');
    return {
      detail: `uploaded from ${before} (${counts}), second call ${second}${failures.length > 0 ? `; ${failures.length} rules broken` : ''}`,
    };
  }

  private overlapCall(name: string, call: SimOverlapAdminCall, blocksBack: number): Promise<void> {
    const node = this.world.node(name);
    if (call === 'pauseSync') return node.service.admin.pauseSync();
    if (call === 'resumeSync') return node.service.admin.resumeSync();
    return node.service.admin.rollbackTo(Math.max(0, node.chain.tips.proposed.number - blocksBack), false, false);
  }

  /** `meanwhile` runs right after the rollback call is issued, before it settles (admin.overlap). */
  private async rollback(step: SimStepOf<'admin.rollback'>, meanwhile?: () => void): Promise<Applied> {
    const node = this.world.node(step.node);
    const target = Math.max(0, node.chain.tips.proposed.number - step.blocksBack);
    const expected = await expectRollback(step.node, node, target);
    // A rollback that clears the databases (forced, below finalized or the oldest state kept) loses the pooled txs
    // and those mined in the blocks it removes that L1 does not hold: all are accounted for as cleared.
    const clears = rollbackClearsDatabases(node.chain, {
      targetBlockNumber: target,
      force: step.force,
      resumeSync: false,
    });
    const cleared = clears
      ? [...node.txPool.current.ordered().map((p) => p.txHash), ...(await txsMinedAbove(node, target))]
      : [];
    const call = this.admin(step.node, () => node.service.admin.rollbackTo(target, step.force, false));
    meanwhile?.();
    const outcome = await call;
    if (outcome !== 'done') {
      for (const failure of await checkRollbackRefused(node, expected, outcome)) this.observer.failure(failure);
      return { detail: `rollback to ${target}${step.force ? ' (forced)' : ''}: ${outcome}` };
    }
    if (clears) this.observer.poolCleared(step.node, cleared);
    for (const failure of await checkRollback(node, expected)) this.observer.failure(failure);
    // Sync stays paused if a pauseSync fault holds the node; else it resumes, as the rollback's resumeSync would.
    if (!this.active.has(`admin.pauseSync:${step.node}`))
      await this.admin(step.node, () => node.service.admin.resumeSync());
    return { detail: `rolled back to block ${target}${step.force ? ' (forced)' : ''}` };
  }

  private async pauseSync(step: SimStepOf<'admin.pauseSync'>): Promise<Applied> {
    const admin = () => this.world.node(step.node).service.admin;
    const outcome = await this.admin(step.node, () => admin().pauseSync());
    if (outcome !== 'done') return { detail: `pause sync: ${outcome}` };
    return {
      detail: `sync paused for ${step.durationMs} ms`,
      heal: async () => void (await this.admin(step.node, () => admin().resumeSync())),
    };
  }

  private async pauseSequencer(step: SimStepOf<'admin.pauseSequencer'>): Promise<Applied> {
    const name = this.world.sequencerName;
    const admin = () => this.world.node(name).service.admin;
    if (this.world.isPaused(name)) return { detail: `skipped: ${name} is paused` };
    const outcome = await this.admin(name, () => admin().pauseSequencer());
    if (outcome !== 'done') return { detail: `pause sequencer: ${outcome}` };
    return {
      detail: `sequencer paused for ${step.durationMs} ms`,
      heal: async () => void (await this.admin(name, () => admin().resumeSequencer())),
    };
  }

  private async tx(step: SimStepOf<'tx.send' | 'tx.replace' | 'tx.burst' | 'tx.drain'>): Promise<Applied> {
    if (!this.workload.reachable()) return { detail: 'skipped: the sequencer is paused' };
    const describe = (entry: TxLedgerEntry) =>
      `${entry.txHash.slice(0, 10)} fee ${entry.priorityFee} ${entry.outcome.kind === 'accepted' ? 'accepted' : `rejected ${entry.outcome.code ?? '(no code)'}`}`;
    switch (step.kind) {
      case 'tx.send':
        return { detail: describe(await this.workload.send(step)) };
      case 'tx.replace': {
        const entry = await this.workload.replace(step);
        return { detail: entry === undefined ? 'skipped: no workload tx pooled' : describe(entry) };
      }
      case 'tx.burst': {
        const entries = await this.workload.burst(step);
        const accepted = entries.filter((e) => e.outcome.kind === 'accepted').length;
        return { detail: `${accepted} of ${entries.length} accepted` };
      }
      case 'tx.drain':
        return { detail: describe(await this.workload.drain(step)) };
    }
  }
}

/** Where the admin.snapshotUpload step uploads: the team's simulated store. */
export const SIM_SNAPSHOT_LOCATION = 'sim://team';

/** The node's operational state once no operation is in progress (an upload and the resume after it have ended). */
function settledOperationalState(node: RollupNode): Promise<string> {
  const settled = (state: string) => !OPERATION_IN_PROGRESS_STATES.includes(state);
  const now = String(node.operationsActor.getSnapshot().value);
  if (settled(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const subscription = node.operationsActor.subscribe((snapshot) => {
      const state = String(snapshot.value);
      if (!settled(state)) return;
      subscription.unsubscribe();
      resolve(state);
    });
  });
}

/** Hashes of the txs in the node's blocks above `target`. */
async function txsMinedAbove(node: RollupNode, target: number): Promise<Hex[]> {
  const hashes: Hex[] = [];
  for (let n = target + 1; n <= node.chain.tips.proposed.number; n++) {
    const block = await node.chain.store.getBlock(n);
    for (const effect of block?.body.txEffects ?? []) hashes.push(effect.txHash.toLowerCase() as Hex);
  }
  return hashes;
}
