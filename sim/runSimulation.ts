import type { AnyActorRef } from 'xstate';
import type { Hex } from '../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../spec/codec/bytes.js';
import { L1_CHAIN_ID_LOCAL_NETWORK } from '../spec/constants.js';
import { createNode, TX_POOL_SETTINGS_DEFAULT, type NodeActivity, type NodeConfig, type RollupNode } from '../core/node/node.js';
import type { KeystoreSourcePort, NodePorts, StoragePort } from '../core/ports.js';
import { devKeystoreFile, devValidators, type DevValidator } from '../core/validators/devValidators.js';
import type { ValidatorLimits } from '../core/validators/validatorLimits.js';
import { createSimNetwork, type SimNetwork } from './simNetwork.js';
import { createGenesis } from '../core/worldState/genesis.js';
import { livenessBoundMs } from './checkers/liveness.js';
import { RunMonitor } from './checkers/runMonitor.js';
import type { SimFailure } from './checkers/simFailure.js';
import { installSchedule, type FaultWorld } from './faultInjector.js';
import type { SimEvent, SimSchedule } from './faults.js';
import { MachineCoverage, type MachineCoverageReport } from './machineCoverage.js';
import { createPrng, createSimRandomness, type Prng } from './prng.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createNodeClock, type SimClock } from './simClock.js';
import { createSimL1, type SimL1, type SimL1InclusionDelay, type SimL1Link } from './simL1.js';
import { createSimLogger } from './simLogger.js';
import { crashAndRecover, createSimStorage } from './simStorage.js';
import type { SimSwarm } from './swarm.js';
import { createTrace } from './trace.js';
import { TxWorkload } from './txWorkload.js';
import { upgradeConfiguration } from './upgrade.js';
import { createMemorySigningDatabase } from '../adapters/signing/memorySigningDatabase.js';

export type { SimFailure } from './checkers/simFailure.js';

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
  readonly network?: { readonly latencyMs?: { readonly min: number; readonly max: number }; readonly lossProbability?: number };
}

export const SIM_SECONDS_DEFAULT = 600;
const ROLLUP_VERSION = 1;
/** The simulated rollup contract's address (the simulated L1 has one contract, so any fixed value works). */
const ROLLUP_ADDRESS: Hex = `0x${'00'.repeat(19)}01`;
/** The one node that runs a sequencer (and takes the tx workload). */
export const SEQUENCER_NAME = 'sequencer-0';
/** The redundant sequencer holding sequencer-0's validator keys, when `redundantSequencer` is set. */
export const REDUNDANT_SEQUENCER_NAME = 'sequencer-1';
/** The node that runs the prover, when `proverNode` is set. */
export const PROVER_NAME = 'prover-1';

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
    inclusionDelay: delayed ? { probability: Math.round(prng.float() * 30) / 100, blocksMax: prng.int(1, 2) } : { probability: 0, blocksMax: 0 },
  };
}

/** A node's part: the sequencer (takes the tx workload), a follower that also proposes (`followersPropose`), or a follower. */
export type SimNodeRole = 'sequencer' | 'proposer' | 'follower';

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

interface SimNode {
  readonly name: string;
  readonly role: SimNodeRole;
  readonly node: RollupNode;
}

function publisherAddress(prng: Prng): Hex {
  return bytesToHex(prng.bytes(20));
}

