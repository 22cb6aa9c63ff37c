/**
 * Swarm testing (Groce et al., as TigerBeetle's simulator does it): each seed switches whole fault classes on or
 * off and draws their knobs, so that a campaign covers runs with a few faults hammered hard as well as runs with a
 * bit of everything. A fault class here is a step kind of the vocabulary (faults.ts).
 *
 * Besides the fault classes, a seed switches on whole parts of the network: a prover with short epochs (so that
 * blocks are proven and finalized), and validators. With validators, the L1 set holds dev validators spread over the
 * sequencer and three followers (one or two keys each), every follower with keys runs a sequencer of its own (so
 * each slot's proposer can propose), every node enforces the validator set, and gossip crosses a simulated network
 * with the seed's latency and loss. Only then is `network.partition` a fault class the seed may draw: without a
 * gossip network a partition cuts nothing. The layouts are chosen so that cutting any one node off leaves the others
 * the committee's quorum (`survivesOneIsolated`): a partition stalls only the isolated node's own slots.
 *
 * `drawSwarmOptions(seed)` is what `npm run sim -- --seed` and the campaign run: the network drawn by `drawOptions`,
 * the swarm, the schedule it implies (schedule.ts), and the small pool a pool-overflow workload needs. The new parts
 * draw from streams of their own, so a seed without validators draws exactly what it drew before they existed.
 */
import { assert } from '../core/assert.js';
import { quorumSize } from '../core/validators/committee.js';
import { createPrng, type Prng } from './prng.js';
import { drawOptions, SIM_SECONDS_DEFAULT, validatorIndexesOf, type SimOptions } from './runSimulation.js';
import { SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT } from './simL1.js';
import {
  SIM_CLOCK_SKEW_MS_MAX,
  SIM_FEE_SPIKE_FACTOR_MAX,
  SIM_FAULT_DURATION_MS_MAX,
  SIM_REORG_DEPTH_MAX,
  SIM_ROLLBACK_BLOCKS_BACK_MAX,
  SIM_RPC_FAILURE_PERCENT_MAX,
  SIM_STALE_RPC_LAG_BLOCKS_MAX,
  SIM_STEP_KINDS,
  type SimStepKind,
  type SimStepLimits,
} from './faults.js';
import { drawSchedule, scheduleNodeNames } from './schedule.js';

export interface SimSwarm {
  /** The step kinds this seed applies; the others never happen in its run. */
  readonly kinds: readonly SimStepKind[];
  /** Steps per simulated minute of the safety phase (over all enabled kinds). */
  readonly stepsPerMinute: number;
  /** How hard each enabled kind hits (the node names come from the options). */
  readonly limits: Omit<SimStepLimits, 'nodeNames'>;
  /** The pool capacity of every node when the pool-overflow workload (`tx.burst`) is on. */
  readonly txPoolCapacity: number | undefined;
  /** When on: a prover node, short epochs and a short L1 finality lag, so that blocks are proven and finalized. */
  readonly proving: SimSwarmProving | undefined;
  /** When on: validators over several proposing nodes and a gossip network (see the module comment). */
  readonly validators: SimSwarmValidators | undefined;
}

/** The validator part of a swarm: what `drawSwarmOptions` puts into the run's options. */
export interface SimSwarmValidators {
  /** Followers of the run (the sequencer and each of them hold keys). */
  readonly followerCount: number;
  /** Validators registered on L1 at deployment; the committee is all of them (fewer than COMMITTEE_SIZE). */
  readonly validatorCount: number;
  /** Keys the sequencer holds; the followers hold the rest in turn (runSimulation's `validatorIndexesOf`). */
  readonly validatorKeysOnSequencer: number;
  /** Gossip delivery latency range and loss per delivery. */
  readonly network: {
    readonly latencyMs: { readonly min: number; readonly max: number };
    readonly lossProbability: number;
  };
}

export interface SimSwarmProving {
  readonly epochDurationSlots: number;
  readonly proofSubmissionEpochs: number;
  readonly l1FinalityLagBlocks: number;
}

