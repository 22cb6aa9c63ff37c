import type { Hex } from '../spec/chain.js';
import { L1_CHAIN_ID_LOCAL_NETWORK } from '../spec/constants.js';
import type { NodeActivity, RollupNode } from '../core/node/node.js';
import { devValidators, type DevValidator } from '../core/validators/devValidators.js';
import type { ValidatorLimits } from '../core/validators/validatorLimits.js';
import { createSimNetwork, type SimNetwork } from './simNetwork.js';
import { createGenesis } from '../core/worldState/genesis.js';
import { livenessBoundMs } from './checkers/liveness.js';
import { RunMonitor } from './checkers/runMonitor.js';
import type { SimFailure } from './checkers/simFailure.js';
import { SimBlobStores } from './simBlobStores.js';
import { createCluster, SEQUENCER_NAME, type Cluster, type SimNode, type SimNodeRole } from './cluster.js';
import { installSchedule, type FaultWorld } from './faultInjector.js';
import { checkSnapshotIndexes } from './checkers/snapshotUploads.js';
import { SimSnapshots } from './simSnapshots.js';
import type { SimEvent, SimSchedule } from './faults.js';
import { MachineCoverage, type MachineCoverageReport } from './machineCoverage.js';
import { createPrng, type Prng } from './prng.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createSimL1, type SimL1, type SimL1InclusionDelay, type SimL1Link } from './simL1.js';
import type { SimSwarm } from './swarm.js';
import { createTrace, type Trace } from './trace.js';
import { TxWorkload } from './txWorkload.js';
import { createMemorySigningDatabase } from '../adapters/signing/memorySigningDatabase.js';
import { shareHashesForRun } from './sharedHashes.js';

export type { SimFailure } from './checkers/simFailure.js';
export {
  PROVER_NAME,
  REDUNDANT_SEQUENCER_NAME,
  SEQUENCER_NAME,
  validatorIndexesOf,
  type SimNodeRole,
} from './cluster.js';

