import { assign, fromPromise, setup } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import type { L1TxStatus } from '../ports.js';
import type { EpochProofJob, ProofPlan } from './proverDuties.js';

export interface ProverMachineDeps {
  readonly now: () => number;
  readonly pollIntervalMs: number;
  /** How long a sent proof may stay unmined before it is sent again (the sender bumps its fees at its nonce). */
  readonly resendAfterMs: number;
  readonly planProof: () => Promise<ProofPlan>;
  /** Sends the job's proof; a second send for the same job replaces the first at its nonce. */
  readonly submitProof: (job: EpochProofJob) => Promise<{ txHash: Hex }>;
  /** Where the job's proof stands, over every transaction sent for it (one nonce: at most one is mined). */
  readonly checkInclusion: (txHashes: readonly Hex[]) => Promise<ProofInclusion>;
  /** Reports what happened to each proof (for logs and the simulator's trace). */
  readonly onProofOutcome: (outcome: ProofOutcome) => void;
}

/** The status of a job's proof: the mined transaction if one is, else the latest sent. */
export interface ProofInclusion {
  readonly txHash: Hex;
  readonly status: L1TxStatus;
}

export type ProofOutcome =
  | {
      readonly kind: 'included';
      readonly epoch: number;
      readonly toCheckpoint: number;
      readonly txHash: Hex;
      readonly success: boolean;
    }
  /** The window closed with the proof still pending, or L1 lost it (dropped, reorged out). */
  | {
      readonly kind: 'notIncluded';
      readonly epoch: number;
      readonly txHash: Hex;
      readonly status: 'pending' | 'unknown';
    }
  /** The proof stayed unmined for the resend delay: it is sent again with bumped fees. */
  | { readonly kind: 'resending'; readonly epoch: number; readonly txHash: Hex; readonly pendingMs: number }
  | {
      readonly kind: 'failed';
      readonly epoch: number | undefined;
      readonly stage: ProofFailureStage;
      readonly error: string;
    };

type ProofFailureStage = 'plan' | 'submit' | 'resend' | 'inclusion';

export interface ProverContext {
  readonly job: EpochProofJob | undefined;
  /** The latest transaction sent for the job. */
  readonly txHash: Hex | undefined;
  /** Every transaction sent for the job, oldest first. */
  readonly sentTxHashes: readonly Hex[];
  /** When the latest was sent, or when a resend last failed (the resend delay counts from there). */
  readonly sentAtMs: number | undefined;
  readonly proofsSubmitted: number;
  /** Proofs sent again after waiting unmined. */
  readonly proofsResent: number;
  readonly proofsIncluded: number;
  /** Why the last plan found nothing to prove. */
  readonly lastWait: string | undefined;
}

export type ProverEvent = { type: 'prover.pause' } | { type: 'prover.resume' } | { type: 'prover.stop' };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The prover machine's actors, delays, guards and actions over its deps; the state config below names them. */
function proverMachineSetup(deps: ProverMachineDeps) {
  return setup({
    types: {
      context: {} as ProverContext,
      events: {} as ProverEvent,
    },
    actors: {
      plan: fromPromise<ProofPlan>(() => deps.planProof()),
      submit: fromPromise<{ txHash: Hex }, EpochProofJob>(({ input }) => deps.submitProof(input)),
      inclusion: fromPromise<ProofInclusion, readonly Hex[]>(({ input }) => deps.checkInclusion(input)),
    },
    delays: {
      pollInterval: () => deps.pollIntervalMs,
    },
    guards: {
      ready: (_, params: { plan: ProofPlan }) => params.plan.kind === 'ready',
      included: (_, params: { status: L1TxStatus }) => params.status.status === 'included',
      lost: (_, params: { status: L1TxStatus }) => params.status.status === 'unknown',
      windowClosed: ({ context }) => deps.now() >= context.job!.deadlineMs,
      stuck: ({ context }, params: { status: L1TxStatus }) =>
        params.status.status === 'pending' && deps.now() - context.sentAtMs! >= deps.resendAfterMs,
      resending: ({ context }) => context.sentTxHashes.length > 0,
    },
    actions: {
      adoptPlan: assign((_, params: { plan: ProofPlan }) =>
        params.plan.kind === 'ready'
          ? { job: params.plan.job, txHash: undefined, lastWait: undefined }
          : { lastWait: params.plan.reason },
      ),
      recordSubmitted: assign(({ context }, params: { txHash: Hex }) => ({
        txHash: params.txHash,
        sentTxHashes: [...context.sentTxHashes, params.txHash],
        sentAtMs: deps.now(),
        ...(context.sentTxHashes.length === 0
          ? { proofsSubmitted: context.proofsSubmitted + 1 }
          : { proofsResent: context.proofsResent + 1 }),
      })),
      reportIncluded: ({ context }, params: { inclusion: ProofInclusion }) => {
        const { status, txHash } = params.inclusion;
        const success = status.status === 'included' && status.success;
        deps.onProofOutcome({
          kind: 'included',
          epoch: context.job!.inputs.epoch,
          toCheckpoint: context.job!.inputs.toCheckpoint,
          txHash,
          success,
        });
      },
      countIncluded: assign(({ context }) => ({ proofsIncluded: context.proofsIncluded + 1 })),
      reportNotIncluded: ({ context }, params: { status: L1TxStatus }) =>
        deps.onProofOutcome({
          kind: 'notIncluded',
          epoch: context.job!.inputs.epoch,
          txHash: context.txHash!,
          status: params.status.status === 'unknown' ? 'unknown' : 'pending',
        }),
      reportResending: ({ context }) =>
        deps.onProofOutcome({
          kind: 'resending',
          epoch: context.job!.inputs.epoch,
          txHash: context.txHash!,
          pendingMs: deps.now() - context.sentAtMs!,
        }),
      deferResend: assign({ sentAtMs: () => deps.now() }),
      reportFailure: ({ context }, params: { stage: ProofFailureStage; error: unknown }) =>
        deps.onProofOutcome({
          kind: 'failed',
          epoch: context.job?.inputs.epoch,
          stage: params.stage,
          error: errorText(params.error),
        }),
      clearJob: assign({ job: undefined, txHash: undefined, sentTxHashes: [], sentAtMs: undefined }),
    },
  });
}