/** Chance that a seed runs a prover with short epochs (finality then moves within a run). */
const PROVING_ON_PROBABILITY = 0.5;
/** Chance that a seed runs validators over a gossip network (and may draw network partitions). */
const VALIDATORS_ON_PROBABILITY = 0.4;
/** Followers of a run with validators: with the sequencer, four nodes hold keys, so one cut off leaves a quorum. */
export const SWARM_VALIDATOR_FOLLOWER_COUNT = 3;
/**
 * Key layouts a run with validators draws from, as (validators, keys on the sequencer) over the sequencer and
 * SWARM_VALIDATOR_FOLLOWER_COUNT followers: 1/1/1/1, 1/2/2/2, 2/2/2/1 and 2/2/2/2 keys. Each survives one node cut
 * off (a layout such as 2/2/1/1, 6 keys with a quorum of 5, does not).
 */
export const SWARM_VALIDATOR_LAYOUTS = [
  { validatorCount: 4, validatorKeysOnSequencer: 1 },
  { validatorCount: 7, validatorKeysOnSequencer: 1 },
  { validatorCount: 7, validatorKeysOnSequencer: 2 },
  { validatorCount: 8, validatorKeysOnSequencer: 2 },
] as const;
/** Gossip latency bounds (ms) and per-delivery loss a run with validators draws from. */
const SWARM_GOSSIP_LATENCY_MIN_MS = [5, 20, 50] as const;
const SWARM_GOSSIP_LATENCY_MAX_MS = [200, 500, 1_000] as const;
const SWARM_GOSSIP_LOSS_PROBABILITIES = [0, 0.01, 0.03] as const;
/** Chance that a seed enables a fault class, and a workload class (txs are the common case). */
const FAULT_CLASS_ON_PROBABILITY = 0.5;
const WORKLOAD_CLASS_ON_PROBABILITY = 0.75;
/** Range of the step rate a seed draws, in steps per simulated minute. */
export const SWARM_STEPS_PER_MINUTE_MIN = 2;
export const SWARM_STEPS_PER_MINUTE_MAX = 24;
/** Range of the small pool capacity an overflow workload gets, in txs. */
export const SWARM_TX_POOL_CAPACITY_MIN = 2;
export const SWARM_TX_POOL_CAPACITY_MAX = 8;

/**
 * Fault classes a swarm draws after every other draw of a seed (with their knobs), so that adding them left the
 * earlier draws of every seed as they were.
 */
export const SWARM_LATE_STEP_KINDS: readonly SimStepKind[] = [
  'l1.feeSpike',
  'admin.overlap',
  'blobs.lost',
  'blobs.delayed',
  'blobs.corrupted',
  'admin.snapshotUpload',
];
/** Fee-spike factors a seed may cap its spikes at: mild (some first attempts still land), strong, the widest. */
const SWARM_FEE_SPIKE_FACTORS_MAX = [3, 8, SIM_FEE_SPIKE_FACTOR_MAX] as const;

/**
 * The step kinds a swarm switches on or off first: all but the late ones and the network partition, which a seed may
 * draw only when it runs validators (drawn from the validators' stream, so that seeds without them draw as they did
 * before).
 */
export const SWARM_STEP_KINDS = SIM_STEP_KINDS.filter(
  (kind) => kind !== 'network.partition' && !SWARM_LATE_STEP_KINDS.includes(kind),
);

/** Every class on, every knob at its widest: what a property over schedules explores. */
export function fullSwarm(): SimSwarm {
  return {
    kinds: [...SWARM_STEP_KINDS, ...SWARM_LATE_STEP_KINDS],
    stepsPerMinute: SWARM_STEPS_PER_MINUTE_MAX,
    limits: {
      reorgDepthMax: SIM_REORG_DEPTH_MAX,
      durationMsMax: SIM_FAULT_DURATION_MS_MAX,
      rpcFailurePercentMax: SIM_RPC_FAILURE_PERCENT_MAX,
      staleLagBlocksMax: SIM_STALE_RPC_LAG_BLOCKS_MAX,
      clockSkewMsMax: SIM_CLOCK_SKEW_MS_MAX,
      rollbackBlocksBackMax: SIM_ROLLBACK_BLOCKS_BACK_MAX,
      feeSpikeFactorMax: SIM_FEE_SPIKE_FACTOR_MAX,
    },
    txPoolCapacity: SWARM_TX_POOL_CAPACITY_MAX,
    proving: undefined,
    validators: undefined,
  };
}

