import type { Hex } from '../../spec/chain.js';
import {
  runSimulation,
  type SimFailure,
  type SimNodeSummary,
  type SimOptions,
  type SimResult,
  type SimWorld,
} from '../runSimulation.js';
import { drawSwarmOptions } from '../swarm.js';
import { createTipRecorder, type NodeTipSeries } from './tipRecorder.js';

/**
 * Something that happened at a point of a run, for the report's timeline. Faults injected by the simulator are
 * meant to arrive in this shape (see `readResultEvents`); the campaign adds what nodes observe (prunes, admin
 * actions) on its own.
 */
export interface CampaignEvent {
  /** Simulated ms since the run started. */
  readonly atMs: number;
  /** Dotted kind, e.g. `l1.reorg`, `node.crash`, `network.partition`, `chain.pruned`. */
  readonly kind: string;
  readonly detail: string;
  readonly node?: string;
}

/** Items of one coverage view that a run observed and those it never did. */
export interface CampaignCoverageView {
  readonly hit: readonly string[];
  readonly missed: readonly string[];
}

/**
 * Which transitions of one machine a run took and which it never took, and likewise the events it received and the
 * guard outcomes it saw (keys as the coverage recorder, sim/machineCoverage.ts, names them).
 */
export interface CampaignMachineCoverage extends CampaignCoverageView {
  readonly machine: string;
  readonly events?: CampaignCoverageView;
  readonly guards?: CampaignCoverageView;
}

/** What a worker posts back for one seed: small, structured-clone safe, enough for the summary and the report. */
export interface CampaignRun {
  readonly seed: bigint;
  readonly options: SimOptions;
  /** Undefined when the run died before it had a trace (the failures say why). */
  readonly traceHash: Hex | undefined;
  readonly traceEntries: number;
  readonly eventsRun: number;
  readonly failures: readonly SimFailure[];
  readonly simulatedSeconds: number;
  readonly wallMs: number;
  readonly nodes: readonly SimNodeSummary[];
  readonly tips: readonly NodeTipSeries[];
  readonly events: readonly CampaignEvent[];
  /** Present once the simulator records machine coverage. */
  readonly coverage?: readonly CampaignMachineCoverage[];
}

/** The one line that replays a run on its own (`sim/main.ts` draws the same options from the seed). */
export function replayCommand(seed: bigint, simulatedSeconds: number): string {
  return `npm run sim -- --seed ${seed} --simulated-seconds ${simulatedSeconds}`;
}

/** Events kept per run (the first ones); more are counted in one closing `campaign.eventsDropped` event. */
export const CAMPAIGN_EVENTS_PER_RUN_MAX = 500;

/** Fields a simulation result may carry once fault injection and coverage land; read defensively until then. */
interface SimResultExtensions {
  readonly events?: readonly CampaignEvent[];
  readonly coverage?: readonly CampaignMachineCoverage[];
}

function readResultEvents(result: SimResult): readonly CampaignEvent[] {
  const events = (result as SimResult & SimResultExtensions).events;
  return Array.isArray(events) ? events : [];
}

function readResultCoverage(result: SimResult): readonly CampaignMachineCoverage[] | undefined {
  const coverage = (result as SimResult & SimResultExtensions).coverage;
  return Array.isArray(coverage) ? coverage : undefined;
}

/** Events sorted by time (stable), bounded by CAMPAIGN_EVENTS_PER_RUN_MAX. */
export function boundEvents(events: readonly CampaignEvent[]): CampaignEvent[] {
  const sorted = events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.atMs - b.event.atMs || a.index - b.index);
  const kept = sorted.slice(0, CAMPAIGN_EVENTS_PER_RUN_MAX).map(({ event }) => event);
  if (sorted.length > kept.length) {
    const last = kept[kept.length - 1]!;
    kept.push({
      atMs: last.atMs,
      kind: 'campaign.eventsDropped',
      detail: `${sorted.length - kept.length} later events not kept`,
    });
  }
  return kept;
}

/** A run that produced no simulation result (the worker or the simulator threw before the run could finish). */
export function crashedRun(seed: bigint, simulatedSeconds: number, detail: string, wallMs: number): CampaignRun {
  return {
    seed,
    options: drawSwarmOptions(seed, simulatedSeconds),
    traceHash: undefined,
    traceEntries: 0,
    eventsRun: 0,
    failures: [{ kind: 'crashed', detail }],
    simulatedSeconds,
    wallMs,
    nodes: [],
    tips: [],
    events: [],
  };
}

/**
 * Runs one seed as `npm run sim -- --seed` would (same options, same trace hash) while sampling every node's tips
 * and noting prunes and admin actions. Deterministic: the caller measures wall time and fills `wallMs`.
 */
export async function simulateForCampaign(
  seed: bigint,
  simulatedSeconds: number,
): Promise<Omit<CampaignRun, 'wallMs'>> {
  const options = drawSwarmOptions(seed, simulatedSeconds);
  const recorder = createTipRecorder();
  const observed: CampaignEvent[] = [];
  let world: SimWorld | undefined;
  let startMs = 0;
  const result = await runSimulation(options, {
    scenario: (w) => {
      world = w;
      startMs = w.scheduler.now();
    },
    onActivity: (node, activity) => {
      if (world === undefined) return;
      const atMs = world.scheduler.now() - startMs;
      recorder.record(node, atMs, world.node(node).chain.tips);
      if (activity.kind === 'admin') observed.push({ atMs, kind: 'node.admin', node, detail: activity.action });
      if (activity.kind === 'chain' && activity.event.type === 'chainPruned') {
        observed.push({
          atMs,
          kind: 'chain.pruned',
          node,
          detail: `to block ${activity.event.toBlock.number} (${activity.event.reason})`,
        });
      }
    },
  });
  const coverage = readResultCoverage(result);
  return {
    seed,
    options,
    traceHash: result.traceHash,
    traceEntries: result.traceEntries,
    eventsRun: result.eventsRun,
    failures: result.failures,
    simulatedSeconds,
    nodes: result.nodes,
    tips: recorder.series(),
    events: boundEvents([...readResultEvents(result), ...observed]),
    ...(coverage ? { coverage } : {}),
  };
}
