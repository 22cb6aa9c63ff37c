import { assign, fromPromise, setup } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import type { L1TxStatus } from '../ports.js';
import type { EpochProofJob, ProofPlan } from './proverDuties.js';

export interface ProverMachineDeps {
  readonly now: () => number;
  readonly pollIntervalMs: number;
  readonly planProof: () => Promise<ProofPlan>;
  readonly submitProof: (job: EpochProofJob) => Promise<{ txHash: Hex }>;
  readonly checkInclusion: (txHash: Hex) => Promise<L1TxStatus>;
  /** Reports what happened to each proof (for logs and the simulator's trace). */
  readonly onProofOutcome: (outcome: ProofOutcome) => void;
}

export type ProofOutcome =
  | { readonly kind: 'included'; readonly epoch: number; readonly toCheckpoint: number; readonly txHash: Hex; readonly success: boolean }
  /** The window closed with the proof still pending, or L1 lost it (dropped, reorged out). */
  | { readonly kind: 'notIncluded'; readonly epoch: number; readonly txHash: Hex; readonly status: 'pending' | 'unknown' }
  | { readonly kind: 'failed'; readonly epoch: number | undefined; readonly stage: 'plan' | 'submit' | 'inclusion'; readonly error: string };

export interface ProverContext {
  readonly job: EpochProofJob | undefined;
  readonly txHash: Hex | undefined;
  readonly proofsSubmitted: number;
  readonly proofsIncluded: number;
  /** Why the last plan found nothing to prove. */
  readonly lastWait: string | undefined;
}

export type ProverEvent = { type: 'prover.pause' } | { type: 'prover.resume' } | { type: 'prover.stop' };

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The prover loop. `Idle` waits a poll interval; `Planning` finds the epoch L1 can take a proof for now and builds
 * its proof; `Submitting` sends it; `AwaitingL1Inclusion` / `CheckingInclusion` watch the transaction until it is
 * included, lost, or the epoch's proof window closes. One proof is in flight at a time; after each outcome the next
 * plan starts again from what L1 says is proven. Pause and resume work from any running state.
 */
export function createProverMachine(deps: ProverMachineDeps) {
  return setup({
    types: {
      context: {} as ProverContext,
      events: {} as ProverEvent,
    },
    actors: {
      plan: fromPromise<ProofPlan>(() => deps.planProof()),
      submit: fromPromise<{ txHash: Hex }, EpochProofJob>(({ input }) => deps.submitProof(input)),
      inclusion: fromPromise<L1TxStatus, Hex>(({ input }) => deps.checkInclusion(input)),
    },
    delays: {
      pollInterval: () => deps.pollIntervalMs,
    },
    guards: {
      ready: (_, params: { plan: ProofPlan }) => params.plan.kind === 'ready',
      included: (_, params: { status: L1TxStatus }) => params.status.status === 'included',
      lost: (_, params: { status: L1TxStatus }) => params.status.status === 'unknown',
      windowClosed: ({ context }) => deps.now() >= context.job!.deadlineMs,
    },
    actions: {
      adoptPlan: assign((_, params: { plan: ProofPlan }) =>
        params.plan.kind === 'ready' ? { job: params.plan.job, txHash: undefined, lastWait: undefined } : { lastWait: params.plan.reason },
      ),
      recordSubmitted: assign(({ context }, params: { txHash: Hex }) => ({ txHash: params.txHash, proofsSubmitted: context.proofsSubmitted + 1 })),
      reportIncluded: ({ context }, params: { status: L1TxStatus }) => {
        const success = params.status.status === 'included' && params.status.success;
        deps.onProofOutcome({ kind: 'included', epoch: context.job!.inputs.epoch, toCheckpoint: context.job!.inputs.toCheckpoint, txHash: context.txHash!, success });
      },
      countIncluded: assign(({ context }) => ({ proofsIncluded: context.proofsIncluded + 1 })),
      reportNotIncluded: ({ context }, params: { status: L1TxStatus }) =>
        deps.onProofOutcome({ kind: 'notIncluded', epoch: context.job!.inputs.epoch, txHash: context.txHash!, status: params.status.status === 'unknown' ? 'unknown' : 'pending' }),
      reportFailure: ({ context }, params: { stage: 'plan' | 'submit' | 'inclusion'; error: unknown }) =>
        deps.onProofOutcome({ kind: 'failed', epoch: context.job?.inputs.epoch, stage: params.stage, error: errorText(params.error) }),
      clearJob: assign({ job: undefined, txHash: undefined }),
    },
  }).createMachine({
    id: 'prover',
    context: { job: undefined, txHash: undefined, proofsSubmitted: 0, proofsIncluded: 0, lastWait: undefined },
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
      Planning: {
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
          onError: { target: 'Idle', actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'plan' as const, error: event.error }) } },
        },
      },
      Submitting: {
        invoke: {
          src: 'submit',
          input: ({ context }) => context.job!,
          onDone: { target: 'AwaitingL1Inclusion', actions: { type: 'recordSubmitted', params: ({ event }) => ({ txHash: event.output.txHash }) } },
          onError: { target: 'Idle', actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'submit' as const, error: event.error }) } },
        },
      },
      AwaitingL1Inclusion: { after: { pollInterval: 'CheckingInclusion' } },
      CheckingInclusion: {
        invoke: {
          src: 'inclusion',
          input: ({ context }) => context.txHash!,
          onDone: [
            {
              guard: { type: 'included', params: ({ event }) => ({ status: event.output }) },
              target: 'Idle',
              actions: [{ type: 'reportIncluded', params: ({ event }) => ({ status: event.output }) }, 'countIncluded'],
            },
            {
              guard: { type: 'lost', params: ({ event }) => ({ status: event.output }) },
              target: 'Idle',
              actions: { type: 'reportNotIncluded', params: ({ event }) => ({ status: event.output }) },
            },
            { guard: 'windowClosed', target: 'Idle', actions: { type: 'reportNotIncluded', params: ({ event }) => ({ status: event.output }) } },
            { target: 'AwaitingL1Inclusion' },
          ],
          onError: [
            { guard: 'windowClosed', target: 'Idle', actions: { type: 'reportFailure', params: ({ event }) => ({ stage: 'inclusion' as const, error: event.error }) } },
            { target: 'AwaitingL1Inclusion' },
          ],
        },
      },
      Paused: {
        entry: 'clearJob',
        on: { 'prover.resume': 'Idle', 'prover.pause': {} },
      },
      Stopped: { type: 'final' },
    },
  });
}
