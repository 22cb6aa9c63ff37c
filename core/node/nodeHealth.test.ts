import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assessNodeHealth,
  describeHealthReason,
  syncLagSlots,
  type NodeHealthFacts,
  type NodeHealthReasonKind,
  type NodeHealthThresholds,
} from './nodeHealth.js';

const ARCHIVER_STATES = ['Following', 'Backoff', 'Paused', 'Stopped'] as const;
const ERROR_CODES = ['L1_UNREACHABLE', 'L1_BLOBS_UNAVAILABLE', 'CHECKPOINT_INVALID', undefined] as const;

const thresholdsArbitrary: fc.Arbitrary<NodeHealthThresholds> = fc.record({
  syncLagSlotsMax: fc.nat({ max: 50 }),
  peerlessMsMax: fc.option(fc.nat({ max: 600_000 }), { nil: undefined }),
});

const factsArbitrary: fc.Arbitrary<NodeHealthFacts> = fc.record({
  nowMs: fc.nat({ max: 10_000_000 }),
  sync: fc.record({
    archiverState: fc.constantFrom(...ARCHIVER_STATES),
    consecutiveFailures: fc.oneof(fc.constant(0), fc.nat({ max: 20 })),
    lastErrorCode: fc.constantFrom(...ERROR_CODES),
    lastError: fc.option(fc.string(), { nil: undefined }),
    l1HeadSlot: fc.option(fc.nat({ max: 200 }), { nil: undefined }),
    syncedSlot: fc.option(fc.integer({ min: -1, max: 200 }), { nil: undefined }),
  }),
  databaseFailure: fc.option(fc.string(), { nil: undefined }),
  p2p: fc.option(fc.record({ connectedPeers: fc.nat({ max: 3 }), lastPeerSeenAtMs: fc.nat({ max: 10_000_000 }) }), {
    nil: undefined,
  }),
});

const kindsOf = (facts: NodeHealthFacts, thresholds: NodeHealthThresholds): Set<NodeHealthReasonKind> =>
  new Set(assessNodeHealth(facts, thresholds).reasons.map((reason) => reason.kind));

describe('the node health rule', () => {
  it('is healthy exactly when no rule is broken, and names each broken rule once', () => {
    fc.assert(
      fc.property(factsArbitrary, thresholdsArbitrary, (facts, thresholds) => {
        const health = assessNodeHealth(facts, thresholds);
        const kinds = health.reasons.map((reason) => reason.kind);
        const { sync, p2p } = facts;
        const failing = sync.consecutiveFailures > 0;
        const peerlessMsMax = thresholds.peerlessMsMax ?? Infinity;
        const expected = new Set<NodeHealthReasonKind>([
          ...(failing && sync.lastErrorCode === 'L1_UNREACHABLE' ? (['l1Unreachable'] as const) : []),
          ...(failing && sync.lastErrorCode !== 'L1_UNREACHABLE' ? (['syncFailing'] as const) : []),
          ...(sync.archiverState === 'Stopped' ? (['syncStopped'] as const) : []),
          ...(syncLagSlots(sync) > thresholds.syncLagSlotsMax ? (['syncBehind'] as const) : []),
          ...(facts.databaseFailure !== undefined ? (['databaseFailed'] as const) : []),
          ...(p2p !== undefined && p2p.connectedPeers === 0 && facts.nowMs - p2p.lastPeerSeenAtMs > peerlessMsMax
            ? (['noPeers'] as const)
            : []),
        ]);
        expect(new Set(kinds)).toEqual(expected);
        expect(kinds.length).toBe(expected.size);
        expect(health.healthy).toBe(kinds.length === 0);
        for (const reason of health.reasons) expect(describeHealthReason(reason).length).toBeGreaterThan(0);
      }),
    );
  });

  it('never finds a new reason when a threshold is raised', () => {
    fc.assert(
      fc.property(
        factsArbitrary,
        thresholdsArbitrary,
        fc.nat({ max: 20 }),
        fc.nat({ max: 60_000 }),
        (facts, t, a, b) => {
          const looser = {
            syncLagSlotsMax: t.syncLagSlotsMax + a,
            peerlessMsMax: t.peerlessMsMax === undefined ? undefined : t.peerlessMsMax + b,
          };
          const strict = kindsOf(facts, t);
          for (const kind of kindsOf(facts, looser)) expect(strict.has(kind)).toBe(true);
        },
      ),
    );
  });

  it('a connected peer, a node without P2P, or one that needs no peers never has the no-peer reason', () => {
    fc.assert(
      fc.property(factsArbitrary, thresholdsArbitrary, fc.integer({ min: 1, max: 5 }), (facts, thresholds, peers) => {
        const withPeers = facts.p2p ? { ...facts, p2p: { ...facts.p2p, connectedPeers: peers } } : facts;
        expect(kindsOf(withPeers, thresholds).has('noPeers')).toBe(false);
        expect(kindsOf({ ...facts, p2p: undefined }, thresholds).has('noPeers')).toBe(false);
        expect(kindsOf(facts, { ...thresholds, peerlessMsMax: undefined }).has('noPeers')).toBe(false);
      }),
    );
  });

  it('an L1 that stops answering makes a synced node unhealthy; its return makes it healthy again', () => {
    const thresholds = { syncLagSlotsMax: 4, peerlessMsMax: 300_000 };
    const synced: NodeHealthFacts = {
      nowMs: 1_000,
      sync: {
        archiverState: 'Following',
        consecutiveFailures: 0,
        lastErrorCode: undefined,
        lastError: undefined,
        l1HeadSlot: 10,
        syncedSlot: 10,
      },
      databaseFailure: undefined,
      p2p: undefined,
    };
    expect(assessNodeHealth(synced, thresholds)).toEqual({ healthy: true, reasons: [] });
    const down = {
      ...synced,
      sync: {
        ...synced.sync,
        archiverState: 'Backoff',
        consecutiveFailures: 2,
        lastErrorCode: 'L1_UNREACHABLE',
        lastError: 'no answer',
      },
    };
    expect(assessNodeHealth(down, thresholds).reasons).toEqual([
      { kind: 'l1Unreachable', consecutiveFailures: 2, error: 'no answer' },
    ]);
    expect(assessNodeHealth(synced, thresholds).healthy).toBe(true);
  });
});