function drawProving(prng: Prng): SimSwarmProving | undefined {
  const on = prng.bool(PROVING_ON_PROBABILITY);
  const proving = {
    epochDurationSlots: prng.pick([2, 4, 8]),
    proofSubmissionEpochs: prng.int(1, 2),
    l1FinalityLagBlocks: prng.pick([2, 4, 8]),
  };
  return on ? proving : undefined;
}

/**
 * The keys each node of a run holds, in node order (sequencer, followers, prover), as runSimulation splits them.
 */
export function validatorKeyCounts(
  options: Pick<SimOptions, 'followerCount' | 'proverNode' | 'validatorCount' | 'validatorKeysOnSequencer'>,
): number[] {
  const names = scheduleNodeNames(options);
  return names.map(
    (name) => validatorIndexesOf(name, names, options.validatorCount ?? 0, options.validatorKeysOnSequencer).length,
  );
}

/** Whether the nodes other than any one of them still hold the committee's quorum (the whole set is the committee). */
export function survivesOneIsolated(keyCounts: readonly number[]): boolean {
  const total = keyCounts.reduce((sum, k) => sum + k, 0);
  return keyCounts.every((k) => total - k >= quorumSize(total));
}

/** Validators on or off, their layout and the gossip network, from the swarm's own `validators` stream. */
function drawValidators(prng: Prng): {
  readonly validators: SimSwarmValidators | undefined;
  readonly partitions: boolean;
} {
  const on = prng.bool(VALIDATORS_ON_PROBABILITY);
  const layout = prng.pick(SWARM_VALIDATOR_LAYOUTS);
  const latencyMs = { min: prng.pick(SWARM_GOSSIP_LATENCY_MIN_MS), max: prng.pick(SWARM_GOSSIP_LATENCY_MAX_MS) };
  const lossProbability = prng.pick(SWARM_GOSSIP_LOSS_PROBABILITIES);
  const partitions = prng.bool(FAULT_CLASS_ON_PROBABILITY);
  if (!on) return { validators: undefined, partitions: false };
  const validators = {
    followerCount: SWARM_VALIDATOR_FOLLOWER_COUNT,
    ...layout,
    network: { latencyMs, lossProbability },
  };
  assert(
    survivesOneIsolated(validatorKeyCounts(validators)),
    `validator layout ${JSON.stringify(layout)} stalls when one node is cut off`,
  );
  return { validators, partitions };
}