/** Everything a run depends on besides the code: drawn from the seed, printed beside it. */
export interface SimOptions {
  readonly seed: bigint;
  readonly simulatedSeconds: number;
  readonly followerCount: number;
  readonly slotDurationSeconds: number;
  readonly blockDurationMs: number;
  readonly publishingAllowanceSeconds: number;
  readonly archiverPollIntervalMs: number;
  readonly sequencerPollIntervalMs: number;
  readonly inclusionDelay: SimL1InclusionDelay;
  /** Adds a node `prover-1` that runs the prover with its own L1 account (default: no prover, nothing is proven). */
  readonly proverNode?: boolean;
  /** Rollup epoch length in slots (default EPOCH_DURATION_SLOTS_DEFAULT). */
  readonly epochDurationSlots?: number;
  /** Epochs after an epoch's end within which its proof is accepted (default PROOF_SUBMISSION_EPOCHS_DEFAULT). */
  readonly proofSubmissionEpochs?: number;
  /**
   * The rollup contract's base-currency-per-fee-asset rate, 12 decimals (`--initialEthPerFeeAsset`; default
   * INITIAL_ETH_PER_FEE_ASSET_DEFAULT). A number so that options stay plain JSON in replay files.
   */
  readonly ethPerFeeAsset?: number;
  /** How far L1's finalized block trails its head (default SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT). */
  readonly l1FinalityLagBlocks?: number;
  /** Faults and tx workload to apply (default: none); see sim/faults.ts. */
  readonly schedule?: SimSchedule;
  /** The fault classes and knobs the schedule was drawn with (for the record; the run reads only `schedule`). */
  readonly swarm?: SimSwarm;
  /** Every node's tx pool capacity (default P2P_PENDING_TX_COUNT_MAX_DEFAULT); a small one makes the pool overflow. */
  readonly txPoolCapacity?: number;
  /**
   * Validators registered with the L1 at deployment, by default all run by the sequencer's keystore (a committee of
   * its own keys, as on the local network; `validatorKeysOnSequencer` spreads them); every node then enforces the
   * validator set, checks each checkpoint's quorum and hears validator gossip over a simulated network. Default 0: no
   * validators, and nodes ignore the validator set (no validator reads from L1), which keeps the runs and traces of
   * the simulator's other tests unchanged.
   */
  readonly validatorCount?: number;
  /**
   * How many of the validators the sequencer's keystore holds (default: all). The others go to the followers in turn:
   * the sequencer then needs their attestations for its quorum, and the slots whose proposer sits on a follower (which
   * runs no sequencer) pass without a checkpoint.
   */
  readonly validatorKeysOnSequencer?: number;
  /**
   * Adds `sequencer-1`, a redundant sequencer running the same validator keystore as sequencer-0 from its own L1
   * account, as an operator's standby node would. With `haSigning` every node claims its signatures in one shared
   * in-memory HA signing database (adapters/signing/memorySigningDatabase.ts); without it the two sequencers sign
   * conflicting proposals for the same slots. Needs `validatorCount`.
   */
  readonly redundantSequencer?: { readonly haSigning: boolean };
  /**
   * Followers that hold validator keys also run a sequencer, each with its own L1 publisher account, so that the slots
   * whose proposer sits on them get proposed (default false: followers only attest, and those slots pass empty). The
   * tx workload still goes to the sequencer (SEQUENCER_NAME) alone, and only its sequencer is an admin target.
   */
  readonly followersPropose?: boolean;
  /** VALIDATOR_MAX_* limits of every node's validators (default: none). */
  readonly validatorLimits?: ValidatorLimits;
  /** The gossip network's latency and loss (default SIM_NETWORK_LATENCY_MS_DEFAULT, no loss); with validators only. */
  readonly network?: {
    readonly latencyMs?: { readonly min: number; readonly max: number };
    readonly lossProbability?: number;
  };
}

export const SIM_SECONDS_DEFAULT = 600;
const ROLLUP_VERSION = 1;

/** Swarm-style draw: each seed picks its own network shape and timing. */
export function drawOptions(seed: bigint, simulatedSeconds = SIM_SECONDS_DEFAULT): SimOptions {
  const prng = createPrng(seed).fork('options');
  const slotDurationSeconds = prng.pick([24, 36, 48]);
  const delayed = prng.bool(0.5);
  return {
    seed,
    simulatedSeconds,
    followerCount: prng.int(0, 2),
    slotDurationSeconds,
    blockDurationMs: prng.pick([3_000, 4_000, 6_000]),
    publishingAllowanceSeconds: prng.pick([12, slotDurationSeconds - 12]),
    archiverPollIntervalMs: prng.int(200, 3_000),
    sequencerPollIntervalMs: prng.int(200, 1_000),
    inclusionDelay: delayed
      ? { probability: Math.round(prng.float() * 30) / 100, blocksMax: prng.int(1, 2) }
      : { probability: 0, blocksMax: 0 },
  };
}

export interface SimNodeSummary {
  readonly name: string;
  readonly role: SimNodeRole;
  readonly proposed: number;
  readonly checkpointedBlock: number;
  readonly checkpoint: number;
  readonly provenBlock?: number;
  readonly finalizedBlock?: number;
  readonly machines: { archiver: string; sequencer: string | undefined; chainTips: string; prover?: string };
}

export interface SimResult {
  readonly options: SimOptions;
  readonly traceHash: Hex;
  readonly traceEntries: number;
  readonly eventsRun: number;
  readonly l1Head: bigint;
  readonly l1Checkpoints: number;
  readonly nodes: readonly SimNodeSummary[];
  readonly failures: readonly SimFailure[];
  /** Every fault and workload step applied (or skipped), with its outcome. */
  readonly events: readonly SimEvent[];
  /** Transitions of every machine, taken by some node or never. */
  readonly coverage: readonly MachineCoverageReport[];
}

