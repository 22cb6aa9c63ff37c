import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITER_PEERS_MAX, RequestRateLimiter } from './rateLimiter.js';

/** Requests of a few peers at non-decreasing times. */
const requests = fc.array(
  fc.record({ peer: fc.constantFrom('p1', 'p2', 'p3', 'p4'), afterMs: fc.integer({ min: 0, max: 2_000 }) }),
  { maxLength: 200 },
);

describe('the request rate limiter', () => {
  it('allows a full bucket at once, then refills at the rate', () => {
    const limiter = new RequestRateLimiter(2, 100, 0);
    expect([0, 0, 0].map(() => limiter.take('p', 0))).toEqual(['allowed', 'allowed', 'peerLimited']);
    expect(limiter.take('p', 499)).toBe('peerLimited');
    expect(limiter.take('p', 500)).toBe('allowed');
    expect(limiter.take('other', 500)).toBe('allowed');
  });

  it('refuses every peer once the global bucket is empty', () => {
    const limiter = new RequestRateLimiter(5, 3, 0);
    expect(['a', 'b', 'c', 'd'].map((peer) => limiter.take(peer, 0))).toEqual([
      'allowed',
      'allowed',
      'allowed',
      'globalLimited',
    ]);
  });

  it('property: never allows more than capacity + rate * elapsed, per peer and in all', () => {
    fc.assert(
      fc.property(
        requests,
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        (list, perPeer, global) => {
          const limiter = new RequestRateLimiter(perPeer, global, 0);
          const allowed = new Map<string, number>();
          let total = 0;
          let nowMs = 0;
          for (const request of list) {
            nowMs += request.afterMs;
            if (limiter.take(request.peer, nowMs) !== 'allowed') continue;
            allowed.set(request.peer, (allowed.get(request.peer) ?? 0) + 1);
            total++;
            const elapsedS = nowMs / 1_000;
            expect(allowed.get(request.peer)!).toBeLessThanOrEqual(perPeer + perPeer * elapsedS + 1e-9);
            expect(total).toBeLessThanOrEqual(global + global * elapsedS + 1e-9);
          }
        },
      ),
    );
  });

  it('property: a peer that waits a second after its last request is allowed again (unless the global limit)', () => {
    fc.assert(
      fc.property(requests, (list) => {
        const limiter = new RequestRateLimiter(3, 1_000, 0);
        let nowMs = 0;
        for (const request of list) {
          nowMs += request.afterMs;
          limiter.take(request.peer, nowMs);
        }
        expect(limiter.take('p1', nowMs + 1_000)).toBe('allowed');
      }),
    );
  });

  it('keeps at most RATE_LIMITER_PEERS_MAX peer buckets; a forgotten peer starts full', () => {
    const limiter = new RequestRateLimiter(1, 1_000_000, 0);
    expect(limiter.take('first', 0)).toBe('allowed');
    for (let i = 0; i < RATE_LIMITER_PEERS_MAX; i++) limiter.take(`p${i}`, 0);
    expect(limiter.take('first', 0)).toBe('allowed');
  });
});
