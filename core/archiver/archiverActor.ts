import { createActor, type Actor } from 'xstate';
import type { L1RollupConstants } from '../../spec/chain.js';
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
        });
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