/** What a scripted scenario may act on: the scheduler and L1 directly, and node faults between run segments. */
export interface SimWorld extends FaultWorld {
  readonly scheduler: Scheduler;
  readonly l1: SimL1;
  /** Runs `action` when the simulated clock reaches `offsetMs` after the start, outside any event. */
  at(offsetMs: number, action: () => Promise<void> | void): void;
  /** Crashes a node (its timers die, its unfinished storage batch is lost) and starts it again on what it stored. */
  crashAndRestart(name: string): Promise<void>;
  /**
   * The operator's upgrade of a node (sim/upgrade.ts): a clean stop, the 3.x configuration refused, a restart on
   * the same data with the 4.x one. A problem is what the upgrade checker reports; the node is then left running.
   */
  upgradeNode(name: string, retiredIndex: number): Promise<{ readonly detail: string; readonly problem?: string }>;
  /** The current incarnation of a node (for admin actions and queries from a scenario). */
  node(name: string): RollupNode;
  /** The current incarnation's L1 connection (a restart opens a new one, without faults). */
  link(name: string): SimL1Link;
  /** Stops a node's process (its timers wait) until `resumeNode`. */
  pauseNode(name: string): void;
  resumeNode(name: string): void;
  isPaused(name: string): boolean;
  /** Sets a node's clock skew; it survives restarts (the machine's clock is off, not the process). */
  setClockSkewMs(name: string, skewMs: number): void;
  /** Simulated ms since the run started. */
  elapsedMs(): number;
  /** The validator gossip network; undefined without validators. */
  readonly network: SimNetwork | undefined;
  /** The registered validators with their keys, in registration order (`validatorIndexesOf` says which node runs each). */
  readonly validators: readonly DevValidator[];
}

export interface SimHooks {
  readonly print?: (line: string) => void;
  /** Called once the world is built and before the nodes start. */
  readonly scenario?: (world: SimWorld) => void;
  /** Receives every node activity (tests use it to observe prunes and checkpoints). */
  readonly onActivity?: (node: string, activity: NodeActivity) => void;
}

/**
 * Runs one seeded simulation: a sequencer and its followers (some of which may propose too, `followersPropose`) over
 * one simulated L1, for a fixed simulated time. The seed builds the world and the cluster of nodes; the schedule's
 * faults act through the safety phase until its heal, the liveness phase follows, and the checkers judge the run.
 */
export async function runSimulation(options: SimOptions, io: SimHooks = {}): Promise<SimResult> {
  const release = shareHashesForRun();
  try {
    return await simulate(options, io);
  } finally {
    release();
  }
}

