import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PeerOffenseSeverity } from '../ports.js';
import {
  combineVerdicts,
  PEER_BAN_MS,
  PEER_PENALTY_POINTS,
  PEER_SCORE_BAN_BELOW,
  PEER_SCORE_DECAY_PER_MINUTE,
  PEER_SCORE_DISCONNECT_BELOW,
  PEER_SCORES_TRACKED_MAX,
  PeerScores,
} from './peerScores.js';

const severity = fc.constantFrom<PeerOffenseSeverity>('low', 'mid', 'high');
/** Offenses of a few peers at increasing times. */
const offenses = fc.array(
  fc.record({ peer: fc.constantFrom('p1', 'p2', 'p3'), severity, afterMs: fc.integer({ min: 0, max: 600_000 }) }),
  { maxLength: 40 },
);

function scoresAfter(list: readonly { peer: string; severity: PeerOffenseSeverity; afterMs: number }[]) {
  const scores = new PeerScores();
  let nowMs = 0;
  for (const offense of list) {
    nowMs += offense.afterMs;
    scores.penalize(offense.peer, offense.severity, nowMs);
  }
  return { scores, nowMs };
}

describe('peer scores', () => {
  it('takes each penalty off and decays by the factor per minute', () => {
    const scores = new PeerScores();
    expect(scores.score('p', 0)).toBe(0);
    scores.penalize('p', 'mid', 0);
    expect(scores.score('p', 0)).toBe(-PEER_PENALTY_POINTS.mid);
    expect(scores.score('p', 60_000)).toBeCloseTo(-PEER_PENALTY_POINTS.mid * PEER_SCORE_DECAY_PER_MINUTE, 9);
    // Time going backwards (a clock stepped back) does not grow a penalty.
    expect(scores.score('p', -60_000)).toBe(-PEER_PENALTY_POINTS.mid);
  });

  it('property: decay never lifts a score above 0, and moves it monotonically towards 0', () => {
    fc.assert(
      fc.property(
        offenses,
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.integer({ min: 0, max: 3_600_000 }),
        (list, a, b) => {
          const { scores, nowMs } = scoresAfter(list);
          const [early, late] = a <= b ? [a, b] : [b, a];
          for (const peer of ['p1', 'p2', 'p3', 'unknown']) {
            const atEarly = scores.score(peer, nowMs + early);
            const atLate = scores.score(peer, nowMs + late);
            expect(atEarly).toBeLessThanOrEqual(0);
            expect(atLate).toBeLessThanOrEqual(0);
            expect(atLate).toBeGreaterThanOrEqual(atEarly);
          }
        },
      ),
    );
  });

  it('property: a penalty always lowers the score by exactly its points', () => {
    fc.assert(
      fc.property(offenses, fc.constantFrom('p1', 'p2'), severity, (list, peer, offense) => {
        const { scores, nowMs } = scoresAfter(list);
        const before = scores.score(peer, nowMs);
        scores.penalize(peer, offense, nowMs);
        expect(scores.score(peer, nowMs)).toBeCloseTo(before - PEER_PENALTY_POINTS[offense], 9);
      }),
    );
  });

  it('disconnects below its threshold, bans below the ban threshold for PEER_BAN_MS', () => {
    const scores = new PeerScores();
    let standing = scores.standing('p', 0);
    let points = 0;
    while (points <= -PEER_SCORE_DISCONNECT_BELOW) {
      standing = scores.penalize('p', 'mid', 0);
      points += PEER_PENALTY_POINTS.mid;
    }
    expect(standing).toBe('disconnect');
    while (points <= -PEER_SCORE_BAN_BELOW) {
      standing = scores.penalize('p', 'high', 0);
      points += PEER_PENALTY_POINTS.high;
    }
    expect(standing).toBe('banned');
    expect(scores.isBanned('p', PEER_BAN_MS - 1)).toBe(true);
    expect(scores.isBanned('p', PEER_BAN_MS)).toBe(false);
  });

  it('ranks best first, unknown peers at 0, ties by id', () => {
    const scores = new PeerScores();
    scores.penalize('a', 'low', 0);
    scores.penalize('c', 'high', 0);
    expect(scores.ranked(['c', 'b', 'a', 'd'], 0)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('stays bounded, forgetting the peers nearest 0 and keeping bans', () => {
    const scores = new PeerScores();
    for (let i = 0; i < 3; i++) scores.penalize('banned', 'high', 0);
    for (let i = 0; i < PEER_SCORES_TRACKED_MAX + 10; i++) scores.penalize(`p${i}`, 'low', 0);
    expect(scores.trackedCount).toBe(PEER_SCORES_TRACKED_MAX);
    expect(scores.isBanned('banned', 0)).toBe(true);
  });

  it('combines verdicts: reject wins, then accept, else ignore', () => {
    expect(combineVerdicts([])).toBe('ignore');
    expect(combineVerdicts(['ignore', 'accept'])).toBe('accept');
    expect(combineVerdicts(['accept', 'reject', 'ignore'])).toBe('reject');
  });
});
