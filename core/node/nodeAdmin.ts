/**
 * The node's operator controls (NodeAdmin): operational changes go through the operations machine, sequencer
 * control to the sequencer's machine, configuration to the config admin; each reports an `admin` activity.
 */
import { NodeError } from '../errors.js';
import type { SequencerActor } from '../sequencer/sequencerActor.js';
import type { ConfigAdmin, NodeActivity } from './node.js';
import type { NodeOperations } from './nodeOperations.js';

/** The node's configuration as the admin API sees it: effective values, secrets redacted. */
export type AdminConfigView = Readonly<Record<string, unknown>>;

/** Operator controls (served on the admin port only). */
export interface NodeAdmin {
  /** Pauses the archiver (and world-state sync with it); a no-op when already paused. */
  pauseSync(): Promise<void>;
  resumeSync(): Promise<void>;
  /** OPERATION_REFUSED when this node runs no sequencer. Pending txs stay in the pool; no new blocks are built. */
  pauseSequencer(): Promise<void>;
  /** OPERATION_REFUSED when this node runs no sequencer. */
  resumeSequencer(): Promise<void>;
  getConfig(): AdminConfigView;
  /** Merges a validated partial configuration into the running node; refuses unknown keys (INVALID_PARAMS). */
  setConfig(patch: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * Rolls the chain, its indexes and the world state back to the target block, then resumes sync unless told not
   * to (spec: States). OPERATION_REFUSED above the proposed tip, below the finalized block without `force`, or while
   * another admin operation runs.
   */
  rollbackTo(targetBlockNumber: number, force: boolean, resumeSync: boolean): Promise<void>;
  /** Pauses sync and starts writing a backup of the database to `location`; returns at once. */
  startSnapshotUpload(location: string): Promise<void>;
  /** The node's operational state (Syncing, SyncPaused, RollingBack, UploadingSnapshot...). */
  operationalState(): string;
}

export interface NodeAdminDeps {
  readonly operations: NodeOperations;
  /** Undefined when this node runs no sequencer. */
  readonly sequencerActor: SequencerActor | undefined;
  readonly configAdmin: ConfigAdmin;
  readonly emit: (activity: NodeActivity) => void;
}

export function createNodeAdmin(deps: NodeAdminDeps): NodeAdmin {
  const { operations, configAdmin, emit } = deps;
  const requireSequencer = () => {
    if (!deps.sequencerActor)
      throw new NodeError('OPERATION_REFUSED', 'no sequencer runs on this node', { operation: 'sequencer control' });
    return deps.sequencerActor;
  };
  return {
    async pauseSync() {
      await operations.pauseSync();
      emit({ kind: 'admin', action: 'pauseSync' });
    },
    async resumeSync() {
      await operations.resumeSync();
      emit({ kind: 'admin', action: 'resumeSync' });
    },
    async rollbackTo(targetBlockNumber, force, resumeSync) {
      await operations.rollbackTo(targetBlockNumber, force, resumeSync);
      emit({ kind: 'admin', action: `rollbackTo ${targetBlockNumber}${force ? ' (forced)' : ''}` });
    },
    async startSnapshotUpload(location) {
      await operations.startSnapshotUpload(location);
      emit({ kind: 'admin', action: 'startSnapshotUpload' });
    },
    operationalState: () => operations.state(),
    async pauseSequencer() {
      requireSequencer().send({ type: 'admin.pauseSequencer' });
      emit({ kind: 'admin', action: 'pauseSequencer' });
    },
    async resumeSequencer() {
      requireSequencer().send({ type: 'admin.resumeSequencer' });
      emit({ kind: 'admin', action: 'resumeSequencer' });
    },
    getConfig: () => configAdmin.getConfig(),
    setConfig: async (patch) => configAdmin.setConfig(patch),
  };
}