async function simulate(options: SimOptions, io: SimHooks): Promise<SimResult> {
  const environment = createEnvironment(options);
  const { scheduler, startMs, trace, l1, network, validators, blobStores, snapshots } = environment;
  const haSigningDatabase = options.redundantSequencer?.haSigning === true ? createMemorySigningDatabase() : undefined;
  const events: SimEvent[] = [];
  const elapsedMs = () => scheduler.now() - startMs;
  const coverage = new MachineCoverage();
  /** The tx workload, built once the world is (the monitor reads its ledger from then on). */
  const workloadRef: { current?: TxWorkload } = {};
  const monitor = new RunMonitor({
    sequencerName: SEQUENCER_NAME,
    l1,
    livenessBoundMs: livenessBoundMs(options),
    // Read only once the cluster exists: the monitor is called back from its nodes, which boot after it.
    nodes: () => cluster.nodes(),
    elapsedMs,
    event: (event) => events.push(event),
    ledger: () => workloadRef.current?.ledger ?? [],
    coverage,
  });
  const cluster = createCluster({
    options,
    scheduler,
    trace,
    l1,
    blobStores,
    snapshots,
    network,
    validators,
    prng: environment.nodesPrng,
    haSigningDatabase,
    monitor,
    coverage,
    io,
  });
  await cluster.boot();

  const interventions: Intervention[] = [];
  const world = createWorld(environment, cluster, interventions, elapsedMs);
  const workload = new TxWorkload(world);
  workloadRef.current = workload;
  if (options.schedule !== undefined) {
    installSchedule(world, options.schedule, workload, {
      event: (event) => events.push(event),
      failure: (failure) => monitor.failure(failure),
      poolCleared: (name, txHashes) => monitor.poolCleared(name, txHashes),
      healed: (atMs) => monitor.healed(atMs),
    });
  }
  io.scenario?.(world);
  cluster.startAll();
  await runPhases(scheduler, interventions, startMs + options.simulatedSeconds * 1000, monitor);
  const nodes = await cluster.stopAll();
  for (const failure of checkSnapshotIndexes(snapshots)) monitor.failure(failure);
  const failures = await monitor.finish(options, workload.ledger);
  return {
    options,
    traceHash: trace.traceHash(),
    traceEntries: trace.length,
    eventsRun: scheduler.eventsRun,
    l1Head: l1.head().number,
    l1Checkpoints: l1.checkpointCount(),
    nodes: nodes.map(summaryOf),
    failures,
    events,
    coverage: coverage.report(),
  };
}

/** What the nodes of a run live in, built from the seed: the scheduler, the trace, the validators, the gossip network and L1. */
interface SimEnvironment {
  readonly scheduler: Scheduler;
  /** The scheduler's time when the run starts. */
  readonly startMs: number;
  readonly trace: Trace;
  readonly validators: readonly DevValidator[];
  readonly network: SimNetwork | undefined;
  readonly l1: SimL1;
  /** The team's blob file store and the blob archive, shared by the nodes. */
  readonly blobStores: SimBlobStores;
  /** The team's snapshot store, shared by the nodes. */
  readonly snapshots: SimSnapshots;
  /** The nodes' stream, forked last. */
  readonly nodesPrng: Prng;
}

/** Builds the world in a fixed order: each part forks its own stream from the seed's root. */
function createEnvironment(options: SimOptions): SimEnvironment {
  const root = createPrng(options.seed);
  const scheduler = createScheduler();
  const startMs = scheduler.now();
  const trace = createTrace({ now: () => scheduler.now(), keepLast: 0 });
  const genesis = createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION);
  const validatorCount = options.validatorCount ?? 0;
  const validators = devValidators(`sim-${options.seed}`, validatorCount);
  const network =
    validatorCount > 0 ? createSimNetwork({ prng: root.fork('network'), ...options.network, trace }) : undefined;
  const l1 = createSimL1({
    scheduler,
    prng: root.fork('l1'),
    genesisArchiveRoot: genesis.block.archive.root,
    slotDuration: options.slotDurationSeconds,
    rollupVersion: ROLLUP_VERSION,
    l1ChainId: L1_CHAIN_ID_LOCAL_NETWORK,
    l1StartBlock: 1n,
    inclusionDelay: options.inclusionDelay,
    validators: validators.map((v) => v.registration),
    ...(options.epochDurationSlots !== undefined ? { epochDuration: options.epochDurationSlots } : {}),
    ...(options.proofSubmissionEpochs !== undefined ? { proofSubmissionEpochs: options.proofSubmissionEpochs } : {}),
    ...(options.l1FinalityLagBlocks !== undefined ? { finalityLagBlocks: options.l1FinalityLagBlocks } : {}),
    ...(options.ethPerFeeAsset !== undefined ? { ethPerFeeAsset: BigInt(options.ethPerFeeAsset) } : {}),
    trace,
  });
  const blobStores = new SimBlobStores(l1, scheduler);
  const snapshots = new SimSnapshots(() => scheduler.now() - startMs);
  return {
    scheduler,
    startMs,
    trace,
    validators,
    network,
    l1,
    blobStores,
    snapshots,
    nodesPrng: root.fork('nodes'),
  };
}