type ProverMachineSetup = ReturnType<typeof proverMachineSetup>;

/** Builds the epoch's proof: to `Submitting` when L1 can take one, else back to `Idle` with the reason kept. */
function planningState(machine: ProverMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'plan',
      onDone: [
        {
          guard: { type: 'ready', params: ({ event }) => ({ plan: event.output }) },
          target: 'Submitting',
          actions: { type: 'adoptPlan', params: ({ event }) => ({ plan: event.output }) },
        },
        { target: 'Idle', actions: { type: 'adoptPlan', params: ({ event }) => ({ plan: event.output }) } },
      ],
      onError: {
        target: 'Idle',
        actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'plan' as const, error: event.error }) },
      },
    },
  });
}

/** Sends the job's proof, or sends it again (the sender replaces the one sent before at its nonce). */
function submittingState(machine: ProverMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'submit',
      input: ({ context }) => context.job!,
      onDone: {
        target: 'AwaitingL1Inclusion',
        actions: { type: 'recordSubmitted', params: ({ event }) => ({ txHash: event.output.txHash }) },
      },
      onError: [
        // A failed resend leaves the proof sent before pending: keep watching it, and try again a delay later.
        {
          guard: 'resending',
          target: 'AwaitingL1Inclusion',
          actions: [
            { type: 'reportFailure', params: ({ event }) => ({ stage: 'resend' as const, error: event.error }) },
            'deferResend',
          ],
        },
        {
          target: 'Idle',
          actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'submit' as const, error: event.error }) },
        },
      ],
    },
  });
}

/** Asks L1 where the job's proof stands: included, lost, out of its window, stuck (send again), or still pending. */
function checkingInclusionState(machine: ProverMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'inclusion',
      input: ({ context }) => context.sentTxHashes,
      onDone: [
        {
          guard: { type: 'included', params: ({ event }) => ({ status: event.output.status }) },
          target: 'Idle',
          actions: [{ type: 'reportIncluded', params: ({ event }) => ({ inclusion: event.output }) }, 'countIncluded'],
        },
        {
          guard: { type: 'lost', params: ({ event }) => ({ status: event.output.status }) },
          target: 'Idle',
          actions: { type: 'reportNotIncluded', params: ({ event }) => ({ status: event.output.status }) },
        },
        {
          guard: 'windowClosed',
          target: 'Idle',
          actions: { type: 'reportNotIncluded', params: ({ event }) => ({ status: event.output.status }) },
        },
        {
          guard: { type: 'stuck', params: ({ event }) => ({ status: event.output.status }) },
          target: 'Submitting',
          actions: 'reportResending',
        },
        { target: 'AwaitingL1Inclusion' },
      ],
      onError: [
        {
          guard: 'windowClosed',
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
 * The prover loop. `Idle` waits a poll interval; `Planning` finds the epoch L1 can take a proof for now and builds
 * its proof; `Submitting` sends it; `AwaitingL1Inclusion` / `CheckingInclusion` watch the transaction until it is
 * included, lost, or the epoch's proof window closes; a proof still pending after the resend delay goes back to
 * `Submitting`, where the sender replaces it at its nonce with bumped fees. One proof is in flight at a time; after
 * each outcome the next plan starts again from what L1 says is proven. Pause and resume work from any running state.
 * The states that invoke a step are built by the functions above; this one lays out the loop.
 */
export function createProverMachine(deps: ProverMachineDeps) {
  const machine = proverMachineSetup(deps);
  return machine.createMachine({
    id: 'prover',
    context: {
      job: undefined,
      txHash: undefined,
      sentTxHashes: [],
      sentAtMs: undefined,
      proofsSubmitted: 0,
      proofsResent: 0,
      proofsIncluded: 0,
      lastWait: undefined,
    },
    initial: 'Idle',
    on: {
      'prover.pause': { target: '.Paused' },
      'prover.stop': { target: '.Stopped' },
    },
    states: {
      Idle: {
        entry: 'clearJob',
        after: { pollInterval: 'Planning' },
      },
      Planning: planningState(machine),
      Submitting: submittingState(machine),
      AwaitingL1Inclusion: { after: { pollInterval: 'CheckingInclusion' } },
      CheckingInclusion: checkingInclusionState(machine),
      Paused: {
        entry: 'clearJob',
        on: { 'prover.resume': 'Idle', 'prover.pause': {} },
      },
      Stopped: { type: 'final' },
    },
  });
}
