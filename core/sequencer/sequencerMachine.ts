import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import type { ClockPort, L1TxStatus } from '../ports.js';
import { pollingLoop } from '../pollingLoop.js';
import type { PlanOutcome, SkipReason, SlotPlan } from './sequencerDuties.js';

export interface SequencerMachineDeps {
  readonly now: () => number;
  readonly slotDurationMs: number;
  readonly blockDurationMs: number;
  readonly pollIntervalMs: number;
  readonly planSlot: () => Promise<PlanOutcome>;
  readonly buildBlock: (plan: SlotPlan) => Promise<unknown>;
  readonly publishCheckpoint: (plan: SlotPlan) => Promise<{ txHash: Hex; checkpointNumber: number }>;
  /** Asks the publisher that sent the plan's checkpoint. */
  readonly checkInclusion: (plan: SlotPlan, txHash: Hex) => Promise<L1TxStatus>;
  readonly slotStartMs: (slot: number) => number;
  /** Reports what happened to a slot's checkpoint (for logs and the simulator's trace). */
  readonly onSlotOutcome: (outcome: SlotOutcome) => void;
  /** Times the waits of the two polling loops (wake-up and inclusion); the machine's own delays use the actor's. */
  readonly clock: Pick<ClockPort, 'setTimeout' | 'clearTimeout'>;
}

export type SlotOutcome =
  | { readonly kind: 'included'; readonly slot: number; readonly txHash: Hex; readonly success: boolean }
  | { readonly kind: 'notIncludedInSlot'; readonly slot: number; readonly txHash: Hex }
  | { readonly kind: 'skipped'; readonly slot: number; readonly reason: string }
  | {
      readonly kind: 'failed';
      readonly slot: number;
      readonly stage: 'plan' | 'build' | 'publish' | 'inclusion';
      readonly error: string;
    };

export interface SequencerContext {
  readonly plan: SlotPlan | undefined;
  /** The last slot this sequencer planned for (never plans a slot twice). */
  readonly lastPlannedSlot: number;
  readonly txHash: Hex | undefined;
  readonly blocksBuilt: number;
  readonly checkpointsPublished: number;
}

export type SequencerEvent =
  { type: 'admin.pauseSequencer' } | { type: 'admin.resumeSequencer' } | { type: 'sequencer.stop' };

type SkippedOutcome = Extract<PlanOutcome, { kind: 'skipped' }>;

/** What the wake-up loop tells the machine: a plan to carry out, a skip worth recording, or a failed plan. */
type WakeEvent =
  | { type: 'slot.planned'; plan: SlotPlan }
  | { type: 'slot.skipped'; outcome: SkippedOutcome }
  | { type: 'slot.planFailed'; error: unknown };

/** What the inclusion loop tells the machine: the checkpoint is in, or the slot ended with it out or unanswered. */
type InclusionEvent =
  | { type: 'inclusion.included'; status: L1TxStatus }
  | { type: 'inclusion.slotOver' }
  | { type: 'inclusion.failed'; error: unknown };

/** Skips that settle the slot: planning it again would give the same answer until the next slot. */
const SLOT_DONE_REASONS: ReadonlySet<SkipReason> = new Set(['tooLateInSlot', 'notProposer', 'noPublisher']);

/** Skips reported as slot outcomes: the others are the normal waits of a slot's start and end. */
function isReportedSkip(outcome: SkippedOutcome): boolean {
  return outcome.reason !== 'tooLateInSlot' && outcome.reason !== 'beforeGenesis';
}

/** The last slot planned, after a skip: a skip that settles its slot counts as planned. */
function lastPlannedAfterSkip(lastPlannedSlot: number, outcome: SkippedOutcome): number {
  return SLOT_DONE_REASONS.has(outcome.reason) ? Math.max(lastPlannedSlot, outcome.slot) : lastPlannedSlot;
}

/** Time until the next plan: a poll interval while the current slot is unplanned, else the next slot's start. */
function untilWakeMs(deps: SequencerMachineDeps, lastPlannedSlot: number): number {
  const slot = Math.floor((deps.now() - deps.slotStartMs(0)) / deps.slotDurationMs);
  if (slot > lastPlannedSlot) return deps.pollIntervalMs;
  return Math.max(1, deps.slotStartMs(slot + 1) - deps.now());
}

/**
 * The wake-up loop of `Idle`: waits until the next plan is due, plans, and goes on until a plan says to build.
 * A skip is reported to the machine when it is a slot outcome or settles its slot (the others change nothing); a
 * failed plan is reported and the loop goes on. Stopping it (leaving `Idle`) cancels its wait; a plan already
 * running finishes, unreported.
 *
 * The polls live here rather than as machine states: most find nothing to do, and as states each cost a transition
 * out and back, an invoked actor and a delayed event (about a fifth of a simulated node's machine events).
 */
