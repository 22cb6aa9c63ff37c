import { assign, fromPromise, setup } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import type { L1TxStatus } from '../ports.js';
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

/** Skips that settle the slot: planning it again would give the same answer until the next slot. */
const SLOT_DONE_REASONS: ReadonlySet<SkipReason> = new Set(['tooLateInSlot', 'notProposer', 'noPublisher']);

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The sequencer machine's actors, delays, guards and actions over its deps; the state config below names them. */
function sequencerMachineSetup(deps: SequencerMachineDeps) {
  const slotEndMs = (slot: number) => deps.slotStartMs(slot) + deps.slotDurationMs;
  const currentSlot = () => Math.floor((deps.now() - deps.slotStartMs(0)) / deps.slotDurationMs);
  return setup({
    types: {
      context: {} as SequencerContext,
      events: {} as SequencerEvent,
    },
    actors: {
      plan: fromPromise<PlanOutcome>(() => deps.planSlot()),
      build: fromPromise<unknown, SlotPlan>(({ input }) => deps.buildBlock(input)),
      publish: fromPromise<{ txHash: Hex; checkpointNumber: number }, SlotPlan>(({ input }) =>
        deps.publishCheckpoint(input),
      ),
      inclusion: fromPromise<L1TxStatus, { plan: SlotPlan; txHash: Hex }>(({ input }) =>
        deps.checkInclusion(input.plan, input.txHash),
      ),
    },
    delays: {
      untilWake: ({ context }) => {
        const slot = currentSlot();
        if (slot > context.lastPlannedSlot) return deps.pollIntervalMs;
        return Math.max(1, deps.slotStartMs(slot + 1) - deps.now());
      },
      untilNextBlock: ({ context }) => {
        const plan = context.plan!;
        return Math.max(0, plan.slotStartMs + plan.nextBlockIndex * deps.blockDurationMs - deps.now());
      },
      pollInterval: () => deps.pollIntervalMs,
    },
    guards: {
      planned: (_, params: { outcome: PlanOutcome }) => params.outcome.kind === 'planned',
      moreBlocksPlannedAfterThis: ({ context }) => context.plan!.nextBlockIndex + 1 < context.plan!.blockCount,
      included: (_, params: { status: L1TxStatus }) => params.status.status === 'included',
      slotOver: ({ context }) => deps.now() >= slotEndMs(context.plan!.slot),
    },
    actions: {
      adoptPlan: assign((_, params: { outcome: PlanOutcome }) => {
        const outcome = params.outcome;
        return outcome.kind === 'planned'
          ? { plan: outcome.plan, lastPlannedSlot: outcome.plan.slot, txHash: undefined }
          : {};
      }),
      reportSkip: (_, params: { outcome: PlanOutcome }) => {
        const outcome = params.outcome;
        if (outcome.kind === 'skipped' && outcome.reason !== 'tooLateInSlot' && outcome.reason !== 'beforeGenesis') {
          deps.onSlotOutcome({ kind: 'skipped', slot: outcome.slot, reason: outcome.reason });
        }
      },
      markTooLate: assign(({ context }, params: { outcome: PlanOutcome }) => {
        const outcome = params.outcome;
        // Too late, another validator's slot, or ours without a publisher key: nothing more to plan in it.
        const done = outcome.kind === 'skipped' && SLOT_DONE_REASONS.has(outcome.reason);
        return { lastPlannedSlot: done ? Math.max(context.lastPlannedSlot, outcome.slot) : context.lastPlannedSlot };
      }),
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

/** Decides whether to propose in the current slot: to `Building` with a plan, else back to `Idle`. */
function planningState(machine: SequencerMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'plan',
      onDone: [
        {
          guard: { type: 'planned', params: ({ event }) => ({ outcome: event.output }) },
          target: 'Building',
          actions: { type: 'adoptPlan', params: ({ event }) => ({ outcome: event.output }) },
        },
        {
          target: 'Idle',
          actions: [
            { type: 'reportSkip', params: ({ event }) => ({ outcome: event.output }) },
            { type: 'markTooLate', params: ({ event }) => ({ outcome: event.output }) },
          ],
        },
      ],
      onError: {
        target: 'Idle',
        actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'plan' as const, error: event.error }) },
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

/** Asks L1 whether the checkpoint is in: done when it is or when the slot is over, else look again later. */
function checkingInclusionState(machine: SequencerMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'inclusion',
      input: ({ context }) => ({ plan: context.plan!, txHash: context.txHash! }),
      onDone: [
        {
          guard: { type: 'included', params: ({ event }) => ({ status: event.output }) },
          target: 'Idle',
          actions: { type: 'reportIncluded', params: ({ event }) => ({ status: event.output }) },
        },
        { guard: 'slotOver', target: 'Idle', actions: 'reportNotIncluded' },
        { target: 'AwaitingL1Inclusion' },
      ],
      onError: [
        {
          guard: 'slotOver',
          target: 'Idle',
          actions: {
            type: 'reportFailure',
            params: ({ event }) => ({ stage: 'inclusion' as const, error: event.error }),
          },
        },
        { target: 'AwaitingL1Inclusion' },
      ],
    },
  });
}

/**
 * The proposer loop. `Idle` wakes at the next slot (or after a poll interval while the current slot's window is
 * open); `Planning` decides whether to propose; `Building` / `WaitingForNextBlock` produce the slot's blocks on
 * schedule; `Publishing` sends the checkpoint; `AwaitingL1Inclusion` / `CheckingInclusion` watch for it until the
 * slot ends. Pause and resume work from any running state; pending work of a paused slot is abandoned. The states
 * that invoke a step are built by the functions above; this one lays out the loop.
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
      Idle: {
        entry: 'clearPlan',
        after: { untilWake: 'Planning' },
      },
      Planning: planningState(machine),
      Building: buildingState(machine),
      WaitingForNextBlock: { after: { untilNextBlock: 'Building' } },
      Publishing: publishingState(machine),
      AwaitingL1Inclusion: { after: { pollInterval: 'CheckingInclusion' } },
      CheckingInclusion: checkingInclusionState(machine),
      Paused: {
        entry: 'clearPlan',
        on: { 'admin.resumeSequencer': 'Idle', 'admin.pauseSequencer': {} },
      },
      Stopped: { type: 'final' },
    },
  });
}
