/**
 * The simulator's fault vocabulary, as data: every fault and workload step a run can apply, scripted by a test,
 * drawn from a seed (swarm.ts), generated and shrunk by fast-check (schedule.ts), or read from a replay file
 * (replayFile.ts). A step is a plain JSON object: a time, a kind, and the kind's fields. Each field has a range
 * (`stepFieldRanges`), which every producer draws from and `parseStep` checks, so that one table says what a valid
 * step is. faultInjector.ts applies steps to a running world.
 *
 * `node.upgrade` is the 3.x-to-4.x upgrade (sim/upgrade.ts): a clean stop, the node's configuration written with the
 * `retired`-th 3.x name of RETIRED_CONFIG_NAMES (refused), then with 4.x names (a restart on the same data).
 *
 * `l1.feeSpike` multiplies L1's base fee and blob base fee by `factor` (sim/simL1.ts): a transaction priced before
 * the spike waits in the mempool, holding its account's later nonces, until its replacement or the spike's end.
 *
 * `blobs.lost`, `blobs.delayed` and `blobs.corrupted` act on the blob sources (sim/simBlobStores.ts): a node's consensus
 * client without blobs, blobs reaching every consensus client late, the team's file store serving wrong bytes. A node
 * then finds its blobs further down its source chain (core/blobs/blobSourceChain.ts). A node restarted during
 * `blobs.lost` comes back with a consensus client that has them.
 *
 * `admin.overlap` issues a second admin call on a node before the first has settled, as two operators (or a retrying
 * script) might: when the first left an operation in progress, the node must refuse the second.
 *
 * `admin.snapshotUpload` has a node upload a snapshot to the team's simulated store (sim/simSnapshots.ts) and checks
 * the state table's rules: the call answers at once with the node in `UploadingSnapshot`, a second upload meanwhile is
 * refused, no checkpoint is synced while it runs, the index lists it whole, and the node returns to the state it left.
 *
 * Faults with a duration heal on their own after it; the liveness phase heals whatever is still active. A network
 * partition cuts one node's validator gossip (sim/simNetwork.ts) off from the others; blocks still come from L1, so
 * it matters only in runs with validators, and it is skipped in runs without a gossip network. A swarm draws it as a
 * fault class only for the seeds it runs with validators (swarm.ts).
 */
import { assert } from '../core/assert.js';
import { RETIRED_CONFIG_NAMES } from '../spec/config/retiredNames.js';
import { GENESIS_TEST_ACCOUNT_COUNT } from '../spec/genesis.js';

/** Every step kind; a swarm switches each on or off as a whole (a fault class). */
export const SIM_STEP_KINDS = [
  'l1.reorg',
  'l1.finalityStall',
  'l1.flakyRpc',
  'l1.staleRpc',
  'l1.missingBlobs',
  'node.crash',
  'node.pause',
  'node.clockSkew',
  'admin.rollback',
  'admin.pauseSync',
  'admin.pauseSequencer',
  'network.partition',
  'tx.send',
  'tx.replace',
  'tx.burst',
  'tx.drain',
  'node.upgrade',
  'l1.feeSpike',
  'admin.overlap',
  'blobs.lost',
  'blobs.delayed',
  'blobs.corrupted',
  'admin.snapshotUpload',
] as const;

export type SimStepKind = (typeof SIM_STEP_KINDS)[number];

/** How a replacement prices itself against the pool's bump rule: one below the least accepted fee, the least, or well above. */
export const SIM_REPLACEMENT_BUMPS = ['under', 'exact', 'over'] as const;
export type SimReplacementBump = (typeof SIM_REPLACEMENT_BUMPS)[number];

/** The admin calls an `admin.overlap` step issues (a rollback goes `blocksBack` blocks back, unforced). */
export const SIM_OVERLAP_ADMIN_CALLS = ['pauseSync', 'resumeSync', 'rollback'] as const;
export type SimOverlapAdminCall = (typeof SIM_OVERLAP_ADMIN_CALLS)[number];

interface At {
  /** Simulated ms after the run's start. */
  readonly atMs: number;
}