function wakeForSlots(deps: SequencerMachineDeps) {
  return fromCallback<WakeEvent, { lastPlannedSlot: number }>(({ sendBack, input }) => {
    let lastPlannedSlot = input.lastPlannedSlot;
    return pollingLoop(
      deps.clock,
      () => untilWakeMs(deps, lastPlannedSlot),
      (wait, stopped) => {
        deps.planSlot().then(
          (outcome) => {
            if (stopped()) return;
            if (outcome.kind === 'planned') return sendBack({ type: 'slot.planned', plan: outcome.plan });
            const next = lastPlannedAfterSkip(lastPlannedSlot, outcome);
            if (next !== lastPlannedSlot || isReportedSkip(outcome)) sendBack({ type: 'slot.skipped', outcome });
            lastPlannedSlot = next;
            wait();
          },
          (error: unknown) => {
            if (stopped()) return;
            sendBack({ type: 'slot.planFailed', error });
            wait();
          },
        );
      },
    );
  });
}

/**
 * The inclusion loop of `AwaitingL1Inclusion`: asks the publisher a poll interval apart until the checkpoint is
 * included or the slot is over (L1's answer, or its failure, after the slot's end settles it); the answers in
 * between (pending, or a failed call) change nothing and are not reported. Stops like the wake-up loop.
 */
function watchInclusion(deps: SequencerMachineDeps) {
  return fromCallback<InclusionEvent, { plan: SlotPlan; txHash: Hex }>(({ sendBack, input }) => {
    const slotOver = () => deps.now() >= deps.slotStartMs(input.plan.slot) + deps.slotDurationMs;
    return pollingLoop(
      deps.clock,
      () => deps.pollIntervalMs,
      (wait, stopped) => {
        deps.checkInclusion(input.plan, input.txHash).then(
          (status) => {
            if (stopped()) return;
            if (status.status === 'included') sendBack({ type: 'inclusion.included', status });
            else if (slotOver()) sendBack({ type: 'inclusion.slotOver' });
            else wait();
          },
          (error: unknown) => {
            if (stopped()) return;
            if (slotOver()) sendBack({ type: 'inclusion.failed', error });
            else wait();
          },
        );
      },
    );
  });
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The sequencer machine's actors, delays, guards and actions over its deps; the state config below names them. */
function sequencerMachineSetup(deps: SequencerMachineDeps) {
  const currentSlot = () => Math.floor((deps.now() - deps.slotStartMs(0)) / deps.slotDurationMs);
  return setup({
    types: {
      context: {} as SequencerContext,
      events: {} as SequencerEvent | WakeEvent | InclusionEvent,
    },
    actors: {
      wakeForSlots: wakeForSlots(deps),
      build: fromPromise<unknown, SlotPlan>(({ input }) => deps.buildBlock(input)),
      publish: fromPromise<{ txHash: Hex; checkpointNumber: number }, SlotPlan>(({ input }) =>
        deps.publishCheckpoint(input),
      ),
      watchInclusion: watchInclusion(deps),
    },
    delays: {
      untilNextBlock: ({ context }) => {
        const plan = context.plan!;
        return Math.max(0, plan.slotStartMs + plan.nextBlockIndex * deps.blockDurationMs - deps.now());
      },
    },
    guards: {
      moreBlocksPlannedAfterThis: ({ context }) => context.plan!.nextBlockIndex + 1 < context.plan!.blockCount,
    },
    actions: {
      adoptPlan: assign((_, params: { plan: SlotPlan }) => ({
        plan: params.plan,
        lastPlannedSlot: params.plan.slot,
        txHash: undefined,
      })),
      reportSkip: (_, params: { outcome: SkippedOutcome }) => {
        const { outcome } = params;
        if (isReportedSkip(outcome))
          deps.onSlotOutcome({ kind: 'skipped', slot: outcome.slot, reason: outcome.reason });
      },
      // Too late, another validator's slot, or ours without a publisher key: nothing more to plan in it.
      markTooLate: assign(({ context }, params: { outcome: SkippedOutcome }) => ({
        lastPlannedSlot: lastPlannedAfterSkip(context.lastPlannedSlot, params.outcome),
      })),
      advanceBlock: assign(({ context }) => ({
        plan: { ...context.plan!, nextBlockIndex: context.plan!.nextBlockIndex + 1 },
        blocksBuilt: context.blocksBuilt + 1,
      })),
      recordPublished: assign(({ context }, params: { txHash: Hex }) => ({
        txHash: params.txHash,
        checkpointsPublished: context.checkpointsPublished + 1,
      })),
      reportIncluded: ({ context }, params: { status: L1TxStatus }) => {
        const success = params.status.status === 'included' && params.status.success;
        deps.onSlotOutcome({ kind: 'included', slot: context.plan!.slot, txHash: context.txHash!, success });
      },
      reportNotIncluded: ({ context }) =>
        deps.onSlotOutcome({ kind: 'notIncludedInSlot', slot: context.plan!.slot, txHash: context.txHash! }),
      reportFailure: ({ context }, params: { stage: 'plan' | 'build' | 'publish' | 'inclusion'; error: unknown }) =>
        deps.onSlotOutcome({
          kind: 'failed',
          slot: context.plan?.slot ?? currentSlot(),
          stage: params.stage,
          error: errorText(params.error),
        }),
      clearPlan: assign({ plan: undefined, txHash: undefined }),
    },
  });
}

type SequencerMachineSetup = ReturnType<typeof sequencerMachineSetup>;

/** Waits for a slot to propose in: to `Building` with a plan; skips and failed plans are recorded on the way. */
function idleState(machine: SequencerMachineSetup) {
  return machine.createStateConfig({
    entry: 'clearPlan',
    invoke: { src: 'wakeForSlots', input: ({ context }) => ({ lastPlannedSlot: context.lastPlannedSlot }) },
    on: {
      'slot.planned': {
        target: 'Building',
        actions: { type: 'adoptPlan', params: ({ event }) => ({ plan: event.plan }) },
      },
      'slot.skipped': {
        actions: [
          { type: 'reportSkip', params: ({ event }) => ({ outcome: event.outcome }) },
          { type: 'markTooLate', params: ({ event }) => ({ outcome: event.outcome }) },
        ],
      },
      'slot.planFailed': {
        actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'plan' as const, error: event.error }) },
      },
    },
  });
}

