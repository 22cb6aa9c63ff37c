/**
 * The application score of each peer, one rule for every network implementation (libp2p and the simulated network):
 * a peer starts at 0, loses points for what it did wrong (an invalid or malformed message, a failed or abusive
 * request), and its score decays back towards 0 by a factor per minute, so a peer that behaves recovers. Below
 * PEER_SCORE_DISCONNECT_BELOW the node drops the connection; below PEER_SCORE_BAN_BELOW it also refuses the peer for
 * PEER_BAN_MS. Time comes from the caller (a clock port), so the rule is deterministic.
 */
import { assert } from '../assert.js';
import type { PeerOffenseSeverity } from '../ports.js';

/** Points a peer loses per offense, by severity (a timeout is low, a rejected message mid, garbage high). */
export const PEER_PENALTY_POINTS: Readonly<Record<PeerOffenseSeverity, number>> = { low: 2, mid: 10, high: 50 };
/** A score is multiplied by this once per minute (continuously), recovering towards 0. */
export const PEER_SCORE_DECAY_PER_MINUTE = 0.9;
export const PEER_SCORE_DISCONNECT_BELOW = -50;
export const PEER_SCORE_BAN_BELOW = -100;
/** How long a banned peer is refused, in ms. */
export const PEER_BAN_MS = 60 * 60_000;
/** Peers whose scores are remembered; beyond it the ones nearest 0 are forgotten first. */
export const PEER_SCORES_TRACKED_MAX = 4_096;

const MINUTE_MS = 60_000;

export type PeerStanding = 'healthy' | 'disconnect' | 'banned';

interface ScoreEntry {
  score: number;
  atMs: number;
  bannedUntilMs: number;
}

export class PeerScores {
  private readonly entries = new Map<string, ScoreEntry>();

  /** The peer's score at `nowMs`, decayed since it last changed. */
  score(peer: string, nowMs: number): number {
    const entry = this.entries.get(peer);
    if (entry === undefined) return 0;
    return decayed(entry, nowMs);
  }

  /** Takes the penalty off the peer's decayed score; returns its standing afterwards. */
  penalize(peer: string, severity: PeerOffenseSeverity, nowMs: number): PeerStanding {
    const score = this.score(peer, nowMs) - PEER_PENALTY_POINTS[severity];
    const bannedUntilMs = Math.max(
      this.entries.get(peer)?.bannedUntilMs ?? 0,
      score < PEER_SCORE_BAN_BELOW ? nowMs + PEER_BAN_MS : 0,
    );
    this.entries.delete(peer);
    this.entries.set(peer, { score, atMs: nowMs, bannedUntilMs });
    this.bound(nowMs);
    return this.standing(peer, nowMs);
  }

  /** Banned while its ban lasts; disconnect while its score is below the disconnect threshold; else healthy. */
  standing(peer: string, nowMs: number): PeerStanding {
    const entry = this.entries.get(peer);
    if (entry === undefined) return 'healthy';
    if (entry.bannedUntilMs > nowMs) return 'banned';
    return decayed(entry, nowMs) < PEER_SCORE_DISCONNECT_BELOW ? 'disconnect' : 'healthy';
  }

  isBanned(peer: string, nowMs: number): boolean {
    return this.standing(peer, nowMs) === 'banned';
  }

  /** Peers ordered best score first (unknown peers score 0), ties by id: the order requests try them in. */
  ranked(peers: readonly string[], nowMs: number): string[] {
    return [...peers]
      .map((peer) => ({ peer, score: this.score(peer, nowMs) }))
      .sort((a, b) => b.score - a.score || (a.peer < b.peer ? -1 : a.peer > b.peer ? 1 : 0))
      .map((entry) => entry.peer);
  }

  get trackedCount(): number {
    return this.entries.size;
  }

  /** Forgets the peers nearest 0 beyond the bound, banned peers last (a ban is kept while any other can go). */
  private bound(nowMs: number): void {
    if (this.entries.size <= PEER_SCORES_TRACKED_MAX) return;
    const weight = ([, entry]: [string, ScoreEntry]) =>
      (entry.bannedUntilMs > nowMs ? Number.MAX_SAFE_INTEGER : 0) + Math.abs(decayed(entry, nowMs));
    const byWeight = [...this.entries].sort((a, b) => weight(a) - weight(b));
    for (const [peer] of byWeight.slice(0, this.entries.size - PEER_SCORES_TRACKED_MAX)) this.entries.delete(peer);
    assert(this.entries.size <= PEER_SCORES_TRACKED_MAX, 'peer scores stay bounded');
  }
}

function decayed(entry: ScoreEntry, nowMs: number): number {
  const minutes = Math.max(0, nowMs - entry.atMs) / MINUTE_MS;
  return entry.score * PEER_SCORE_DECAY_PER_MINUTE ** minutes;
}

/** Several subscribers' verdicts as one: reject when any rejects, else accept when any accepts, else ignore. */
export function combineVerdicts(verdicts: readonly ('accept' | 'ignore' | 'reject')[]): 'accept' | 'ignore' | 'reject' {
  if (verdicts.includes('reject')) return 'reject';
  return verdicts.includes('accept') ? 'accept' : 'ignore';
}
