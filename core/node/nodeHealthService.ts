/**
 * The health part of NodeService (`GET /status`): gathers the facts of core/node/nodeHealth.ts from the node's parts
 * (the archiver's machine, the chain's tips, sync position and last commit, the storage port's state, the network's
 * peers) and judges them by the operator's thresholds. Reading it changes nothing but the time a peer was last seen.
 */
import type { Hex } from '../../spec/chain.js';
import { STATUS_PEERLESS_SECONDS_MAX_DEFAULT, STATUS_SYNC_LAG_SLOTS_MAX_DEFAULT } from '../../spec/config/schema.js';
import type { Archiver } from '../archiver/archiverActor.js';
import type { Chain } from '../chain/chain.js';
import type { Timetable } from '../chain/timetable.js';
import type { ClockPort, NetworkPort, NodePorts, StoragePort } from '../ports.js';
import type { NodeLifecycle } from './nodeLifecycle.js';
import {
  assessNodeHealth,
  syncLagSlots,
  type NodeHealth,
  type NodeHealthFacts,
  type NodeHealthThresholds,
  type PeerHealthFacts,
  type SyncHealthFacts,
} from './nodeHealth.js';

/** What `GET /status` shows: the verdict with its reasons, and the figures behind it. */
export interface NodeHealthReport extends NodeHealth {
  /** Block numbers of the node's tips. */
  readonly tips: {
    readonly proposed: number;
    readonly checkpointed: number;
    readonly proven: number;
    readonly finalized: number;
  };
  readonly l1: {
    /** The L1 block the node has synced up to, and its L2 slot; undefined before any. */
    readonly syncedBlock: bigint | undefined;
    readonly syncedBlockHash: Hex | undefined;
    readonly syncedSlot: number | undefined;
    /** The L1 head the last successful sync step saw, and its L2 slot; undefined before the first. */
    readonly headBlock: bigint | undefined;
    readonly headSlot: number | undefined;
    readonly lagSlots: number;
  };
  /** Connected peers, on a node with P2P. */
  readonly peers?: number;
  /** State names of the node's machines. */
  readonly subsystems: Readonly<Record<string, string | undefined>>;
}

export interface NodeHealthService {
  check(): NodeHealthReport;
  /** Ready to accept transactions (svc_isReady): started, and synced to the L1 head seen at some sync step. */
  ready(): boolean;
}

/** The node's parts the facts are read from. */
export interface NodeHealthParts {
  readonly chain: Chain;
  readonly timetable: Timetable;
  readonly archiver: Pick<Archiver, 'actor'>;
  readonly lifecycle: Pick<NodeLifecycle, 'started' | 'machineStates'>;
}

const MS_PER_SECOND = 1_000;

/** The health thresholds when the configuration gives none: a node given a network needs peers. */
export const NODE_HEALTH_THRESHOLDS_DEFAULT: NodeHealthThresholds = {
  syncLagSlotsMax: STATUS_SYNC_LAG_SLOTS_MAX_DEFAULT,
  peerlessMsMax: STATUS_PEERLESS_SECONDS_MAX_DEFAULT * MS_PER_SECOND,
};

/** `thresholds` is read on every check, so a configuration change applies to the next. */
export function createNodeHealthService(
  ports: Pick<NodePorts, 'clock' | 'storage' | 'network'>,
  parts: NodeHealthParts,
  thresholds: () => NodeHealthThresholds | undefined,
): NodeHealthService {
  const { chain, timetable, lifecycle } = parts;
  const archiverActor = parts.archiver.actor;
  const peers = ports.network !== undefined ? peerTracker(ports.network, ports.clock) : undefined;
  const syncFacts = (): SyncHealthFacts => {
    const { value, context } = archiverActor.getSnapshot();
    const synced = chain.l1Sync;
    return {
      archiverState: String(value),
      consecutiveFailures: context.consecutiveFailures,
      lastErrorCode: context.lastErrorCode,
      lastError: context.lastError,
      l1HeadSlot: context.lastStep !== undefined ? timetable.slotAt(context.lastStep.l1Head.timestamp) : undefined,
      syncedSlot: synced !== undefined ? timetable.slotAt(synced.timestamp) : undefined,
    };
  };
  return {
    ready: () => lifecycle.started && archiverActor.getSnapshot().context.everCaughtUp,
    check() {
      const facts: NodeHealthFacts = {
        nowMs: ports.clock.now(),
        sync: syncFacts(),
        databaseFailure: databaseFailure(chain, ports.storage),
        p2p: peers?.facts(),
      };
      const { tips } = chain;
      const lastStep = archiverActor.getSnapshot().context.lastStep;
      return {
        ...assessNodeHealth(facts, thresholds() ?? NODE_HEALTH_THRESHOLDS_DEFAULT),
        tips: {
          proposed: tips.proposed.number,
          checkpointed: tips.checkpointed.block.number,
          proven: tips.proven.block.number,
          finalized: tips.finalized.block.number,
        },
        l1: {
          syncedBlock: chain.l1Sync?.blockNumber,
          syncedBlockHash: chain.l1Sync?.blockHash,
          syncedSlot: facts.sync.syncedSlot,
          headBlock: lastStep?.l1Head.number,
          headSlot: facts.sync.l1HeadSlot,
          lagSlots: syncLagSlots(facts.sync),
        },
        ...(facts.p2p !== undefined ? { peers: facts.p2p.connectedPeers } : {}),
        subsystems: lifecycle.machineStates(),
      };
    },
  };
}

/** The last failed commit, else a database that is no longer open (closed under the node, or failed to reopen). */
function databaseFailure(chain: Chain, storage: StoragePort): string | undefined {
  if (chain.commitFailure !== undefined) return chain.commitFailure;
  return storage.status === 'open' ? undefined : `the database is ${storage.status}`;
}

/**
 * When a connected peer was last seen. Sampled at each check (the probes' period), so a peerless spell is measured
 * from the last check that saw a peer, or from the node's creation when none has.
 */
function peerTracker(network: NetworkPort, clock: ClockPort): { facts(): PeerHealthFacts } {
  let lastPeerSeenAtMs = clock.now();
  return {
    facts() {
      const connectedPeers = network.peers(false).filter((peer) => peer.status === 'connected').length;
      if (connectedPeers > 0) lastPeerSeenAtMs = clock.now();
      return { connectedPeers, lastPeerSeenAtMs };
    },
  };
}