/** Switches each class on or off and draws the knobs, from the seed's `swarm` stream. */
export function drawSwarm(prng: Prng): SimSwarm {
  const proving = drawProving(prng);
  const { validators, partitions } = drawValidators(prng.fork('validators'));
  const l1FinalityLagBlocks = proving?.l1FinalityLagBlocks ?? SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT;
  const drawn: readonly SimStepKind[] = SWARM_STEP_KINDS.filter((kind) =>
    prng.bool(kind.startsWith('tx.') ? WORKLOAD_CLASS_ON_PROBABILITY : FAULT_CLASS_ON_PROBABILITY),
  );
  const kinds = SIM_STEP_KINDS.filter((kind) => drawn.includes(kind) || (kind === 'network.partition' && partitions));
  // A reorg never reaches L1's finalized blocks: that is not a fault the protocol survives, nor one it must.
  const reorgDepthMax = Math.max(1, Math.min(SIM_REORG_DEPTH_MAX, l1FinalityLagBlocks - 1));
  const limits = {
    reorgDepthMax: prng.int(1, reorgDepthMax),
    durationMsMax: prng.pick([5_000, 20_000, 60_000, SIM_FAULT_DURATION_MS_MAX]),
    rpcFailurePercentMax: prng.pick([10, 30, SIM_RPC_FAILURE_PERCENT_MAX]),
    staleLagBlocksMax: prng.int(1, SIM_STALE_RPC_LAG_BLOCKS_MAX),
    clockSkewMsMax: prng.pick([250, 1_000, SIM_CLOCK_SKEW_MS_MAX]),
    rollbackBlocksBackMax: prng.int(0, SIM_ROLLBACK_BLOCKS_BACK_MAX),
  };
  const stepsPerMinute = prng.int(SWARM_STEPS_PER_MINUTE_MIN, SWARM_STEPS_PER_MINUTE_MAX);
  const txPoolCapacity = prng.int(SWARM_TX_POOL_CAPACITY_MIN, SWARM_TX_POOL_CAPACITY_MAX);
  const late = drawLateClasses(prng);
  return {
    kinds: [...kinds, ...late.kinds],
    stepsPerMinute,
    limits: { ...limits, ...late.limits },
    txPoolCapacity: kinds.includes('tx.burst') ? txPoolCapacity : undefined,
    proving,
    validators,
  };
}

/** The late fault classes (SWARM_LATE_STEP_KINDS) and their knobs, drawn after all else. */
function drawLateClasses(prng: Prng): { kinds: SimStepKind[]; limits: Pick<SimStepLimits, 'feeSpikeFactorMax'> } {
  // In the order the classes were added, each after the draws before it, so that adding one left earlier draws be.
  const feeSpikes = prng.bool(FAULT_CLASS_ON_PROBABILITY);
  const feeSpikeFactorMax = prng.pick(SWARM_FEE_SPIKE_FACTORS_MAX);
  const adminOverlaps = prng.bool(FAULT_CLASS_ON_PROBABILITY);
  const blobFaults = (['blobs.lost', 'blobs.delayed', 'blobs.corrupted'] as const).filter(() =>
    prng.bool(FAULT_CLASS_ON_PROBABILITY),
  );
  const snapshotUploads = prng.bool(FAULT_CLASS_ON_PROBABILITY);
  const kinds: SimStepKind[] = [
    ...(feeSpikes ? ['l1.feeSpike' as const] : []),
    ...(adminOverlaps ? ['admin.overlap' as const] : []),
    ...blobFaults,
    ...(snapshotUploads ? ['admin.snapshotUpload' as const] : []),
  ];
  return { kinds, limits: { feeSpikeFactorMax } };
}

/** The run options a swarm's validator part sets: keys over proposing nodes, the set enforced, gossip. */
export function validatorOptions(validators: SimSwarmValidators | undefined): Partial<SimOptions> {
  if (validators === undefined) return {};
  const { followerCount, validatorCount, validatorKeysOnSequencer, network } = validators;
  return { followerCount, validatorCount, validatorKeysOnSequencer, followersPropose: true, network };
}

/** The options of a seed's run with faults: the network, the swarm, and the schedule drawn from them. */
export function drawSwarmOptions(seed: bigint, simulatedSeconds = SIM_SECONDS_DEFAULT): SimOptions {
  assert(
    Number.isSafeInteger(simulatedSeconds) && simulatedSeconds > 0,
    `simulated seconds ${simulatedSeconds} must be a positive integer`,
  );
  const root = createPrng(seed);
  const swarm = drawSwarm(root.fork('swarm'));
  const network: SimOptions = {
    ...drawOptions(seed, simulatedSeconds),
    ...(swarm.proving !== undefined ? { proverNode: true, ...swarm.proving } : {}),
    ...validatorOptions(swarm.validators),
  };
  const schedule = drawSchedule(root.fork('schedule'), swarm, network);
  return {
    ...network,
    swarm,
    schedule,
    ...(swarm.txPoolCapacity !== undefined ? { txPoolCapacity: swarm.txPoolCapacity } : {}),
  };
}