/** Records a chain activity in the trace in a compact, canonical form. */
function traceActivity(record: (kind: string, fields: Record<string, unknown>) => void, name: string, a: NodeActivity): void {
  if (a.kind === 'slot') {
    record('sequencer.slot', { node: name, ...a.outcome });
    return;
  }
  if (a.kind === 'admin') {
    record('node.admin', { node: name, action: a.action });
    return;
  }
  if (a.kind === 'proof') {
    record('prover.proof', { node: name, ...a.outcome });
    return;
  }
  if (a.kind === 'validator') {
    record(`validator.${a.event.kind}`, { node: name, ...a.event });
    return;
  }
  const e = a.event;
  switch (e.type) {
    case 'blocksAdded':
      record('chain.blocksAdded', { node: name, blocks: e.blocks.map((b) => [b.header.globalVariables.blockNumber, b.hash]) });
      break;
    case 'chainCheckpointed':
      record('chain.checkpointed', { node: name, checkpoint: e.checkpoint.number, block: e.block.number, hash: e.block.hash });
      break;
    case 'chainPruned':
      record('chain.pruned', { node: name, toBlock: e.toBlock.number, reason: e.reason });
      break;
    case 'chainProven':
    case 'chainFinalized':
      record(`chain.${e.type}`, { node: name, block: e.block.number });
      break;
  }
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

interface SimNodeSlot {
  readonly name: string;
  readonly role: SimNodeRole;
  readonly publisher: Hex | undefined;
  /** The L1 account this node submits epoch proofs from; set on the prover node. */
  readonly proofPublisher?: Hex;
  /** The validators this node's keystore holds (none: the node runs no validators). */
  readonly validatorKeys: readonly DevValidator[];
  incarnation: number;
  current: SimNode;
  storage: StoragePort;
  clock: SimClock;
  link: SimL1Link;
  skewMs: number;
  /** The configuration an upgrade restarted the node with (sim/upgrade.ts); before one, the run's options decide. */
  config?: NodeConfig;
}

/**
 * Runs one seeded simulation: a sequencer and its followers (some of which may propose too, `followersPropose`) over
 * one simulated L1, for a fixed simulated time.
 */
export async function runSimulation(options: SimOptions, io: SimHooks = {}): Promise<SimResult> {
  const root = createPrng(options.seed);
  const scheduler = createScheduler();
  const startMs = scheduler.now();
  const trace = createTrace({ now: () => scheduler.now(), keepLast: 0 });
  const genesis = createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION);
  const validatorCount = options.validatorCount ?? 0;
  const validators = devValidators(`sim-${options.seed}`, validatorCount);
  const network = validatorCount > 0 ? createSimNetwork({ prng: root.fork('network'), ...options.network, trace }) : undefined;
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
  const nodesPrng = root.fork('nodes');
  const haSigningDatabase = options.redundantSequencer?.haSigning === true ? createMemorySigningDatabase() : undefined;
  const slots: SimNodeSlot[] = [];
  const events: SimEvent[] = [];
  const elapsedMs = () => scheduler.now() - startMs;
  const coverage = new MachineCoverage();
  /** The tx workload, built once the world is (the monitor reads its ledger from then on). */
  const workloadRef: { current?: TxWorkload } = {};
  const monitor = new RunMonitor({
    sequencerName: SEQUENCER_NAME,
    l1,
    livenessBoundMs: livenessBoundMs(options),
    nodes: () => slots.map((s) => s.current),
    elapsedMs,
    event: (event) => events.push(event),
    ledger: () => workloadRef.current?.ledger ?? [],
    coverage,
  });

  /** Builds one incarnation of a node over its storage; each incarnation has its own clock, link and streams. */
  const startIncarnation = async (slot: Omit<SimNodeSlot, 'current' | 'clock' | 'link'>): Promise<{ node: SimNode; clock: SimClock; link: SimL1Link }> => {
    const label = slot.incarnation === 0 ? slot.name : `${slot.name}#${slot.incarnation}`;
    const prng = nodesPrng.fork(label);
    const clock = createNodeClock(scheduler, { owner: label, skewMs: slot.skewMs });
    const link = l1.connect(label);
    const logger = createSimLogger({ trace, bindings: { node: label }, ...(io.print ? { print: io.print, now: () => scheduler.now() } : {}) });
    const publisher = slot.publisher ? link.createPublisher(slot.publisher, logger.child({ component: 'l1Publisher' })) : undefined;
    const proofPublisher = slot.proofPublisher ? link.createPublisher(slot.proofPublisher, logger.child({ component: 'l1ProofPublisher' })) : undefined;
    const ports: NodePorts = {
      clock,
      randomness: createSimRandomness(prng.fork('randomness')),
      logger,
      storage: slot.storage,
      l1: link.reader,
      ...(publisher ? { l1Publisher: publisher } : {}),
      ...(proofPublisher ? { l1ProofPublisher: proofPublisher } : {}),
      ...(network ? { network: network.connect(label, clock) } : {}),
      ...(network && slot.validatorKeys.length > 0 ? { keystore: simKeystore(slot.validatorKeys, publisher?.publisherAddress) } : {}),
      // One HA node id per node, kept across its restarts (a restarted node may retry what it claimed before).
      ...(haSigningDatabase ? { signingGuard: haSigningDatabase.guardFor(slot.name) } : {}),
    };
    // The validator settings are the run's (its keystores come through the ports), also after an upgrade's restart.
    const validatorSettings: Pick<NodeConfig, 'validatorSet' | 'validator'> = {
      validatorSet: network ? 'enforced' : 'ignored',
      ...(network && slot.validatorKeys.length > 0
        ? { validator: { limits: options.validatorLimits ?? {}, publishers: publisher ? [publisher.publisherAddress] : [] } }
        : {}),
    };
    const node = await createNode(ports, slot.config ? { ...slot.config, ...validatorSettings } : {
      rollupAddress: ROLLUP_ADDRESS,
      archiverPollIntervalMs: options.archiverPollIntervalMs,
      ...(options.txPoolCapacity !== undefined ? { txPool: { ...TX_POOL_SETTINGS_DEFAULT, capacity: options.txPoolCapacity } } : {}),
      ...(publisher
        ? {
            sequencer: {
              blockDurationMs: options.blockDurationMs,
              l1PublishingTimeAllowanceInSlotSeconds: options.publishingAllowanceSeconds,
              pollIntervalMs: options.sequencerPollIntervalMs,
              coinbase: publisher.publisherAddress,
              feeRecipient: bytesToHex(bigintToBytes(0n, 32)),
            },
          }
        : {}),
      ...(proofPublisher ? { prover: { pollIntervalMs: options.archiverPollIntervalMs } } : {}),
      ...validatorSettings,
    });
    node.onActivity((activity) => {
      if (clock.isHalted()) return;
      traceActivity((kind, fields) => trace.record(kind, fields), label, activity);
      io.onActivity?.(slot.name, activity);
      monitor.onActivity(slot.name, label, node, activity);
    });
    await monitor.attach(slot.name, node, () => !clock.isHalted(), slot.incarnation > 0);
    coverage.attach('archiver', node.archiverActor);
    coverage.attach('sequencer', node.sequencerActor);
    coverage.attach('chainTips', chainTipsActorOf(node));
    coverage.attach('prover', node.proverActor);
    coverage.attach('operations', node.operationsActor);
    return { node: { name: slot.name, role: slot.role, node }, clock, link };
  };

  const names = [SEQUENCER_NAME, ...(options.redundantSequencer ? [REDUNDANT_SEQUENCER_NAME] : []), ...Array.from({ length: options.followerCount }, (_, i) => `follower-${i + 1}`), ...(options.proverNode ? [PROVER_NAME] : [])];
  for (const name of names) {
    const validatorKeys = validatorKeysOf(name, names, validators, options.validatorKeysOnSequencer);
    const role = roleOf(name, validatorKeys, options);
    const publisher = role !== 'follower' ? publisherAddress(nodesPrng.fork(`${name}/publisher`)) : undefined;
    const proofPublisher = name.startsWith('prover') ? publisherAddress(nodesPrng.fork(`${name}/proofPublisher`)) : undefined;
    const base = { name, role, publisher, ...(proofPublisher ? { proofPublisher } : {}), validatorKeys, incarnation: 0, storage: createSimStorage(), skewMs: 0 } as const;
    const { node, clock, link } = await startIncarnation(base);
    slots.push({ ...base, current: node, clock, link });
  }
  const slotOf = (name: string): SimNodeSlot => {
    const slot = slots.find((s) => s.name === name);
    if (!slot) throw new Error(`no node named ${name}`);
    return slot;
  };

  /** Stops the slot's current incarnation where it is: its clock halts and it leaves the gossip network. */
  const haltIncarnation = (slot: SimNodeSlot): void => {
    slot.clock.halt();
    network?.disconnect(slot.incarnation === 0 ? slot.name : `${slot.name}#${slot.incarnation}`);
  };
  /** Starts the slot's next incarnation over its storage (and its configuration, if an upgrade set one). */
  const startNextIncarnation = async (slot: SimNodeSlot): Promise<void> => {
    slot.incarnation++;
    const { node, clock, link } = await startIncarnation(slot);
    slot.current = node;
    slot.clock = clock;
    slot.link = link;
    node.node.start();
  };

  const interventions: { atMs: number; seq: number; action: () => Promise<void> | void }[] = [];
  const world: SimWorld = {
    scheduler,
    l1,
    sequencerName: SEQUENCER_NAME,
    at: (offsetMs, action) => interventions.push({ atMs: startMs + offsetMs, seq: interventions.length, action }),
    nodeNames: () => slots.map((s) => s.name),
    node: (name) => slotOf(name).current.node,
    link: (name) => slotOf(name).link,
    async crashAndRestart(name) {
      const slot = slotOf(name);
      haltIncarnation(slot);
      trace.record('node.crashed', { node: name, incarnation: slot.incarnation });
      slot.storage = await crashAndRecover(slot.storage);
      await startNextIncarnation(slot);
      trace.record('node.restarted', { node: name, incarnation: slot.incarnation });
    },
    async upgradeNode(name, retiredIndex) {
      const slot = slotOf(name);
      const outcome = upgradeConfiguration(slot.current.node.currentConfig(), retiredIndex);
      if (!outcome.ok) return { detail: 'upgrade refused', problem: outcome.problem };
      await slot.current.node.stop();
      haltIncarnation(slot);
      trace.record('node.upgrading', { node: name, incarnation: slot.incarnation, refusal: outcome.refusal });
      slot.config = outcome.config;
      await startNextIncarnation(slot);
      trace.record('node.upgraded', { node: name, incarnation: slot.incarnation });
      return { detail: `3.x configuration refused (${outcome.refusal}); restarted with the 4.x one` };
    },
    pauseNode(name) {
      slotOf(name).clock.pause();
      trace.record('node.paused', { node: name });
    },
    resumeNode(name) {
      slotOf(name).clock.resume();
      trace.record('node.resumed', { node: name });
    },
    isPaused: (name) => slotOf(name).clock.isPaused(),
    setClockSkewMs(name, skewMs) {
      const slot = slotOf(name);
      slot.skewMs = skewMs;
      slot.clock.setSkewMs(skewMs);
    },
    record: (kind, fields) => trace.record(kind, fields),
    elapsedMs,
    network,
    validators,
  };
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
  for (const slot of slots) slot.current.node.start();
  try {
    const endMs = startMs + options.simulatedSeconds * 1000;
    for (const step of interventions.filter((i) => i.atMs <= endMs).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq)) {
      await scheduler.runUntil(step.atMs);
      await step.action();
    }
    await scheduler.runUntil(endMs);
  } catch (error) {
    monitor.failure({ kind: 'crashed', detail: error instanceof Error ? `${error.message}` : String(error) });
  }
  const nodes = slots.map((s) => s.current);
  for (const { node } of nodes) await node.stop();
  const failures = await monitor.finish(options, workload.ledger);
  return {
    options,
    traceHash: trace.traceHash(),
    traceEntries: trace.length,
    eventsRun: scheduler.eventsRun,
    l1Head: l1.head().number,
    l1Checkpoints: l1.checkpointCount(),
    nodes: nodes.map(({ name, role, node }) => ({
      name,
      role,
      proposed: node.chain.tips.proposed.number,
      checkpointedBlock: node.chain.tips.checkpointed.block.number,
      checkpoint: node.chain.tips.checkpointed.checkpoint.number,
      provenBlock: node.chain.tips.proven.block.number,
      finalizedBlock: node.chain.tips.finalized.block.number,
      machines: node.machineStates(),
    })),
    failures,
    events,
    coverage: coverage.report(),
  };
}

