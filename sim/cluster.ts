/**
 * The simulated network's nodes and their lifecycles: each node is a slot that outlives its incarnations (its storage,
 * its L1 accounts, its validator keys, its clock skew), and each incarnation is one process over that storage with
 * its own clock, L1 connection and random streams. The cluster starts the first incarnations, crashes and restarts a
 * node, upgrades one (sim/upgrade.ts), pauses and resumes its process, and stops them all at the end of a run.
 */
import type { AnyActorRef } from 'xstate';
import type { Hex } from '../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../spec/codec/bytes.js';
import {
  createNode,
  TX_POOL_SETTINGS_DEFAULT,
  type NodeActivity,
  type NodeConfig,
  type RollupNode,
} from '../core/node/node.js';
import type { SimBlobStores } from './simBlobStores.js';
import type { SimSnapshots } from './simSnapshots.js';
import type { KeystoreSourcePort, NodePorts, StoragePort } from '../core/ports.js';
import { devKeystoreFile, type DevValidator } from '../core/validators/devValidators.js';
import type { MemorySigningDatabase } from '../adapters/signing/memorySigningDatabase.js';
import type { RunMonitor } from './checkers/runMonitor.js';
import type { MachineCoverage } from './machineCoverage.js';
import { createSimRandomness, type Prng } from './prng.js';
import type { SimOptions, SimHooks } from './runSimulation.js';
import type { Scheduler } from './scheduler.js';
import { createNodeClock, type SimClock } from './simClock.js';
import type { SimL1, SimL1Link } from './simL1.js';
import { createSimLogger } from './simLogger.js';
import type { SimNetwork } from './simNetwork.js';
import { crashAndRecover, createSimStorage } from './simStorage.js';
import type { Trace } from './trace.js';
import { upgradeConfiguration } from './upgrade.js';

/** The simulated rollup contract's address (the simulated L1 has one contract, so any fixed value works). */
const ROLLUP_ADDRESS: Hex = `0x${'00'.repeat(19)}01`;
/** What the simulator's nodes answer to svc_getNodeVersion: the simulator reads no package.json. */
export const SIM_NODE_VERSION = '0.0.0-sim';
/** The one node that runs a sequencer (and takes the tx workload). */
export const SEQUENCER_NAME = 'sequencer-0';
/** The redundant sequencer holding sequencer-0's validator keys, when `redundantSequencer` is set. */
export const REDUNDANT_SEQUENCER_NAME = 'sequencer-1';
/** The node that runs the prover, when `proverNode` is set. */
export const PROVER_NAME = 'prover-1';

/** A node's part: the sequencer (takes the tx workload), a follower that also proposes (`followersPropose`), or a follower. */
export type SimNodeRole = 'sequencer' | 'proposer' | 'follower';

/** A node's current incarnation. */
export interface SimNode {
  readonly name: string;
  readonly role: SimNodeRole;
  readonly node: RollupNode;
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

/** What the cluster builds its nodes from: the run's options and the simulated world they live in. */
export interface ClusterContext {
  readonly options: SimOptions;
  readonly scheduler: Scheduler;
  readonly trace: Trace;
  readonly l1: SimL1;
  /** The team's blob file store and the blob archive every node reads after its consensus client. */
  readonly blobStores: SimBlobStores;
  /** The team's snapshot store every node's svcAdmin_startSnapshotUpload writes to. */
  readonly snapshots: SimSnapshots;
  /** The validator gossip network; undefined without validators. */
  readonly network: SimNetwork | undefined;
  /** The registered validators with their keys, in registration order. */
  readonly validators: readonly DevValidator[];
  /** The nodes' stream: each node forks its publisher accounts and each incarnation its own streams from it. */
  readonly prng: Prng;
  /** The shared HA signing database, when the run has one (`redundantSequencer.haSigning`). */
  readonly haSigningDatabase: MemorySigningDatabase | undefined;
  readonly monitor: RunMonitor;
  readonly coverage: MachineCoverage;
  readonly io: SimHooks;
}

/** The run's nodes in start order; `boot` starts the first incarnation of each (not yet running). */
export function createCluster(context: ClusterContext): Cluster {
  return new Cluster(context);
}

export class Cluster {
  private readonly slots: SimNodeSlot[] = [];

  constructor(private readonly context: ClusterContext) {}

