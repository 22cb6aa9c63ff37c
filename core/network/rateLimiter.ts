/**
 * Token buckets for request rate limits, one per peer and one for all peers together (spec/p2p/constants.ts): a bucket
 * holds at most `perSecond` tokens, refills at `perSecond` tokens per second, and a request takes one. Time comes from
 * the caller, so the rule is deterministic. Buckets of quiet peers are forgotten (a full bucket is the same as none).
 */
import { assert } from '../assert.js';

/** Peer buckets kept at most; beyond, the fullest (least recently limited) are forgotten. */
export const RATE_LIMITER_PEERS_MAX = 4_096;

interface Bucket {
  tokens: number;
  atMs: number;
}

export type RateDecision = 'allowed' | 'peerLimited' | 'globalLimited';

export class RequestRateLimiter {
  private readonly peers = new Map<string, Bucket>();
  private readonly global: Bucket;

  constructor(
    private readonly perPeerPerSecond: number,
    private readonly globalPerSecond: number,
    nowMs: number,
  ) {
    assert(perPeerPerSecond > 0 && globalPerSecond > 0, 'rate limits are positive');
    this.global = { tokens: globalPerSecond, atMs: nowMs };
  }

  /** Takes a token for one request from `peer` at `nowMs`, or says which limit refuses it. */
  take(peer: string, nowMs: number): RateDecision {
    const bucket = this.peers.get(peer) ?? { tokens: this.perPeerPerSecond, atMs: nowMs };
    refill(bucket, this.perPeerPerSecond, nowMs);
    refill(this.global, this.globalPerSecond, nowMs);
    this.peers.delete(peer);
    this.peers.set(peer, bucket);
    this.bound();
    if (bucket.tokens < 1) return 'peerLimited';
    if (this.global.tokens < 1) return 'globalLimited';
    bucket.tokens -= 1;
    this.global.tokens -= 1;
    return 'allowed';
  }

  private bound(): void {
    while (this.peers.size > RATE_LIMITER_PEERS_MAX) this.peers.delete(this.peers.keys().next().value!);
  }
}

function refill(bucket: Bucket, perSecond: number, nowMs: number): void {
  const elapsedMs = Math.max(0, nowMs - bucket.atMs);
  bucket.tokens = Math.min(perSecond, bucket.tokens + (elapsedMs * perSecond) / 1_000);
  bucket.atMs = nowMs;
}
