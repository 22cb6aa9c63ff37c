/**
 * The admin operations that change the node's operational state (pause and resume of sync, rollback, snapshot
 * upload), run through the operations machine (operationsMachine.ts) so that they never overlap.
 */
import { createActor, type Actor } from 'xstate';
import type { L1RollupConstants } from '../../spec/chain.js';
import type { Chain } from '../chain/chain.js';
import { NodeError, subsystemUnavailable } from '../errors.js';
import type { Archiver } from '../archiver/archiverActor.js';
import type { LoggerPort, NodePorts } from '../ports.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';
import {
  BUSY_REASON,
  createOperationsMachine,
  type OperationsEvent,
  type RollbackRequest,
} from './operationsMachine.js';
import { checkRollback, rollback, type RollbackDeps } from './rollback.js';
import { uploadDatabaseSnapshot } from './snapshotUpload.js';
import type { InboxStore } from '../messages/inboxStore.js';

export interface NodeOperationsDeps {
  readonly ports: Pick<NodePorts, 'l1' | 'storage' | 'snapshots' | 'clock' | 'metrics'>;
  readonly chain: Chain;
  readonly inbox: InboxStore;
  readonly txPool: NodeTxPool;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
  /** Its pause stops the archiver and waits until no sync step is in flight. */
  readonly archiver: Pick<Archiver, 'pause' | 'resume'>;
}

export interface NodeOperations {
  readonly actor: Actor<ReturnType<typeof createOperationsMachine>>;
  pauseSync(): Promise<void>;
  resumeSync(): Promise<void>;
  rollbackTo(targetBlockNumber: number, force: boolean, resumeSync: boolean): Promise<void>;
  startSnapshotUpload(location: string): Promise<void>;
  state(): string;
}

export function createNodeOperations(deps: NodeOperationsDeps): NodeOperations {
  const { ports, archiver, logger } = deps;
  const rollbackDeps: RollbackDeps = {
    chain: deps.chain,
    inbox: deps.inbox,
    txPool: deps.txPool,
    l1: ports.l1,
    constants: deps.constants,
    logger,
  };
  const actor = createActor(
    createOperationsMachine({
      pauseSync: () => archiver.pause(),
      resumeSync: async () => archiver.resume(),
      rollback: async (request) => {
        await archiver.pause();
        await rollback(rollbackDeps, request);
      },
      uploadSnapshot: async (location) => {
        await archiver.pause();
        const snapshotDeps = {
          storage: ports.storage,
          snapshots: ports.snapshots!,
          clock: ports.clock,
          logger,
          ...(ports.metrics !== undefined ? { metrics: ports.metrics } : {}),
        };
        await uploadDatabaseSnapshot(snapshotDeps, location);
      },
      // uploadDatabaseSnapshot logs the outcome, with its duration.
      onUploadFinished: () => undefined,
    }),
    { clock: ports.clock },
  );
  actor.start();

  /** Sends an operation to the machine and waits for its answer (a refusal arrives as OPERATION_REFUSED). */
  const request = (make: (settle: (error?: unknown) => void) => OperationsEvent): Promise<void> =>
    new Promise((resolve, reject) => {
      actor.send(
        make((error) => {
          if (error === undefined) resolve();
          else if (error instanceof Error && error.message === BUSY_REASON)
            reject(new NodeError('OPERATION_REFUSED', BUSY_REASON, { state: String(actor.getSnapshot().value) }));
          else reject(error);
        }),
      );
    });

  return {
    actor,
    pauseSync: () => request((settle) => ({ type: 'admin.pauseSync', settle })),
    resumeSync: () => request((settle) => ({ type: 'admin.resumeSync', settle })),
    rollbackTo(targetBlockNumber, force, resumeSync) {
      const rollbackRequest: RollbackRequest = { targetBlockNumber, force, resumeSync };
      checkRollback(deps.chain, rollbackRequest);
      return request((settle) => ({ type: 'admin.rollbackTo', request: rollbackRequest, settle }));
    },
    startSnapshotUpload(location) {
      if (ports.snapshots === undefined) throw subsystemUnavailable('snapshots', 'notEnabled');
      const problem = ports.snapshots.locationProblem(location);
      // The problem names the store without credentials; the location itself may hold them, so it is not echoed.
      if (problem !== undefined) throw new NodeError('INVALID_PARAMS', `location: ${problem}`, {});
      return request((settle) => ({ type: 'admin.startSnapshotUpload', location, settle }));
    },
    state: () => String(actor.getSnapshot().value),
  };
}
