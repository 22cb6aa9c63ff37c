/**
 * The node's operator controls (NodeAdmin): operational changes go through the operations machine, sequencer
 * control to the sequencer's machine, configuration to the config admin; each reports an `admin` activity.
 */
import { NodeError } from '../errors.js';
import type { NodeAdmin } from '../nodeService.js';
import type { SequencerActor } from '../sequencer/sequencerActor.js';
import type { ConfigAdmin, NodeActivity } from './node.js';
import type { NodeOperations } from './nodeOperations.js';

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
    if (!deps.sequencerActor) throw new NodeError('OPERATION_REFUSED', 'no sequencer runs on this node', { operation: 'sequencer control' });
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
