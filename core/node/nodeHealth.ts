/**
 * The health rule behind `GET /status`: from facts the node already knows (its L1 sync, its database, its peers), is
 * it healthy, and if not, why. Pure: the facts are gathered by core/node/nodeHealthService.ts, the answer is shaped
 * into HTTP by adapters/rpc/statusRoutes.ts.
 */

/** What an operator tunes (`--status.maxSyncLagSlots`, `--status.maxPeerlessSeconds`). */
export interface NodeHealthThresholds {
  /** Slots the synced L1 position may trail the L1 head the node last saw before the node is unhealthy. */
  readonly syncLagSlotsMax: number;
  /**
   * How long a node with P2P may go without a connected peer before it is unhealthy, in milliseconds; undefined when
   * the node needs no peers (P2P off, or the single-process local network's in-process bus).
   */
  readonly peerlessMsMax: number | undefined;
}

/** The node's L1 sync as the archiver last left it. */
export interface SyncHealthFacts {
  /** The archiver machine's state (`Following`, `Backoff`, `Paused`, `Stopped`). */
  readonly archiverState: string;
  /** Sync steps failed in a row since the last one that succeeded; 0 when the last one succeeded. */
  readonly consecutiveFailures: number;
  /** The last failure's error code (`L1_UNREACHABLE`, ...) and message, while failures last. */
  readonly lastErrorCode: string | undefined;
  readonly lastError: string | undefined;
  /** The L2 slot of the L1 head the last successful step saw; undefined before the first one. */
  readonly l1HeadSlot: number | undefined;
  /** The L2 slot of the L1 block the node has committed its sync up to; undefined before any. */
  readonly syncedSlot: number | undefined;
}

export interface PeerHealthFacts {
  readonly connectedPeers: number;
  /** When a connected peer was last seen (or P2P started, if never), on the node's clock. */
  readonly lastPeerSeenAtMs: number;
}

export interface NodeHealthFacts {
  /** Now, on the node's clock. */
  readonly nowMs: number;
  readonly sync: SyncHealthFacts;
  /** Why the last database write failed, while no later one has succeeded; undefined when none failed. */
  readonly databaseFailure: string | undefined;
  /** Present exactly when the node runs P2P. */
  readonly p2p: PeerHealthFacts | undefined;
}

/** One reason the node is unhealthy. */
export type NodeHealthReason =
  | { readonly kind: 'l1Unreachable'; readonly consecutiveFailures: number; readonly error: string }
  | {
      readonly kind: 'syncFailing';
      readonly consecutiveFailures: number;
      readonly code: string | undefined;
      readonly error: string;
    }
  | { readonly kind: 'syncBehind'; readonly lagSlots: number; readonly lagSlotsMax: number }
  | { readonly kind: 'syncStopped' }
  | { readonly kind: 'databaseFailed'; readonly error: string }
  | { readonly kind: 'noPeers'; readonly peerlessMs: number; readonly peerlessMsMax: number };

export type NodeHealthReasonKind = NodeHealthReason['kind'];

export interface NodeHealth {
  /** True exactly when `reasons` is empty. */
  readonly healthy: boolean;
  readonly reasons: readonly NodeHealthReason[];
}

/** The L1 error code that means no configured L1 endpoint answered. */
const L1_UNREACHABLE_CODE = 'L1_UNREACHABLE';

/** How many slots the synced position trails the L1 head last seen; 0 before the head is known. */
export function syncLagSlots(sync: Pick<SyncHealthFacts, 'l1HeadSlot' | 'syncedSlot'>): number {
  if (sync.l1HeadSlot === undefined) return 0;
  return Math.max(0, sync.l1HeadSlot - Math.max(0, sync.syncedSlot ?? 0));
}

function syncReasons(sync: SyncHealthFacts, thresholds: NodeHealthThresholds): NodeHealthReason[] {
  const reasons: NodeHealthReason[] = [];
  if (sync.archiverState === 'Stopped') reasons.push({ kind: 'syncStopped' });
  if (sync.consecutiveFailures > 0) {
    const error = sync.lastError ?? 'unknown error';
    reasons.push(
      sync.lastErrorCode === L1_UNREACHABLE_CODE
        ? { kind: 'l1Unreachable', consecutiveFailures: sync.consecutiveFailures, error }
        : { kind: 'syncFailing', consecutiveFailures: sync.consecutiveFailures, code: sync.lastErrorCode, error },
    );
  }
  const lagSlots = syncLagSlots(sync);
  if (lagSlots > thresholds.syncLagSlotsMax)
    reasons.push({ kind: 'syncBehind', lagSlots, lagSlotsMax: thresholds.syncLagSlotsMax });
  return reasons;
}

/**
 * Healthy, or every reason it is not: the last sync step failed (L1 unreachable, or another failure), the archiver
 * stopped, the synced position trails the L1 head by more than `syncLagSlotsMax` slots, the last database write
 * failed, or a node that needs peers has had no connected peer for more than `peerlessMsMax`. A sync paused by the
 * operator is not a reason: the operator asked for it.
 */
export function assessNodeHealth(facts: NodeHealthFacts, thresholds: NodeHealthThresholds): NodeHealth {
  const reasons = syncReasons(facts.sync, thresholds);
  if (facts.databaseFailure !== undefined) reasons.push({ kind: 'databaseFailed', error: facts.databaseFailure });
  const { peerlessMsMax } = thresholds;
  if (facts.p2p !== undefined && peerlessMsMax !== undefined && facts.p2p.connectedPeers === 0) {
    const peerlessMs = Math.max(0, facts.nowMs - facts.p2p.lastPeerSeenAtMs);
    if (peerlessMs > peerlessMsMax) reasons.push({ kind: 'noPeers', peerlessMs, peerlessMsMax });
  }
  return { healthy: reasons.length === 0, reasons };
}

/** One sentence an operator can act on, for the status body and logs. */
export function describeHealthReason(reason: NodeHealthReason): string {
  switch (reason.kind) {
    case 'l1Unreachable':
      return `L1 is unreachable (${reason.consecutiveFailures} sync steps failed in a row): ${reason.error}`;
    case 'syncFailing':
      return `L1 sync is failing (${reason.consecutiveFailures} steps in a row): ${reason.error}`;
    case 'syncBehind':
      return `sync is ${reason.lagSlots} slots behind the L1 head (at most ${reason.lagSlotsMax} allowed)`;
    case 'syncStopped':
      return 'L1 sync has stopped';
    case 'databaseFailed':
      return `the database failed: ${reason.error}`;
    case 'noPeers':
      return `no connected peer for ${Math.floor(reason.peerlessMs / 1000)} s (at most ${Math.floor(reason.peerlessMsMax / 1000)} s allowed)`;
  }
}
