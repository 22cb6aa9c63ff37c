import { createActor, type Actor } from 'xstate';
import type { L1RollupConstants } from '../../spec/chain.js';
import { CodedError } from '../../spec/errors.js';
import type { BlobSourceChain } from '../blobs/blobSourceChain.js';
import type { Chain } from '../chain/chain.js';
import type { InboxStore } from '../messages/inboxStore.js';
import type { LoggerPort, NodePorts } from '../ports.js';
import { createArchiverMachine } from './archiverMachine.js';
import { runSyncStep, type SyncStepDeps } from './syncStep.js';

export type ArchiverActor = Actor<ReturnType<typeof createArchiverMachine>>;

export interface ArchiverOptions {
  readonly ports: Pick<NodePorts, 'l1' | 'clock'>;
  /** Where proposals' blobs are read from. */
  readonly blobs: BlobSourceChain;
  readonly chain: Chain;
  readonly inbox: InboxStore;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
  /** The committee's quorum check on synced checkpoints; absent when the node ignores the validator set. */
  readonly quorum: SyncStepDeps['quorum'];
  /** Read on every wait, so a configuration change applies to the next one. */
  readonly pollIntervalMs: () => number;
}

/** The node's archiver (not started): its machine, and the pause that waits for the sync step in flight. */
export interface Archiver {
  readonly actor: ArchiverActor;
  /** Pauses sync, then waits for the step in flight, so that nothing it read before the pause lands after. */
  pause(): Promise<void>;
  resume(): void;
}

/** The node's archiver subsystem: the archiver machine running sync steps from the L1 reader into the chain and the inbox. */
export function createArchiver(options: ArchiverOptions): Archiver {
  const { ports, blobs, chain, inbox, constants, logger, quorum } = options;
  // The sync step in flight, if any: a pause waits for it.
  let syncInFlight: Promise<unknown> = Promise.resolve();
  let consecutiveFailures = 0;
  const actor = createActor(
    createArchiverMachine({
      runSyncStep: () => {
        const step = runSyncStep({
          l1: ports.l1,
          blobs,
          chain,
          inbox,
          constants,
          logger,
          ...(quorum ? { quorum } : {}),
        }).then(
          (result) => {
            consecutiveFailures = 0;
            return result;
          },
          (error: unknown) => {
            consecutiveFailures++;
            // A step that fails once the archiver left `Following` (paused, stopped) is dropped by the machine.
            if (actor.getSnapshot().matches('Following')) logSyncFailure(logger, error, consecutiveFailures);
            throw error;
          },
        );
        syncInFlight = step.catch(() => undefined);
        return step;
      },
      get pollIntervalMs() {
        return options.pollIntervalMs();
      },
      clock: ports.clock,
    }),
    { clock: ports.clock },
  );
  return {
    actor,
    async pause() {
      actor.send({ type: 'admin.pauseSync' });
      await syncInFlight;
    },
    resume: () => actor.send({ type: 'admin.resumeSync' }),
  };
}

/**
 * Says why sync does not progress (L1 unreachable, a checkpoint's blobs in no source, ...): the machine retries after
 * a backoff that grows with each consecutive failure, up to ARCHIVER_RETRY_BACKOFF_MS_MAX, so this logs at most
 * one line per retry.
 */
function logSyncFailure(logger: LoggerPort, error: unknown, consecutiveFailures: number): void {
  logger.warn('sync step failed; retrying after a backoff', {
    ...(error instanceof CodedError ? { code: error.code } : {}),
    error: error instanceof Error ? error.message : String(error),
    consecutiveFailures,
  });
}
