import { assign, fromCallback, setup } from 'xstate';
import { ARCHIVER_RETRY_BACKOFF_MS_MAX } from '../../spec/constants.js';
import { CodedError } from '../../spec/errors.js';
import type { ClockPort, TimerId } from '../ports.js';
import type { SyncStepResult } from './syncStep.js';

export interface ArchiverMachineDeps {
  /** One sync step (syncStep.ts, bound to its ports). */
  readonly runSyncStep: () => Promise<SyncStepResult>;
  readonly pollIntervalMs: number;
  /** Times the wait between polls while following. */
  readonly clock: Pick<ClockPort, 'setTimeout' | 'clearTimeout'>;
}

export interface ArchiverContext {
  readonly lastStep: SyncStepResult | undefined;
  readonly consecutiveFailures: number;
  readonly lastError: string | undefined;
  /** The code of the last failure when it was a coded error (`L1_UNREACHABLE`, ...), while failures last. */
  readonly lastErrorCode: string | undefined;
  /** True once a step has reached the L1 head it saw. */
  readonly everCaughtUp: boolean;
}

export type ArchiverEvent = { type: 'admin.pauseSync' } | { type: 'admin.resumeSync' } | { type: 'archiver.stop' };

/** What the following loop tells the machine: a step that changed something, or the failure that ends the loop. */
type FollowEvent = { type: 'sync.progress'; step: SyncStepResult } | { type: 'sync.failed'; error: unknown };

/** Delay before retry n (1-based): the poll interval doubled per failure, capped. */
export function retryDelayMs(pollIntervalMs: number, consecutiveFailures: number): number {
  const exponent = Math.min(Math.max(consecutiveFailures - 1, 0), 16);
  return Math.min(pollIntervalMs * 2 ** exponent, ARCHIVER_RETRY_BACKOFF_MS_MAX);
}

/** Two step results that tell the same: same head seen, same position reached, nothing added, no unwind. */
function sameOutcome(a: SyncStepResult, b: SyncStepResult): boolean {
  return (
    a.caughtUp === b.caughtUp &&
    a.checkpointsAdded === 0 &&
    b.checkpointsAdded === 0 &&
    a.reorgUnwoundTo === undefined &&
    b.reorgUnwoundTo === undefined &&
    a.l1Head.hash === b.l1Head.hash &&
    a.syncedTo.blockNumber === b.syncedTo.blockNumber &&
    a.syncedTo.blockHash === b.syncedTo.blockHash
  );
}

/**
 * The following loop: runs a step; one that did not reach the L1 head it saw runs again at once, one that did waits
 * the poll interval first. A step whose outcome differs from the last reported one is reported (the first always
 * is); a failure is reported and ends the loop. Stopping the loop (leaving `Following`) cancels its wait; a step
 * already running finishes, unreported.
 *
 * The polls live here rather than as machine states: most polls find L1 where it was, and as states each cost a
 * transition out and back, an invoked actor and a delayed event, which was a tenth of a simulated node's time.
 */
function followL1(deps: ArchiverMachineDeps) {
  return fromCallback<FollowEvent>(({ sendBack }) => {
    let stopped = false;
    let timer: TimerId | undefined;
    let reported: SyncStepResult | undefined;
    const poll = (): void => {
      timer = undefined;
      deps.runSyncStep().then(
        (step) => {
          if (stopped) return;
          if (reported === undefined || !sameOutcome(reported, step)) {
            reported = step;
            sendBack({ type: 'sync.progress', step });
          }
          if (step.caughtUp) timer = deps.clock.setTimeout(poll, deps.pollIntervalMs);
          else poll();
        },
        (error: unknown) => {
          if (!stopped) sendBack({ type: 'sync.failed', error });
        },
      );
    };
    poll();
    return () => {
      stopped = true;
      if (timer !== undefined) deps.clock.clearTimeout(timer);
    };
  });
}

/**
 * L1 sync. `Following` runs the following loop (above), which steps through L1 and polls it once caught up; a
 * failed step waits in `Backoff`, longer after each consecutive failure, then follows again. Admin pause and resume
 * move to and from `Paused` from any running state.
 */
export function createArchiverMachine(deps: ArchiverMachineDeps) {
  return setup({
    types: {
      context: {} as ArchiverContext,
      events: {} as ArchiverEvent | FollowEvent,
    },
    actors: {
      followL1: followL1(deps),
    },
    delays: {
      retryDelay: ({ context }) => retryDelayMs(deps.pollIntervalMs, context.consecutiveFailures),
    },
    actions: {
      recordStep: assign(({ context }, params: { step: SyncStepResult }) => ({
        lastStep: params.step,
        consecutiveFailures: 0,
        lastError: undefined,
        lastErrorCode: undefined,
        everCaughtUp: context.everCaughtUp || params.step.caughtUp,
      })),
      recordFailure: assign(({ context }, params: { error: unknown }) => ({
        consecutiveFailures: context.consecutiveFailures + 1,
        lastError: params.error instanceof Error ? params.error.message : String(params.error),
        lastErrorCode: params.error instanceof CodedError ? params.error.code : undefined,
      })),
    },
  }).createMachine({
    id: 'archiver',
    context: {
      lastStep: undefined,
      consecutiveFailures: 0,
      lastError: undefined,
      lastErrorCode: undefined,
      everCaughtUp: false,
    },
    initial: 'Following',
    on: {
      'admin.pauseSync': { target: '.Paused' },
      'archiver.stop': { target: '.Stopped' },
    },
    states: {
      Following: {
        invoke: { src: 'followL1' },
        on: {
          'sync.progress': { actions: { type: 'recordStep', params: ({ event }) => ({ step: event.step }) } },
          'sync.failed': {
            target: 'Backoff',
            actions: { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) },
          },
        },
      },
      Backoff: { after: { retryDelay: 'Following' } },
      Paused: {
        on: {
          'admin.resumeSync': 'Following',
          'admin.pauseSync': {},
        },
      },
      Stopped: { type: 'final' },
    },
  });
}