  /** Builds every node's first incarnation over fresh storage, in name order; `startAll` sets them running. */
  async boot(): Promise<void> {
    const { options, validators, prng } = this.context;
    const names = clusterNodeNames(options);
    for (const name of names) {
      const validatorKeys = validatorKeysOf(name, names, validators, options.validatorKeysOnSequencer);
      const role = roleOf(name, validatorKeys, options);
      const publisher = role !== 'follower' ? publisherAddress(prng.fork(`${name}/publisher`)) : undefined;
      const proofPublisher = name.startsWith('prover')
        ? publisherAddress(prng.fork(`${name}/proofPublisher`))
        : undefined;
      const base = {
        name,
        role,
        publisher,
        ...(proofPublisher ? { proofPublisher } : {}),
        validatorKeys,
        incarnation: 0,
        storage: createSimStorage(),
        skewMs: 0,
      } as const;
      const { node, clock, link } = await this.startIncarnation(base);
      this.slots.push({ ...base, current: node, clock, link });
    }
  }

  names(): string[] {
    return this.slots.map((s) => s.name);
  }

  /** The current incarnation of every node. */
  nodes(): SimNode[] {
    return this.slots.map((s) => s.current);
  }

  /** The current incarnation of a node. */
  node(name: string): RollupNode {
    return this.slotOf(name).current.node;
  }

  /** The current incarnation's L1 connection (a restart opens a new one, without faults). */
  link(name: string): SimL1Link {
    return this.slotOf(name).link;
  }

  startAll(): void {
    for (const slot of this.slots) slot.current.node.start();
  }

  /** Stops every node's current incarnation, in start order, and returns them. */
  async stopAll(): Promise<SimNode[]> {
    const nodes = this.nodes();
    for (const { node } of nodes) await node.stop();
    return nodes;
  }

  /** Crashes a node (its timers die, its unfinished storage batch is lost) and starts it again on what it stored. */
  async crashAndRestart(name: string): Promise<void> {
    const { trace } = this.context;
    const slot = this.slotOf(name);
    this.haltIncarnation(slot);
    trace.record('node.crashed', { node: name, incarnation: slot.incarnation });
    slot.storage = await crashAndRecover(slot.storage);
    await this.startNextIncarnation(slot);
    trace.record('node.restarted', { node: name, incarnation: slot.incarnation });
  }

  /**
   * The operator's upgrade of a node (sim/upgrade.ts): a clean stop, the 3.x configuration refused, a restart on
   * the same data with the 4.x one. A problem is what the upgrade checker reports; the node is then left running.
   */
  async upgradeNode(
    name: string,
    retiredIndex: number,
  ): Promise<{ readonly detail: string; readonly problem?: string }> {
    const { trace } = this.context;
    const slot = this.slotOf(name);
    const outcome = upgradeConfiguration(slot.current.node.currentConfig(), retiredIndex);
    if (!outcome.ok) return { detail: 'upgrade refused', problem: outcome.problem };
    await slot.current.node.stop();
    this.haltIncarnation(slot);
    trace.record('node.upgrading', { node: name, incarnation: slot.incarnation, refusal: outcome.refusal });
    slot.config = outcome.config;
    await this.startNextIncarnation(slot);
    trace.record('node.upgraded', { node: name, incarnation: slot.incarnation });
    return { detail: `3.x configuration refused (${outcome.refusal}); restarted with the 4.x one` };
  }

  /** Stops a node's process (its timers wait) until `resumeNode`. */
  pauseNode(name: string): void {
    this.slotOf(name).clock.pause();
    this.context.trace.record('node.paused', { node: name });
  }

  resumeNode(name: string): void {
    this.slotOf(name).clock.resume();
    this.context.trace.record('node.resumed', { node: name });
  }

  isPaused(name: string): boolean {
    return this.slotOf(name).clock.isPaused();
  }

  /** Sets a node's clock skew; it survives restarts (the machine's clock is off, not the process). */
  setClockSkewMs(name: string, skewMs: number): void {
    const slot = this.slotOf(name);
    slot.skewMs = skewMs;
    slot.clock.setSkewMs(skewMs);
  }

  private slotOf(name: string): SimNodeSlot {
    const slot = this.slots.find((s) => s.name === name);
    if (!slot) throw new Error(`no node named ${name}`);
    return slot;
  }

