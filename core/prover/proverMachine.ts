import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import type { ClockPort, L1TxStatus } from '../ports.js';
import { pollingLoop } from '../pollingLoop.js';
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
  /** Times the waits of the two polling loops (planning and inclusion). */
  readonly clock: Pick<ClockPort, 'setTimeout' | 'clearTimeout'>;
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

type ReadyPlan = Extract<ProofPlan, { kind: 'ready' }>;

/** What the planning loop tells the machine: a proof to send, a new reason to wait, or a failed plan. */
type PlanEvent =
  | { type: 'plan.ready'; plan: ReadyPlan }
  | { type: 'plan.waiting'; plan: ProofPlan }
  | { type: 'plan.failed'; error: unknown };

/** Where a sent proof stands, as the inclusion loop sees it; `pending` means look again later. */
export type InclusionVerdict = 'included' | 'lost' | 'windowClosed' | 'stuck' | 'pending';

/** What the inclusion loop tells the machine: a verdict other than `pending`, or a failed check after the window. */
type InclusionEvent =
  | { type: 'inclusion.settled'; verdict: Exclude<InclusionVerdict, 'pending'>; inclusion: ProofInclusion }
  | { type: 'inclusion.failed'; error: unknown };

/** The job being watched, as the inclusion loop needs it. */
interface WatchedJob {
  readonly deadlineMs: number;
  readonly sentAtMs: number;
  readonly sentTxHashes: readonly Hex[];
}

/**
 * The verdict on one inclusion answer, in order: mined, lost by L1, out of the proof window, unmined for the
 * resend delay (send again), else still pending.
 */
export function inclusionVerdict(
  status: L1TxStatus,
  nowMs: number,
  job: Pick<WatchedJob, 'deadlineMs' | 'sentAtMs'>,
  resendAfterMs: number,
): InclusionVerdict {
  if (status.status === 'included') return 'included';
  if (status.status === 'unknown') return 'lost';
  if (nowMs >= job.deadlineMs) return 'windowClosed';
  if (status.status === 'pending' && nowMs - job.sentAtMs >= resendAfterMs) return 'stuck';
  return 'pending';
}

/**
 * The planning loop of `Idle`: plans a poll interval apart until a plan is ready. A wait whose reason differs from
 * the last one reported is reported; a failed plan is reported and the loop goes on. Stopping it (leaving `Idle`)
 * cancels its wait; a plan already running finishes, unreported.
 *
 * The polls live here rather than as machine states: most find nothing to prove, and as states each cost a
 * transition out and back, an invoked actor and a delayed event (a fifth of a simulated node's machine events).
 */
function planUntilReady(deps: ProverMachineDeps) {
  return fromCallback<PlanEvent, { lastWait: string | undefined }>(({ sendBack, input }) => {
    let lastWait = input.lastWait;
    return pollingLoop(
      deps.clock,
      () => deps.pollIntervalMs,
      (wait, stopped) => {
        deps.planProof().then(
          (plan) => {
            if (stopped()) return;
            if (plan.kind === 'ready') return sendBack({ type: 'plan.ready', plan });
            if (plan.reason !== lastWait) sendBack({ type: 'plan.waiting', plan });
            lastWait = plan.reason;
            wait();
          },
          (error: unknown) => {
            if (stopped()) return;
            sendBack({ type: 'plan.failed', error });
            wait();
          },
        );
      },
    );
  });
}

/**
 * The inclusion loop of `AwaitingL1Inclusion`: asks L1 a poll interval apart until the verdict is not `pending`;
 * a failed check is reported only once the proof window is closed (before that, the next poll tries again).
 */
function watchInclusion(deps: ProverMachineDeps) {
  return fromCallback<InclusionEvent, WatchedJob>(({ sendBack, input }) =>
    pollingLoop(
      deps.clock,
      () => deps.pollIntervalMs,
      (wait, stopped) => {
        deps.checkInclusion(input.sentTxHashes).then(
          (inclusion) => {
            if (stopped()) return;
            const verdict = inclusionVerdict(inclusion.status, deps.now(), input, deps.resendAfterMs);
            if (verdict === 'pending') wait();
            else sendBack({ type: 'inclusion.settled', verdict, inclusion });
          },
          (error: unknown) => {
            if (stopped()) return;
            if (deps.now() >= input.deadlineMs) sendBack({ type: 'inclusion.failed', error });
            else wait();
          },
        );
      },
    ),
  );
}

/** The prover machine's actors, guards and actions over its deps; the state config below names them. */
function proverMachineSetup(deps: ProverMachineDeps) {
  return setup({
    types: {
      context: {} as ProverContext,
      events: {} as ProverEvent | PlanEvent | InclusionEvent,
    },
    actors: {
      planUntilReady: planUntilReady(deps),
      submit: fromPromise<{ txHash: Hex }, EpochProofJob>(({ input }) => deps.submitProof(input)),
      watchInclusion: watchInclusion(deps),
    },
    guards: {
      resending: ({ context }) => context.sentTxHashes.length > 0,
      settledAs: (_, params: { verdict: InclusionVerdict; expected: InclusionVerdict }) =>
        params.verdict === params.expected,
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

/** Waits for an epoch to prove: to `Submitting` with a ready plan; waits and failed plans are recorded. */
function idleState(machine: ProverMachineSetup) {
  return machine.createStateConfig({
    entry: 'clearJob',
    invoke: { src: 'planUntilReady', input: ({ context }) => ({ lastWait: context.lastWait }) },
    on: {
      'plan.ready': {
        target: 'Submitting',
        actions: { type: 'adoptPlan', params: ({ event }) => ({ plan: event.plan }) },
      },
      'plan.waiting': { actions: { type: 'adoptPlan', params: ({ event }) => ({ plan: event.plan }) } },
      'plan.failed': {
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

/** Watches L1 for the sent proof: included, lost, out of its window, or stuck (send it again). */
function awaitingInclusionState(machine: ProverMachineSetup) {
  return machine.createStateConfig({
    invoke: {
      src: 'watchInclusion',
      input: ({ context }) => ({
        deadlineMs: context.job!.deadlineMs,
        sentAtMs: context.sentAtMs!,
        sentTxHashes: context.sentTxHashes,
      }),
    },
    on: {
      'inclusion.settled': [
        {
          guard: { type: 'settledAs', params: ({ event }) => ({ verdict: event.verdict, expected: 'included' }) },
          target: 'Idle',
          actions: [
            { type: 'reportIncluded', params: ({ event }) => ({ inclusion: event.inclusion }) },
            'countIncluded',
          ],
        },
        {
          guard: { type: 'settledAs', params: ({ event }) => ({ verdict: event.verdict, expected: 'stuck' }) },
          target: 'Submitting',
          actions: 'reportResending',
        },
        {
          target: 'Idle',
          actions: { type: 'reportNotIncluded', params: ({ event }) => ({ status: event.inclusion.status }) },
        },
      ],
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

/**
 * The prover loop. `Idle` runs the planning loop, which finds the epoch L1 can take a proof for now and builds its
 * proof, a poll interval apart; `Submitting` sends it; `AwaitingL1Inclusion` runs the inclusion loop, which watches
 * the transaction until it is included, lost, or the epoch's proof window closes; a proof still pending after the
 * resend delay goes back to
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
      Idle: idleState(machine),
      Submitting: submittingState(machine),
      AwaitingL1Inclusion: awaitingInclusionState(machine),
      Paused: {
        entry: 'clearJob',
        on: { 'prover.resume': 'Idle', 'prover.pause': {} },
      },
      Stopped: { type: 'final' },
    },
  });
}
