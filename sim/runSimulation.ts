import type { Hex } from '../spec/chain.js';
import { bigintToBytes, bytesToHex } from '../spec/codec/bytes.js';
import { L1_CHAIN_ID_LOCAL_NETWORK, L1_SLOT_DURATION_SECONDS } from '../spec/constants.js';
import { tipsOrdered } from '../core/chain/tips.js';
import { createNode, type NodeActivity, type RollupNode } from '../core/node/node.js';
import type { NodePorts, StoragePort } from '../core/ports.js';
import { createGenesis } from '../core/worldState/genesis.js';
import { createPrng, createSimRandomness, type Prng } from './prng.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createNodeClock, type SimClock } from './simClock.js';
import { createSimL1, type SimL1, type SimL1InclusionDelay } from './simL1.js';
import { createSimLogger } from './simLogger.js';
import { crashAndRecover, createSimStorage } from './simStorage.js';
import { createTrace } from './trace.js';

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
  /** How far L1's finalized block trails its head (default SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT). */
  readonly l1FinalityLagBlocks?: number;
}

export const SIM_SECONDS_DEFAULT = 600;
const ROLLUP_VERSION = 1;
/** The simulated rollup contract's address (the simulated L1 has one contract, so any fixed value works). */
const ROLLUP_ADDRESS: Hex = `0x${'00'.repeat(19)}01`;

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

/** Checker failures, each with its own exit code (see sim/main.ts). */
export type SimFailure =
  | { readonly kind: 'tipsOutOfOrder'; readonly node: string; readonly detail: string }
  | { readonly kind: 'nodesDiverged'; readonly node: string; readonly detail: string }
  | { readonly kind: 'noProgress'; readonly detail: string }
  | { readonly kind: 'crashed'; readonly detail: string };

export interface SimNodeSummary {
  readonly name: string;
  readonly role: 'sequencer' | 'follower';
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
}

interface SimNode {
  readonly name: string;
  readonly role: 'sequencer' | 'follower';
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
export interface SimWorld {
  readonly scheduler: Scheduler;
  readonly l1: SimL1;
  /** Runs `action` when the simulated clock reaches `offsetMs` after the start, outside any event. */
  at(offsetMs: number, action: () => Promise<void> | void): void;
  /** Crashes a node (its timers die, its unfinished storage batch is lost) and starts it again on what it stored. */
  crashAndRestart(name: string): Promise<void>;
  /** The current incarnation of a node (for admin actions and queries from a scenario). */
  node(name: string): RollupNode;
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
  readonly role: 'sequencer' | 'follower';
  readonly publisher: Hex | undefined;
  /** The L1 account this node submits epoch proofs from; set on the prover node. */
  readonly proofPublisher?: Hex;
  incarnation: number;
  current: SimNode;
  storage: StoragePort;
  clock: SimClock;
}

/** Runs one seeded simulation: a sequencer and its followers over one simulated L1, for a fixed simulated time. */
export async function runSimulation(options: SimOptions, io: SimHooks = {}): Promise<SimResult> {
  const root = createPrng(options.seed);
  const scheduler = createScheduler();
  const startMs = scheduler.now();
  const trace = createTrace({ now: () => scheduler.now(), keepLast: 0 });
  const genesis = createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION);
  const l1 = createSimL1({
    scheduler,
    prng: root.fork('l1'),
    genesisArchiveRoot: genesis.block.archive.root,
    slotDuration: options.slotDurationSeconds,
    rollupVersion: ROLLUP_VERSION,
    l1ChainId: L1_CHAIN_ID_LOCAL_NETWORK,
    l1StartBlock: 1n,
    inclusionDelay: options.inclusionDelay,
    ...(options.epochDurationSlots !== undefined ? { epochDuration: options.epochDurationSlots } : {}),
    ...(options.proofSubmissionEpochs !== undefined ? { proofSubmissionEpochs: options.proofSubmissionEpochs } : {}),
    ...(options.l1FinalityLagBlocks !== undefined ? { finalityLagBlocks: options.l1FinalityLagBlocks } : {}),
    trace,
  });
  const nodesPrng = root.fork('nodes');
  const failures: SimFailure[] = [];