export type SimStep = At &
  (
    | { readonly kind: 'l1.reorg'; readonly depth: number }
    | { readonly kind: 'l1.finalityStall'; readonly durationMs: number }
    | {
        readonly kind: 'l1.flakyRpc';
        readonly node: string;
        readonly failurePercent: number;
        readonly durationMs: number;
      }
    | { readonly kind: 'l1.staleRpc'; readonly node: string; readonly lagBlocks: number; readonly durationMs: number }
    | { readonly kind: 'l1.missingBlobs'; readonly durationMs: number }
    /** L1's base fee and blob base fee jump to `factor` times their normal level, until the spike ends. */
    | { readonly kind: 'l1.feeSpike'; readonly factor: number; readonly durationMs: number }
    | { readonly kind: 'node.crash'; readonly node: string }
    | { readonly kind: 'node.pause'; readonly node: string; readonly durationMs: number }
    | { readonly kind: 'node.clockSkew'; readonly node: string; readonly skewMs: number; readonly durationMs: number }
    | { readonly kind: 'admin.rollback'; readonly node: string; readonly blocksBack: number; readonly force: boolean }
    | { readonly kind: 'admin.pauseSync'; readonly node: string; readonly durationMs: number }
    | { readonly kind: 'admin.pauseSequencer'; readonly durationMs: number }
    /** Two admin calls on `node` at once: `second` is issued before `first` settles. */
    | {
        readonly kind: 'admin.overlap';
        readonly node: string;
        readonly first: SimOverlapAdminCall;
        readonly second: SimOverlapAdminCall;
        readonly blocksBack: number;
      }
    /** `node` hears no gossip from the others and they none from it, until the partition heals. */
    | { readonly kind: 'network.partition'; readonly node: string; readonly durationMs: number }
    /** `payer` indexes the genesis test accounts; the last index is an account that was never funded. */
    | { readonly kind: 'tx.send'; readonly payer: number; readonly nullifier: number; readonly priorityFee: number }
    /** Re-sends, with the same payer and nullifier, the `target`-th (modulo) of the workload's txs still pooled. */
    | { readonly kind: 'tx.replace'; readonly target: number; readonly bump: SimReplacementBump }
    /** `count` txs at once with fresh nullifiers, to overflow a small pool; `feeSeed` spreads their fees. */
    | { readonly kind: 'tx.burst'; readonly count: number; readonly feeSeed: number }
    /** A tx whose maximum cost is `sharePercent` of the payer's current balance: payers run dry. */
    | { readonly kind: 'tx.drain'; readonly payer: number; readonly sharePercent: number }
    /** `retired` indexes RETIRED_CONFIG_NAMES: the 3.x name the node's old configuration used. */
    | { readonly kind: 'node.upgrade'; readonly node: string; readonly retired: number }
    /** `node`'s consensus client has lost every blob (answers without them) until the fault heals. */
    | { readonly kind: 'blobs.lost'; readonly node: string; readonly durationMs: number }
    /** Consensus clients serve a proposal's blobs only `delayMs` after its L1 block, until the fault heals. */
    | { readonly kind: 'blobs.delayed'; readonly delayMs: number; readonly durationMs: number }
    /** The team's blob file store serves corrupted blobs until the fault heals. */
    | { readonly kind: 'blobs.corrupted'; readonly durationMs: number }
    /** `node` uploads a snapshot of its database to the team's simulated store (sim/simSnapshots.ts). */
    | { readonly kind: 'admin.snapshotUpload'; readonly node: string }
  );

export type SimStepOf<K extends SimStepKind> = Extract<SimStep, { kind: K }>;

/** A schedule: the steps, by time, and when the safety phase ends (every fault is healed then; liveness follows). */
export interface SimSchedule {
  readonly safetyEndMs: number;
  readonly steps: readonly SimStep[];
}