/** The sequencer by name; a follower proposes when the run says followers do and it holds validator keys. */
function roleOf(name: string, validatorKeys: readonly DevValidator[], options: Pick<SimOptions, 'followersPropose'>): SimNodeRole {
  if (name === SEQUENCER_NAME || name === REDUNDANT_SEQUENCER_NAME) return 'sequencer';
  return options.followersPropose === true && name.startsWith('follower-') && validatorKeys.length > 0 ? 'proposer' : 'follower';
}

/**
 * Which validators (indexes in registration order) node `name` runs: the sequencer's share first, the rest to the
 * followers in turn; the prover node runs none. The swarm reads the same split to choose partition-tolerant layouts.
 */
export function validatorIndexesOf(name: string, names: readonly string[], validatorCount: number, onSequencer = validatorCount): number[] {
  const all = Array.from({ length: validatorCount }, (_, i) => i);
  if (name === SEQUENCER_NAME || name === REDUNDANT_SEQUENCER_NAME) return all.slice(0, onSequencer);
  const followers = names.filter((n) => n.startsWith('follower-'));
  const position = followers.indexOf(name);
  if (position < 0) return [];
  return all.slice(onSequencer).filter((_, i) => i % followers.length === position);
}

function validatorKeysOf(name: string, names: readonly string[], validators: readonly DevValidator[], onSequencer?: number): DevValidator[] {
  return validatorIndexesOf(name, names, validators.length, onSequencer).map((i) => validators[i]!);
}

/**
 * A node's keystore: its validators, each credited as its own coinbase (so a checkpoint names its proposer),
 * publishing from the sequencer's account (followers: the attester fallback).
 */
function simKeystore(validators: readonly DevValidator[], publisher: Hex | undefined): KeystoreSourcePort {
  const contents = devKeystoreFile(validators, { feeRecipient: bytesToHex(bigintToBytes(0n, 32)), ...(publisher ? { publisher } : {}) });
  return { location: 'sim:keystore', read: async () => contents.slice() };
}

/** The chain's tips machine: the chain keeps its actor private, so the simulator reads the field to observe it. */
function chainTipsActorOf(node: RollupNode): AnyActorRef | undefined {
  return (node.chain as unknown as { readonly tipsActor?: AnyActorRef }).tipsActor;
}