/** An action a scenario or the schedule set for a simulated time, run outside any event; `seq` keeps ties in order. */
interface Intervention {
  readonly atMs: number;
  readonly seq: number;
  readonly action: () => Promise<void> | void;
}

/** The world a schedule and a scenario act on: the environment, the cluster's nodes, and interventions at set times. */
function createWorld(
  environment: SimEnvironment,
  cluster: Cluster,
  interventions: Intervention[],
  elapsedMs: () => number,
): SimWorld {
  const { scheduler, startMs, trace, l1, network, validators, blobStores, snapshots } = environment;
  return {
    scheduler,
    l1,
    blobStores,
    snapshots,
    sequencerName: SEQUENCER_NAME,
    at: (offsetMs, action) => interventions.push({ atMs: startMs + offsetMs, seq: interventions.length, action }),
    nodeNames: () => cluster.names(),
    node: (name) => cluster.node(name),
    link: (name) => cluster.link(name),
    crashAndRestart: (name) => cluster.crashAndRestart(name),
    upgradeNode: (name, retiredIndex) => cluster.upgradeNode(name, retiredIndex),
    pauseNode: (name) => cluster.pauseNode(name),
    resumeNode: (name) => cluster.resumeNode(name),
    isPaused: (name) => cluster.isPaused(name),
    setClockSkewMs: (name, skewMs) => cluster.setClockSkewMs(name, skewMs),
    record: (kind, fields) => trace.record(kind, fields),
    elapsedMs,
    network,
    validators,
  };
}

/**
 * Runs the simulated time to `endMs`, stopping at each intervention due by then (the schedule's faults and their heal
 * among them: the safety phase, then the liveness phase). A throw ends the run as a `crashed` failure.
 */
async function runPhases(
  scheduler: Scheduler,
  interventions: readonly Intervention[],
  endMs: number,
  monitor: RunMonitor,
): Promise<void> {
  try {
    for (const step of interventions.filter((i) => i.atMs <= endMs).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq)) {
      // An intervention that took simulated time delays the ones due meanwhile: they run one after another.
      await scheduler.runUntil(Math.max(step.atMs, scheduler.now()));
      await runIntervention(scheduler, step, endMs);
    }
    await scheduler.runUntil(endMs);
  } catch (error) {
    monitor.failure({ kind: 'crashed', detail: error instanceof Error ? `${error.message}` : String(error) });
  }
}

/**
 * Runs one intervention to its end. Most settle at once, at the time they are due; one that waits for something
 * that takes simulated time (an admin pause waiting for a sync step that is retrying its blob sources) has the
 * scheduler run until it settles, so that it never waits for time that does not pass.
 */
async function runIntervention(scheduler: Scheduler, step: Intervention, endMs: number): Promise<void> {
  let outcome: { readonly error?: unknown } | undefined;
  void Promise.resolve()
    .then(step.action)
    .then(
      () => (outcome = {}),
      (error: unknown) => (outcome = { error }),
    );
  const settled = await scheduler.runUntilCondition(() => outcome !== undefined, endMs);
  if (!settled) throw new Error(`an intervention due at ${step.atMs} ms was still running when the run ended`);
  if (outcome!.error !== undefined) throw outcome!.error;
}

function summaryOf({ name, role, node }: SimNode): SimNodeSummary {
  return {
    name,
    role,
    proposed: node.chain.tips.proposed.number,
    checkpointedBlock: node.chain.tips.checkpointed.block.number,
    checkpoint: node.chain.tips.checkpointed.checkpoint.number,
    provenBlock: node.chain.tips.proven.block.number,
    finalizedBlock: node.chain.tips.finalized.block.number,
    machines: node.machineStates(),
  };
}