  /** Builds one incarnation of a node over its storage; each incarnation has its own clock, link and streams. */
  const startIncarnation = async (slot: Omit<SimNodeSlot, 'current' | 'clock'>): Promise<{ node: SimNode; clock: SimClock }> => {
    const label = slot.incarnation === 0 ? slot.name : `${slot.name}#${slot.incarnation}`;
    const prng = nodesPrng.fork(label);
    const clock = createNodeClock(scheduler, { owner: label });
    const link = l1.connect(label);
    const publisher = slot.publisher ? link.createPublisher(slot.publisher) : undefined;
    const proofPublisher = slot.proofPublisher ? link.createPublisher(slot.proofPublisher) : undefined;
    const ports: NodePorts = {
      clock,
      randomness: createSimRandomness(prng.fork('randomness')),
      logger: createSimLogger({ trace, bindings: { node: label }, ...(io.print ? { print: io.print, now: () => scheduler.now() } : {}) }),
      storage: slot.storage,
      l1: link.reader,
      ...(publisher ? { l1Publisher: publisher } : {}),
      ...(proofPublisher ? { l1ProofPublisher: proofPublisher } : {}),
    };
    const node = await createNode(ports, {
      rollupAddress: ROLLUP_ADDRESS,
      archiverPollIntervalMs: options.archiverPollIntervalMs,
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
    });
    node.onActivity((activity) => {
      if (clock.isHalted()) return;
      traceActivity((kind, fields) => trace.record(kind, fields), label, activity);
      io.onActivity?.(slot.name, activity);
      const tips = node.chain.tips;
      if (!tipsOrdered(tips)) failures.push({ kind: 'tipsOutOfOrder', node: label, detail: JSON.stringify(tips) });
    });
    return { node: { name: slot.name, role: slot.role, node }, clock };
  };

  const slots: SimNodeSlot[] = [];
  const names = ['sequencer-0', ...Array.from({ length: options.followerCount }, (_, i) => `follower-${i + 1}`), ...(options.proverNode ? ['prover-1'] : [])];
  for (const name of names) {
    const role = name.startsWith('sequencer') ? 'sequencer' : 'follower';
    const publisher = role === 'sequencer' ? publisherAddress(nodesPrng.fork(`${name}/publisher`)) : undefined;
    const proofPublisher = name.startsWith('prover') ? publisherAddress(nodesPrng.fork(`${name}/proofPublisher`)) : undefined;
    const base = { name, role, publisher, ...(proofPublisher ? { proofPublisher } : {}), incarnation: 0, storage: createSimStorage() } as const;
    const { node, clock } = await startIncarnation(base);
    slots.push({ ...base, current: node, clock });
  }

  const interventions: { atMs: number; seq: number; action: () => Promise<void> | void }[] = [];
  const world: SimWorld = {
    scheduler,
    l1,
    at: (offsetMs, action) => interventions.push({ atMs: startMs + offsetMs, seq: interventions.length, action }),
    node(name) {
      const slot = slots.find((s) => s.name === name);
      if (!slot) throw new Error(`no node named ${name}`);
      return slot.current.node;
    },
    async crashAndRestart(name) {
      const slot = slots.find((s) => s.name === name);
      if (!slot) throw new Error(`no node named ${name}`);
      slot.clock.halt();
      trace.record('node.crashed', { node: name, incarnation: slot.incarnation });
      slot.storage = await crashAndRecover(slot.storage);
      slot.incarnation++;
      const { node, clock } = await startIncarnation(slot);
      slot.current = node;
      slot.clock = clock;
      node.node.start();
      trace.record('node.restarted', { node: name, incarnation: slot.incarnation });
    },
  };
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
    failures.push({ kind: 'crashed', detail: error instanceof Error ? `${error.message}` : String(error) });
  }
  const nodes = slots.map((s) => s.current);
  for (const { node } of nodes) await node.stop();
  failures.push(...(await checkAgreement(nodes)));
  failures.push(...checkProgress(options, l1.checkpointCount()));
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
  };
}

/** Safety: every pair of nodes holds the same block hash at every checkpointed height both have. */
async function checkAgreement(nodes: readonly SimNode[]): Promise<SimFailure[]> {
  const failures: SimFailure[] = [];
  const reference = nodes[0]!;
  for (const other of nodes.slice(1)) {
    const height = Math.min(reference.node.chain.tips.checkpointed.block.number, other.node.chain.tips.checkpointed.block.number);
    for (let n = 0; n <= height; n++) {
      const [a, b] = await Promise.all([reference.node.chain.store.getBlock(n), other.node.chain.store.getBlock(n)]);
      if (a?.hash !== b?.hash) {
        failures.push({ kind: 'nodesDiverged', node: other.name, detail: `block ${n}: ${reference.name} has ${a?.hash}, ${other.name} has ${b?.hash}` });
        break;
      }
    }
  }
  return failures;
}

/** Liveness: with no faults that stop it, a run of several slots gets checkpoints onto L1. */
function checkProgress(options: SimOptions, l1Checkpoints: number): SimFailure[] {
  const slots = Math.floor(options.simulatedSeconds / options.slotDurationSeconds);
  const expectProgress = slots >= 4 && options.inclusionDelay.probability < 0.5;
  if (expectProgress && l1Checkpoints === 0) {
    return [{ kind: 'noProgress', detail: `no checkpoint reached L1 in ${slots} slots of ${options.slotDurationSeconds} s (L1 blocks every ${L1_SLOT_DURATION_SECONDS} s)` }];
  }
  return [];
}
