import { assign, fromPromise, setup } from 'xstate';
import { ARCHIVER_RETRY_BACKOFF_MS_MAX } from '../../spec/constants.js';
import type { SyncStepResult } from './syncStep.js';

export interface ArchiverMachineDeps {
  /** One sync step (syncStep.ts, bound to its ports). */
  readonly runSyncStep: () => Promise<SyncStepResult>;
  readonly pollIntervalMs: number;
}

export interface ArchiverContext {
  readonly lastStep: SyncStepResult | undefined;
  readonly consecutiveFailures: number;
  readonly lastError: string | undefined;
  /** True once a step has reached the L1 head it saw. */
  readonly everCaughtUp: boolean;
}

export type ArchiverEvent = { type: 'admin.pauseSync' } | { type: 'admin.resumeSync' } | { type: 'archiver.stop' };

/** Delay before retry n (1-based): the poll interval doubled per failure, capped. */
export function retryDelayMs(pollIntervalMs: number, consecutiveFailures: number): number {
  const exponent = Math.min(Math.max(consecutiveFailures - 1, 0), 16);
  return Math.min(pollIntervalMs * 2 ** exponent, ARCHIVER_RETRY_BACKOFF_MS_MAX);
}

/**
 * L1 sync. `Syncing` runs one step; a step that did not reach the L1 head runs again at once, one that did waits
 * in `Idle` for the poll interval; a failed step waits in `Backoff`, longer after each consecutive failure.
 * Admin pause and resume move to and from `Paused` from any running state.
 */
export function createArchiverMachine(deps: ArchiverMachineDeps) {
  return setup({
    types: {
      context: {} as ArchiverContext,
      events: {} as ArchiverEvent,
    },
    actors: {
      syncStep: fromPromise<SyncStepResult>(() => deps.runSyncStep()),
    },
    guards: {
      caughtUp: (_, params: { step: SyncStepResult }) => params.step.caughtUp,
    },
    delays: {
      pollInterval: () => deps.pollIntervalMs,
      retryDelay: ({ context }) => retryDelayMs(deps.pollIntervalMs, context.consecutiveFailures),
    },
    actions: {
      recordStep: assign(({ context }, params: { step: SyncStepResult }) => ({
        lastStep: params.step,
        consecutiveFailures: 0,
        lastError: undefined,
        everCaughtUp: context.everCaughtUp || params.step.caughtUp,
      })),
      recordFailure: assign(({ context }, params: { error: unknown }) => ({
        consecutiveFailures: context.consecutiveFailures + 1,
        lastError: params.error instanceof Error ? params.error.message : String(params.error),
      })),
    },
  }).createMachine({
    id: 'archiver',
    context: { lastStep: undefined, consecutiveFailures: 0, lastError: undefined, everCaughtUp: false },
    initial: 'Syncing',
    on: {
      'admin.pauseSync': { target: '.Paused' },
      'archiver.stop': { target: '.Stopped' },
    },
    states: {
      Syncing: {
        invoke: {
          src: 'syncStep',
          onDone: [
            {
              guard: { type: 'caughtUp', params: ({ event }) => ({ step: event.output }) },
              target: 'Idle',
              actions: { type: 'recordStep', params: ({ event }) => ({ step: event.output }) },
            },
            { target: 'Syncing', reenter: true, actions: { type: 'recordStep', params: ({ event }) => ({ step: event.output }) } },
          ],
          onError: { target: 'Backoff', actions: { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      Idle: { after: { pollInterval: 'Syncing' } },
      Backoff: { after: { retryDelay: 'Syncing' } },
      Paused: {
        on: {
          'admin.resumeSync': 'Syncing',
          'admin.pauseSync': {},
        },
      },
      Stopped: { type: 'final' },
    },
  });
}