/** Watches L1 for the published checkpoint: done when it is in or when the slot is over. */
function awaitingInclusionState(machine: SequencerMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'watchInclusion',
      input: ({ context }) => ({ plan: context.plan!, txHash: context.txHash! }),
    },
    on: {
      'inclusion.included': {
        target: 'Idle',
        actions: { type: 'reportIncluded', params: ({ event }) => ({ status: event.status }) },
      },
      'inclusion.slotOver': { target: 'Idle', actions: 'reportNotIncluded' },
      'inclusion.failed': {
        target: 'Idle',
        actions: {
          type: 'reportFailure',
          params: ({ event }) => ({ stage: 'inclusion' as const, error: event.error }),
        },
      },
    },
  });
}

/** Builds the plan's next block, then waits for the one after it or, after the last, publishes the checkpoint. */
function buildingState(machine: SequencerMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'build',
      input: ({ context }) => context.plan!,
      onDone: [
        { guard: 'moreBlocksPlannedAfterThis', target: 'WaitingForNextBlock', actions: 'advanceBlock' },
        { target: 'Publishing', actions: 'advanceBlock' },
      ],
      onError: {
        target: 'Idle',
        actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'build' as const, error: event.error }) },
      },
    },
  });
}

/** Sends the slot's checkpoint to L1. */
function publishingState(machine: SequencerMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'publish',
      input: ({ context }) => context.plan!,
      onDone: {
        target: 'AwaitingL1Inclusion',
        actions: { type: 'recordPublished', params: ({ event }) => ({ txHash: event.output.txHash }) },
      },
      onError: {
        target: 'Idle',
        actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'publish' as const, error: event.error }) },
      },
    },
  });
}

/**
 * The proposer loop. `Idle` runs the wake-up loop (above), which plans at each slot's start (and a poll interval
 * apart while the current slot's window is open) until a plan says to build; `Building` / `WaitingForNextBlock`
 * produce the slot's blocks on schedule; `Publishing` sends the checkpoint; `AwaitingL1Inclusion` runs the inclusion
 * loop until the checkpoint is in or the slot ends. Pause and resume work from any running state; pending work of a
 * paused slot is abandoned. The states that invoke a step are built by the functions above; this one lays out the
 * loop.
 */
export function createSequencerMachine(deps: SequencerMachineDeps) {
  const machine = sequencerMachineSetup(deps);
  return machine.createMachine({
    id: 'sequencer',
    context: { plan: undefined, lastPlannedSlot: -1, txHash: undefined, blocksBuilt: 0, checkpointsPublished: 0 },
    initial: 'Idle',
    on: {
      'admin.pauseSequencer': { target: '.Paused' },
      'sequencer.stop': { target: '.Stopped' },
    },
    states: {
      Idle: idleState(machine),
      Building: buildingState(machine),
      WaitingForNextBlock: { after: { untilNextBlock: 'Building' } },
      Publishing: publishingState(machine),
      AwaitingL1Inclusion: awaitingInclusionState(machine),
      Paused: {
        entry: 'clearPlan',
        on: { 'admin.resumeSequencer': 'Idle', 'admin.pauseSequencer': {} },
      },
      Stopped: { type: 'final' },
    },
  });
}