/** Something applied or observed during a run, in the shape the campaign report reads. */
export interface SimEvent {
  /** Simulated ms since the run started. */
  readonly atMs: number;
  readonly kind: string;
  readonly detail: string;
  readonly node?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Limits

/** Deepest L1 reorg a schedule asks for, in L1 blocks (kept below the simulated L1's finality lag). */
export const SIM_REORG_DEPTH_MAX = 4;
/** Shortest and longest duration of a fault that heals on its own. */
export const SIM_FAULT_DURATION_MS_MIN = 1_000;
export const SIM_FAULT_DURATION_MS_MAX = 90_000;
/** Smallest and largest multiple of the normal L1 base fees a fee spike sets (2x is within a first attempt's headroom). */
export const SIM_FEE_SPIKE_FACTOR_MIN = 2;
export const SIM_FEE_SPIKE_FACTOR_MAX = 20;
/** Highest chance, in percent, that a flaky link fails a call. */
export const SIM_RPC_FAILURE_PERCENT_MAX = 80;
/** Most blocks a stale link lags the L1 head. */
export const SIM_STALE_RPC_LAG_BLOCKS_MAX = 8;
/** Largest clock skew, either way, in ms. */
export const SIM_CLOCK_SKEW_MS_MAX = 4_000;
/** Most blocks an admin rollback goes back from the proposed tip. */
export const SIM_ROLLBACK_BLOCKS_BACK_MAX = 8;
/** Payers a tx step may name: the genesis test accounts, then one unfunded account. */
export const SIM_TX_PAYER_COUNT = GENESIS_TEST_ACCOUNT_COUNT + 1;
/** Nullifiers `tx.send` picks from: a small space, so sends conflict on purpose. */
export const SIM_TX_NULLIFIER_SPACE = 16;
/** Highest priority fee per gas of a `tx.send`. */
export const SIM_TX_PRIORITY_FEE_MAX = 40;
/** `tx.replace` targets are taken modulo the pooled txs, so any value up to this is valid. */
export const SIM_TX_REPLACE_TARGET_MAX = 1_000;
/** Most txs one burst sends. */
export const SIM_TX_BURST_COUNT_MAX = 12;
export const SIM_TX_BURST_FEE_SEED_MAX = 1_000;
/** Share of the payer's balance a `tx.drain` may cost at most, in percent. */
export const SIM_TX_DRAIN_SHARE_PERCENT_MIN = 20;
export const SIM_TX_DRAIN_SHARE_PERCENT_MAX = 95;
/** Shortest and longest time after its L1 block a delayed proposal's blobs reach the consensus clients. */
export const SIM_BLOB_DELAY_MS_MIN = 1_000;
export const SIM_BLOB_DELAY_MS_MAX = 12_000;
/** Steps in one schedule. */
export const SIM_SCHEDULE_STEPS_MAX = 2_000;

/** What a step may name and how far it may go in one run (a swarm narrows the defaults per seed). */
export interface SimStepLimits {
  readonly nodeNames: readonly string[];
  readonly reorgDepthMax: number;
  readonly durationMsMax: number;
  readonly rpcFailurePercentMax: number;
  readonly staleLagBlocksMax: number;
  readonly clockSkewMsMax: number;
  readonly rollbackBlocksBackMax: number;
  /** Highest fee-spike factor (at least SIM_FEE_SPIKE_FACTOR_MIN). */
  readonly feeSpikeFactorMax: number;
}

export function defaultStepLimits(nodeNames: readonly string[]): SimStepLimits {
  return {
    nodeNames,
    reorgDepthMax: SIM_REORG_DEPTH_MAX,
    durationMsMax: SIM_FAULT_DURATION_MS_MAX,
    rpcFailurePercentMax: SIM_RPC_FAILURE_PERCENT_MAX,
    staleLagBlocksMax: SIM_STALE_RPC_LAG_BLOCKS_MAX,
    clockSkewMsMax: SIM_CLOCK_SKEW_MS_MAX,
    rollbackBlocksBackMax: SIM_ROLLBACK_BLOCKS_BACK_MAX,
    feeSpikeFactorMax: SIM_FEE_SPIKE_FACTOR_MAX,
  };
}

/** The range of one field: an integer interval (both ends included) or a list of choices (the first is the simplest). */
export type SimFieldRange =
  { readonly int: readonly [min: number, max: number] } | { readonly oneOf: readonly (string | boolean)[] };

export type SimStepFieldRanges = {
  readonly [K in SimStepKind]: { readonly [F in Exclude<keyof SimStepOf<K>, 'atMs' | 'kind'>]: SimFieldRange };
};

/** Every field of every step kind with its range under `limits`. */
export function stepFieldRanges(limits: SimStepLimits): SimStepFieldRanges {
  assert(limits.nodeNames.length > 0, 'a run has at least one node');
  const node = { oneOf: limits.nodeNames };
  const duration = {
    int: [SIM_FAULT_DURATION_MS_MIN, Math.max(SIM_FAULT_DURATION_MS_MIN, limits.durationMsMax)],
  } as const;
  return {
    'l1.reorg': { depth: { int: [1, limits.reorgDepthMax] } },
    'l1.finalityStall': { durationMs: duration },
    'l1.flakyRpc': { node, failurePercent: { int: [1, limits.rpcFailurePercentMax] }, durationMs: duration },
    'l1.staleRpc': { node, lagBlocks: { int: [1, limits.staleLagBlocksMax] }, durationMs: duration },
    'l1.missingBlobs': { durationMs: duration },
    'l1.feeSpike': {
      factor: { int: [SIM_FEE_SPIKE_FACTOR_MIN, Math.max(SIM_FEE_SPIKE_FACTOR_MIN, limits.feeSpikeFactorMax)] },
      durationMs: duration,
    },
    'node.crash': { node },
    'node.pause': { node, durationMs: duration },
    'node.clockSkew': { node, skewMs: { int: [-limits.clockSkewMsMax, limits.clockSkewMsMax] }, durationMs: duration },
    'admin.rollback': { node, blocksBack: { int: [0, limits.rollbackBlocksBackMax] }, force: { oneOf: [false, true] } },
    'admin.pauseSync': { node, durationMs: duration },
    'admin.pauseSequencer': { durationMs: duration },
    'admin.overlap': {
      node,
      first: { oneOf: SIM_OVERLAP_ADMIN_CALLS },
      second: { oneOf: SIM_OVERLAP_ADMIN_CALLS },
      blocksBack: { int: [0, limits.rollbackBlocksBackMax] },
    },
    'network.partition': { node, durationMs: duration },
    'tx.send': {
      payer: { int: [0, SIM_TX_PAYER_COUNT - 1] },
      nullifier: { int: [0, SIM_TX_NULLIFIER_SPACE - 1] },
      priorityFee: { int: [0, SIM_TX_PRIORITY_FEE_MAX] },
    },
    'tx.replace': { target: { int: [0, SIM_TX_REPLACE_TARGET_MAX] }, bump: { oneOf: SIM_REPLACEMENT_BUMPS } },
    'tx.burst': { count: { int: [2, SIM_TX_BURST_COUNT_MAX] }, feeSeed: { int: [0, SIM_TX_BURST_FEE_SEED_MAX] } },
    'tx.drain': {
      payer: { int: [0, GENESIS_TEST_ACCOUNT_COUNT - 1] },
      sharePercent: { int: [SIM_TX_DRAIN_SHARE_PERCENT_MIN, SIM_TX_DRAIN_SHARE_PERCENT_MAX] },
    },
    'node.upgrade': { node, retired: { int: [0, RETIRED_CONFIG_NAMES.length - 1] } },
    'blobs.lost': { node, durationMs: duration },
    'blobs.delayed': { delayMs: { int: [SIM_BLOB_DELAY_MS_MIN, SIM_BLOB_DELAY_MS_MAX] }, durationMs: duration },
    'blobs.corrupted': { durationMs: duration },
    'admin.snapshotUpload': { node },
  };
}

/** A step from a kind, a time and field values a producer drew within `stepFieldRanges` (checked). */
export function makeStep(
  kind: SimStepKind,
  atMs: number,
  fields: Readonly<Record<string, unknown>>,
  ranges: SimStepFieldRanges,
): SimStep {
  return parseStep({ atMs, kind, ...fields }, ranges);
}

export function isStepKind(value: unknown): value is SimStepKind {
  return typeof value === 'string' && (SIM_STEP_KINDS as readonly string[]).includes(value);
}

function fieldProblem(name: string, value: unknown, range: SimFieldRange): string | undefined {
  if ('int' in range) {
    const [min, max] = range.int;
    return Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
      ? undefined
      : `${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(value)}`;
  }
  return range.oneOf.includes(value as string | boolean)
    ? undefined
    : `${name} must be one of ${JSON.stringify(range.oneOf)}, got ${JSON.stringify(value)}`;
}

/** Checks a step read from JSON against the vocabulary; throws an Error naming every problem. */
export function parseStep(value: unknown, ranges: SimStepFieldRanges): SimStep {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`a step must be an object, got ${JSON.stringify(value)}`);
  const record = value as Record<string, unknown>;
  const { atMs, kind, ...fields } = record;
  if (!isStepKind(kind))
    throw new Error(`unknown step kind ${JSON.stringify(kind)} (known: ${SIM_STEP_KINDS.join(', ')})`);
  const problems: string[] = [];
  if (!Number.isSafeInteger(atMs) || (atMs as number) < 0)
    problems.push(`atMs must be a non-negative integer, got ${JSON.stringify(atMs)}`);
  const expected = ranges[kind] as Readonly<Record<string, SimFieldRange>>;
  for (const [name, range] of Object.entries(expected)) {
    const problem = fieldProblem(name, fields[name], range);
    if (problem !== undefined) problems.push(problem);
  }
  for (const name of Object.keys(fields)) if (!(name in expected)) problems.push(`unknown field ${name}`);
  if (problems.length > 0) throw new Error(`step ${kind}: ${problems.join('; ')}`);
  return record as unknown as SimStep;
}

/** Steps in time order (stable: equal times keep their order), checked against the schedule's bounds. */
export function sortedSteps(steps: readonly SimStep[]): SimStep[] {
  assert(
    steps.length <= SIM_SCHEDULE_STEPS_MAX,
    `a schedule holds at most SIM_SCHEDULE_STEPS_MAX (${SIM_SCHEDULE_STEPS_MAX}) steps`,
  );
  return steps
    .map((step, index) => ({ step, index }))
    .sort((a, b) => a.step.atMs - b.step.atMs || a.index - b.index)
    .map(({ step }) => step);
}

/** The duration of a step that heals on its own, or undefined. */
export function stepDurationMs(step: SimStep): number | undefined {
  return 'durationMs' in step ? step.durationMs : undefined;
}

/** One line for a step, for events and printed schedules. */
export function describeStep(step: SimStep): string {
  const { atMs: _atMs, kind, ...fields } = step;
  return `${kind} ${Object.entries(fields)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ')}`.trim();
}
