/**
 * The node's operational states (spec: States and transitions, operational states of the node), driven by the admin
 * API. `Syncing` and `SyncPaused` follow pauseSync / resumeSync. A rollback pauses sync, rolls the database back and
 * returns to `Syncing` or stays in `SyncPaused` (resumeSync false). A snapshot upload pauses sync while the backup is
 * taken and sent, then returns to the state it left. While a rollback or an upload runs, every other admin
 * operation that changes state is refused.
 *
 * The machine decides; the work (rolling back, uploading) runs in invoked actors through the deps. A request that
 * waits for its outcome (rollbackTo) carries a settle callback that the machine calls when the work ends.
 */
import { assign, fromPromise, setup } from 'xstate';

export interface RollbackRequest {
  readonly targetBlockNumber: number;
  readonly force: boolean;
  readonly resumeSync: boolean;
}

export interface OperationsDeps {
  readonly pauseSync: () => Promise<void>;
  readonly resumeSync: () => Promise<void>;
  readonly rollback: (request: RollbackRequest) => Promise<void>;
  readonly uploadSnapshot: (location: string) => Promise<void>;
  /** Reports the end of a background upload (there is no caller waiting for it). */
  readonly onUploadFinished: (location: string, error: unknown) => void;
}

export type Settle = (error?: unknown) => void;

export type OperationsEvent =
  | { readonly type: 'admin.pauseSync'; readonly settle: Settle }
  | { readonly type: 'admin.resumeSync'; readonly settle: Settle }
  | { readonly type: 'admin.rollbackTo'; readonly request: RollbackRequest; readonly settle: Settle }
  | { readonly type: 'admin.startSnapshotUpload'; readonly location: string; readonly settle: Settle };

interface OperationsContext {
  /** The caller waiting for the rollback in progress. */
  readonly pendingSettle: Settle | undefined;
  readonly rollback: RollbackRequest | undefined;
  readonly uploadLocation: string | undefined;
  /** Where an upload returns when it ends. */
  readonly resumeAfterUpload: boolean;
}

/** Why an admin operation is refused while another runs. */
export const BUSY_REASON =
  'another admin operation (a rollback, a snapshot upload, or a pause or resume of sync) is in progress';

/** The operations machine's actors (its work, through the deps), guards and actions; the state config names them. */
function operationsMachineSetup(deps: OperationsDeps) {
  return setup({
    types: { context: {} as OperationsContext, events: {} as OperationsEvent },
    actors: {
      pause: fromPromise(() => deps.pauseSync()),
      resume: fromPromise(() => deps.resumeSync()),
      rollback: fromPromise<void, RollbackRequest>(({ input }) => deps.rollback(input)),
      upload: fromPromise<void, string>(({ input }) => deps.uploadSnapshot(input)),
    },
    guards: {
      resumesAfterRollback: ({ context }) => context.rollback?.resumeSync === true,
      resumesAfterUpload: ({ context }) => context.resumeAfterUpload,
    },
    actions: {
      settleNow: (_, params: { settle: Settle }) => params.settle(),
      refuseBusy: (_, params: { settle: Settle }) => params.settle(new Error(BUSY_REASON)),
      settlePending: ({ context }, params: { error?: unknown }) => context.pendingSettle?.(params.error),
      recordRollback: assign((_, params: { request: RollbackRequest; settle: Settle }) => ({
        rollback: params.request,
        pendingSettle: params.settle,
      })),
      recordUpload: assign((_, params: { location: string; resumeAfter: boolean }) => ({
        uploadLocation: params.location,
        resumeAfterUpload: params.resumeAfter,
      })),
      reportUpload: ({ context }, params: { error?: unknown }) =>
        deps.onUploadFinished(context.uploadLocation ?? '', params.error),
      clear: assign(() => ({ pendingSettle: undefined, rollback: undefined, uploadLocation: undefined })),
    },
  });
}