  /** Stops the slot's current incarnation where it is: its clock halts and it leaves the gossip network. */
  private haltIncarnation(slot: SimNodeSlot): void {
    slot.clock.halt();
    this.context.network?.disconnect(slot.incarnation === 0 ? slot.name : `${slot.name}#${slot.incarnation}`);
  }

  /** Starts the slot's next incarnation over its storage (and its configuration, if an upgrade set one). */
  private async startNextIncarnation(slot: SimNodeSlot): Promise<void> {
    slot.incarnation++;
    const { node, clock, link } = await this.startIncarnation(slot);
    slot.current = node;
    slot.clock = clock;
    slot.link = link;
    node.node.start();
  }

  /** Builds one incarnation of a node over its storage; each incarnation has its own clock, link and streams. */
  private async startIncarnation(
    slot: Omit<SimNodeSlot, 'current' | 'clock' | 'link'>,
  ): Promise<{ node: SimNode; clock: SimClock; link: SimL1Link }> {
    const { options, scheduler, trace, l1, blobStores, snapshots, network, haSigningDatabase, monitor, coverage, io } =
      this.context;
    const label = slot.incarnation === 0 ? slot.name : `${slot.name}#${slot.incarnation}`;
    const prng = this.context.prng.fork(label);
    const clock = createNodeClock(scheduler, { owner: label, skewMs: slot.skewMs });
    const link = l1.connect(label);
    const logger = createSimLogger({
      trace,
      bindings: { node: label },
      ...(io.print ? { print: io.print, now: () => scheduler.now() } : {}),
    });
    const publisher = slot.publisher
      ? link.createPublisher(slot.publisher, logger.child({ component: 'l1Publisher' }))
      : undefined;
    const proofPublisher = slot.proofPublisher
      ? link.createPublisher(slot.proofPublisher, logger.child({ component: 'l1ProofPublisher' }))
      : undefined;
    /** The node, once built: its snapshot port reads its checkpointed tip for the checkers. */
    const built: { node?: RollupNode } = {};
    const ports: NodePorts = {
      clock,
      randomness: createSimRandomness(prng.fork('randomness')),
      logger,
      storage: slot.storage,
      l1: link.reader,
      blobs: blobStores.portsFor(label, link),
      snapshots: snapshots.portFor(label, clock, slot.storage, {
        checkpointedTip: () => {
          const tips = built.node?.chain.tips.checkpointed;
          return tips === undefined ? 'none' : `${tips.checkpoint.number}@${tips.block.number}`;
        },
      }),
      ...(publisher ? { l1Publisher: publisher } : {}),
      ...(proofPublisher ? { l1ProofPublisher: proofPublisher } : {}),
      ...(network ? { network: network.connect(label, clock) } : {}),
      ...(network && slot.validatorKeys.length > 0
        ? { keystore: simKeystore(slot.validatorKeys, publisher?.publisherAddress) }
        : {}),
      // One HA node id per node, kept across its restarts (a restarted node may retry what it claimed before).
      ...(haSigningDatabase ? { signingGuard: haSigningDatabase.guardFor(slot.name) } : {}),
    };
    // The validator settings are the run's (its keystores come through the ports), also after an upgrade's restart.
    const validatorSettings: Pick<NodeConfig, 'validatorSet' | 'validator'> = {
      validatorSet: network ? 'enforced' : 'ignored',
      ...(network && slot.validatorKeys.length > 0
        ? {
            validator: {
              limits: options.validatorLimits ?? {},
              publishers: publisher ? [publisher.publisherAddress] : [],
            },
          }
        : {}),
    };
    const config = slot.config
      ? { ...slot.config, ...validatorSettings }
      : initialConfig(options, publisher?.publisherAddress, proofPublisher !== undefined, validatorSettings);
    const node = await createNode(ports, config, { nodeVersion: SIM_NODE_VERSION });
    built.node = node;
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
  }
}

/** A node's configuration from the run's options, until an upgrade gives it another. */
function initialConfig(
  options: SimOptions,
  publisherAddress: Hex | undefined,
  proves: boolean,
  validatorSettings: Pick<NodeConfig, 'validatorSet' | 'validator'>,
): NodeConfig {
  return {
    rollupAddress: ROLLUP_ADDRESS,
    archiverPollIntervalMs: options.archiverPollIntervalMs,
    ...(options.txPoolCapacity !== undefined
      ? { txPool: { ...TX_POOL_SETTINGS_DEFAULT, capacity: options.txPoolCapacity } }
      : {}),
    ...(publisherAddress
      ? {
          sequencer: {
            blockDurationMs: options.blockDurationMs,
            l1PublishingTimeAllowanceInSlotSeconds: options.publishingAllowanceSeconds,
            pollIntervalMs: options.sequencerPollIntervalMs,
            coinbase: publisherAddress,
            feeRecipient: bytesToHex(bigintToBytes(0n, 32)),
          },
        }
      : {}),
    ...(proves ? { prover: { pollIntervalMs: options.archiverPollIntervalMs } } : {}),
    ...validatorSettings,
  };
}

/** The run's node names in start order: the sequencer, its standby, the followers, the prover. */
function clusterNodeNames(options: SimOptions): string[] {
  return [
    SEQUENCER_NAME,
    ...(options.redundantSequencer ? [REDUNDANT_SEQUENCER_NAME] : []),
    ...Array.from({ length: options.followerCount }, (_, i) => `follower-${i + 1}`),
    ...(options.proverNode ? [PROVER_NAME] : []),
  ];
}

function publisherAddress(prng: Prng): Hex {
  return bytesToHex(prng.bytes(20));
}

/** Records a chain activity in the trace in a compact, canonical form. */
function traceActivity(
  record: (kind: string, fields: Record<string, unknown>) => void,
  name: string,
  a: NodeActivity,
): void {
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
      record('chain.blocksAdded', {
        node: name,
        blocks: e.blocks.map((b) => [b.header.globalVariables.blockNumber, b.hash]),
      });
      break;
    case 'chainCheckpointed':
      record('chain.checkpointed', {
        node: name,
        checkpoint: e.checkpoint.number,
        block: e.block.number,
        hash: e.block.hash,
      });
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

/** The sequencer by name; a follower proposes when the run says followers do and it holds validator keys. */
function roleOf(
  name: string,
  validatorKeys: readonly DevValidator[],
  options: Pick<SimOptions, 'followersPropose'>,
): SimNodeRole {
  if (name === SEQUENCER_NAME || name === REDUNDANT_SEQUENCER_NAME) return 'sequencer';
  return options.followersPropose === true && name.startsWith('follower-') && validatorKeys.length > 0
    ? 'proposer'
    : 'follower';
}

/**
 * Which validators (indexes in registration order) node `name` runs: the sequencer's share first, the rest to the
 * followers in turn; the prover node runs none. The swarm reads the same split to choose partition-tolerant layouts.
 */
export function validatorIndexesOf(
  name: string,
  names: readonly string[],
  validatorCount: number,
  onSequencer = validatorCount,
): number[] {
  const all = Array.from({ length: validatorCount }, (_, i) => i);
  if (name === SEQUENCER_NAME || name === REDUNDANT_SEQUENCER_NAME) return all.slice(0, onSequencer);
  const followers = names.filter((n) => n.startsWith('follower-'));
  const position = followers.indexOf(name);
  if (position < 0) return [];
  return all.slice(onSequencer).filter((_, i) => i % followers.length === position);
}

function validatorKeysOf(
  name: string,
  names: readonly string[],
  validators: readonly DevValidator[],
  onSequencer?: number,
): DevValidator[] {
  return validatorIndexesOf(name, names, validators.length, onSequencer).map((i) => validators[i]!);
}

/**
 * A node's keystore: its validators, each credited as its own coinbase (so a checkpoint names its proposer),
 * publishing from the sequencer's account (followers: the attester fallback).
 */
function simKeystore(validators: readonly DevValidator[], publisher: Hex | undefined): KeystoreSourcePort {
  const contents = devKeystoreFile(validators, {
    feeRecipient: bytesToHex(bigintToBytes(0n, 32)),
    ...(publisher ? { publisher } : {}),
  });
  return { location: 'sim:keystore', read: async () => contents.slice() };
}

/** The chain's tips machine: the chain keeps its actor private, so the simulator reads the field to observe it. */
function chainTipsActorOf(node: RollupNode): AnyActorRef | undefined {
  return (node.chain as unknown as { readonly tipsActor?: AnyActorRef }).tipsActor;
}