export function createOperationsMachine(deps: OperationsDeps) {
  return operationsMachineSetup(deps).createMachine({
    id: 'operations',
    context: { pendingSettle: undefined, rollback: undefined, uploadLocation: undefined, resumeAfterUpload: true },
    initial: 'Syncing',
    states: {
      Syncing: {
        on: {
          'admin.pauseSync': {
            target: 'Pausing',
            actions: { type: 'settleNow', params: ({ event }) => ({ settle: event.settle }) },
          },
          'admin.resumeSync': { actions: { type: 'settleNow', params: ({ event }) => ({ settle: event.settle }) } },
          'admin.rollbackTo': {
            target: 'RollingBack',
            actions: { type: 'recordRollback', params: ({ event }) => event },
          },
          'admin.startSnapshotUpload': {
            target: 'UploadingSnapshot',
            actions: [
              { type: 'recordUpload', params: ({ event }) => ({ location: event.location, resumeAfter: true }) },
              { type: 'settleNow', params: ({ event }) => ({ settle: event.settle }) },
            ],
          },
        },
      },
      Pausing: { invoke: { src: 'pause', onDone: 'SyncPaused', onError: 'SyncPaused' }, on: busyRefusals() },
      SyncPaused: {
        on: {
          'admin.pauseSync': { actions: { type: 'settleNow', params: ({ event }) => ({ settle: event.settle }) } },
          'admin.resumeSync': {
            target: 'Resuming',
            actions: { type: 'settleNow', params: ({ event }) => ({ settle: event.settle }) },
          },
          'admin.rollbackTo': {
            target: 'RollingBack',
            actions: { type: 'recordRollback', params: ({ event }) => event },
          },
          'admin.startSnapshotUpload': {
            target: 'UploadingSnapshot',
            actions: [
              { type: 'recordUpload', params: ({ event }) => ({ location: event.location, resumeAfter: false }) },
              { type: 'settleNow', params: ({ event }) => ({ settle: event.settle }) },
            ],
          },
        },
      },
      Resuming: { invoke: { src: 'resume', onDone: 'Syncing', onError: 'Syncing' }, on: busyRefusals() },
      RollingBack: {
        invoke: {
          src: 'rollback',
          input: ({ context }) => context.rollback!,
          onDone: [
            {
              guard: 'resumesAfterRollback',
              target: 'Resuming',
              actions: [{ type: 'settlePending', params: {} }, 'clear'],
            },
            { target: 'SyncPaused', actions: [{ type: 'settlePending', params: {} }, 'clear'] },
          ],
          // A failed rollback leaves sync paused: the operator decides what to do next.
          onError: {
            target: 'SyncPaused',
            actions: [{ type: 'settlePending', params: ({ event }) => ({ error: event.error }) }, 'clear'],
          },
        },
        on: busyRefusals(),
      },
      UploadingSnapshot: {
        invoke: {
          src: 'upload',
          input: ({ context }) => context.uploadLocation!,
          onDone: [
            {
              guard: 'resumesAfterUpload',
              target: 'Resuming',
              actions: [{ type: 'reportUpload', params: {} }, 'clear'],
            },
            { target: 'SyncPaused', actions: [{ type: 'reportUpload', params: {} }, 'clear'] },
          ],
          onError: [
            {
              guard: 'resumesAfterUpload',
              target: 'Resuming',
              actions: [{ type: 'reportUpload', params: ({ event }) => ({ error: event.error }) }, 'clear'],
            },
            {
              target: 'SyncPaused',
              actions: [{ type: 'reportUpload', params: ({ event }) => ({ error: event.error }) }, 'clear'],
            },
          ],
        },
        on: busyRefusals(),
      },
    },
  });
}

/** The states with an operation in progress, where every admin operation is refused at once (busyRefusals). */
export const OPERATION_IN_PROGRESS_STATES: readonly string[] = [
  'Pausing',
  'Resuming',
  'RollingBack',
  'UploadingSnapshot',
];

/** In a busy state every admin operation is refused at once. */
function busyRefusals() {
  const refuse = {
    actions: {
      type: 'refuseBusy' as const,
      params: ({ event }: { event: OperationsEvent }) => ({ settle: event.settle }),
    },
  };
  return {
    'admin.pauseSync': refuse,
    'admin.resumeSync': refuse,
    'admin.rollbackTo': refuse,
    'admin.startSnapshotUpload': refuse,
  };
}
