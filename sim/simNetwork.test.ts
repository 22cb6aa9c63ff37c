import { describe, expect, it } from 'vitest';
import { PEER_PENALTY_POINTS } from '../core/network/peerScores.js';
import type { GossipMessage, GossipVerdict, NetworkPort } from '../core/ports.js';
import { REQUEST_TIMEOUT_MS, REQUESTS_PER_PEER_PER_S } from '../spec/p2p/constants.js';
import { attestation, blockProposal, handlers, hashedTx } from '../test/portSuites/networkFixtures.js';
import { createPrng } from './prng.js';
import { createScheduler } from './scheduler.js';
import { createNodeClock, type SimClock } from './simClock.js';
import { createSimNetwork } from './simNetwork.js';
import { createTrace } from './trace.js';

const message = (slot: number): GossipMessage => attestation(slot);

interface Heard {
  readonly slot: number;
  readonly from: string;
  readonly atMs: number;
}

interface WorldOptions {
  readonly names?: readonly string[];
  readonly lossProbability?: number;
  readonly latencyMs?: { readonly min: number; readonly max: number };
  readonly seed?: bigint;
}

function world(options: WorldOptions = {}) {
  const scheduler = createScheduler();
  const trace = createTrace({ now: () => scheduler.now(), keepLast: 0 });
  const network = createSimNetwork({
    prng: createPrng(options.seed ?? 1n),
    latencyMs: options.latencyMs ?? { min: 10, max: 50 },
    trace,
    ...(options.lossProbability !== undefined ? { lossProbability: options.lossProbability } : {}),
  });
  const heard = new Map<string, Heard[]>();
  const verdicts = new Map<string, GossipVerdict>();
  const clocks = new Map<string, SimClock>();
  const ports = new Map<string, NetworkPort>();
  for (const name of options.names ?? ['a', 'b', 'c']) {
    const clock = createNodeClock(scheduler, { owner: name });
    const port = network.connect(name, clock);
    heard.set(name, []);
    verdicts.set(name, 'accept');
    port.subscribe((m, from) => {
      if (m.kind !== 'tx') heard.get(name)!.push({ slot: m.payload.slot, from, atMs: scheduler.now() });
      return verdicts.get(name)!;
    });
    clocks.set(name, clock);
    ports.set(name, port);
  }
  const port = (name: string) => ports.get(name)!;
  const scoreOf = (at: string, of: string) =>
    port(at)
      .peers(true)
      .find((p) => p.id === of)?.score;
  /** Runs the scheduler until the promise settles (requests take simulated time). */
  const settle = async <T>(promise: Promise<T>, limitMs = 60_000): Promise<T> => {
    let done = false;
    void promise.finally(() => (done = true));
    await scheduler.runUntilCondition(() => done, scheduler.now() + limitMs);
    return promise;
  };
  return { scheduler, trace, network, port, heard, verdicts, clocks, scoreOf, settle };
}

const slotsOf = (heard: readonly Heard[]) => heard.map((h) => h.slot).sort((x, y) => x - y);

describe('the simulated gossip network', () => {
  it('delivers to every other node after a latency in range, never to the sender, as frozen copies', async () => {
    const w = world();
    const start = w.scheduler.now();
    const seen: GossipMessage[] = [];
    w.port('b').subscribe((m) => (seen.push(m), 'ignore'));
    w.port('a').publish(message(1));
    await w.scheduler.runFor(200);
    expect(w.heard.get('a')).toEqual([]);
    for (const name of ['b', 'c']) {
      // The first copy to arrive: from the publisher, or forwarded by the other node when that path was faster.
      const [entry, ...rest] = w.heard.get(name)!;
      expect(rest).toEqual([]);
      expect(entry!.slot).toBe(1);
      expect(entry!.atMs - start).toBeGreaterThanOrEqual(10);
      expect(entry!.atMs - start).toBeLessThanOrEqual(50);
    }
    expect(Object.isFrozen(seen[0])).toBe(true);
    const fixed = world({ latencyMs: { min: 30, max: 30 } });
    fixed.port('a').publish(message(2));
    await fixed.scheduler.runFor(200);
    for (const name of ['b', 'c']) expect(fixed.heard.get(name)).toEqual([{ slot: 2, from: 'a', atMs: start + 30 }]);
  });

  it('each node hears a message once, however many peers forward it, and the publisher never hears it back', async () => {
    const w = world({ names: ['a', 'b', 'c', 'd', 'e'] });
    for (let slot = 0; slot < 20; slot++) w.port('a').publish(message(slot));
    // A second publish of the same message is a duplicate.
    w.port('a').publish(message(0));
    await w.scheduler.runFor(1_000);
    expect(w.heard.get('a')).toEqual([]);
    for (const name of ['b', 'c', 'd', 'e']) expect(slotsOf(w.heard.get(name)!)).toEqual([...Array(20).keys()]);
  });

  it('forwards what a node accepts, so a message lost on one link arrives by another', async () => {
    const heardBy = async (verdict: GossipVerdict) => {
      const w = world({ names: ['a', 'b', 'c', 'd'], lossProbability: 0.3, seed: 5n });
      for (const name of ['b', 'c', 'd']) w.verdicts.set(name, verdict);
      for (let slot = 0; slot < 100; slot++) w.port('a').publish(message(slot));
      await w.scheduler.runFor(1_000);
      return w.heard.get('b')!;
    };
    const direct = await heardBy('ignore');
    expect(direct.every((h) => h.from === 'a')).toBe(true);
    expect(direct.length).toBeLessThan(80);
    const forwarded = await heardBy('accept');
    expect(forwarded.length).toBeGreaterThan(88);
    expect(forwarded.some((h) => h.from !== 'a')).toBe(true);
  });

  it('does not forward an ignored or rejected message; a rejection costs the peer that sent it', async () => {
    const w = world({ lossProbability: 0.5, seed: 3n });
    w.verdicts.set('c', 'reject');
    for (let slot = 0; slot < 6; slot++) w.port('a').publish(message(slot));
    await w.scheduler.runFor(1_000);
    expect(w.heard.get('b')!.every((h) => h.from === 'a')).toBe(true);
    // c blames whichever peer sent it each copy it rejected: a, or b forwarding what it accepted.
    const rejectedFrom = (peer: string) => w.heard.get('c')!.filter((h) => h.from === peer).length;
    expect(rejectedFrom('a')).toBeGreaterThan(0);
    for (const peer of ['a', 'b'])
      expect(w.scoreOf('c', peer)).toBeCloseTo(-PEER_PENALTY_POINTS.mid * rejectedFrom(peer), 0);
    expect(w.scoreOf('b', 'a')).toBe(0);
    expect(w.scoreOf('b', 'c')).toBe(0);
  });

  it('drops the messages and requests of a banned peer, and lists it no more', async () => {
    const w = world();
    w.verdicts.set('c', 'ignore');
    for (let i = 0; i < 3; i++) w.port('b').penalize('a', 'high', 'test');
    expect(
      w
        .port('b')
        .peers(false)
        .map((p) => p.id),
    ).toEqual(['c']);
    w.port('a').publish(message(1));
    await w.scheduler.runFor(200);
    expect(w.heard.get('b')).toEqual([]);
    expect(w.heard.get('c')).toHaveLength(1);
    w.port('b').serve(handlers({ blockProposal: async () => blockProposal(1, 0) }));
    expect(await w.settle(w.port('a').requestBlockProposal(1, 0, 'b'))).toBeUndefined();
  });

  it('a partition separates the named group from the rest until it heals', async () => {
    const w = world();
    w.network.partition([['a']]);
    w.port('a').publish(message(1));
    w.port('b').publish(message(2));
    await w.scheduler.runFor(200);
    expect(w.heard.get('a')).toEqual([]);
    expect(w.heard.get('b')).toEqual([]);
    expect(slotsOf(w.heard.get('c')!)).toEqual([2]);
    expect(w.port('a').peers(false)).toEqual([]);
    w.network.heal();
    w.port('a').publish(message(3));
    await w.scheduler.runFor(200);
    expect(slotsOf(w.heard.get('b')!)).toEqual([3]);
  });

  it('loses deliveries by its stream: the same seed loses the same ones; a disconnected node hears nothing', async () => {
    const run = async () => {
      const w = world({ names: ['a', 'b'], lossProbability: 0.5, seed: 9n });
      for (let slot = 0; slot < 40; slot++) w.port('a').publish(message(slot));
      await w.scheduler.runFor(100);
      return slotsOf(w.heard.get('b')!);
    };
    const first = await run();
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(35);
    expect(await run()).toEqual(first);
    const w = world();
    w.network.disconnect('c');
    w.port('a').publish(message(1));
    await w.scheduler.runFor(100);
    expect(w.heard.get('c')).toEqual([]);
  });
});

describe('requests on the simulated network', () => {
  it('asks the preferred peer first, then the others, and answers with the peer that had it', async () => {
    const w = world();
    const asked: string[] = [];
    w.port('b').serve(handlers({ blockProposal: async () => (asked.push('b'), blockProposal(4, 2)) }));
    w.port('c').serve(handlers({ blockProposal: async () => (asked.push('c'), undefined) }));
    const answer = await w.settle(w.port('a').requestBlockProposal(4, 2, 'c'));
    expect(answer).toEqual({ value: blockProposal(4, 2), from: 'b' });
    expect(asked).toEqual(['c', 'b']);
  });

  it('scores down a peer that answers another block proposal than asked, and moves on', async () => {
    const w = world();
    w.port('b').serve(handlers({ blockProposal: async () => blockProposal(4, 3) }));
    w.port('c').serve(handlers({ blockProposal: async () => blockProposal(4, 2) }));
    const answer = await w.settle(w.port('a').requestBlockProposal(4, 2, 'b'));
    expect(answer?.from).toBe('c');
    expect(w.scoreOf('a', 'b')).toBeCloseTo(-PEER_PENALTY_POINTS.mid, 1);
  });

  it('a silent peer times out on the requester clock, is scored down, and the next one is asked', async () => {
    const w = world();
    w.clocks.get('b')!.pause();
    w.port('b').serve(handlers({ blockProposal: async () => blockProposal(4, 0) }));
    w.port('c').serve(handlers({ blockProposal: async () => blockProposal(4, 0) }));
    const start = w.scheduler.now();
    const answer = await w.settle(w.port('a').requestBlockProposal(4, 0, 'b'));
    expect(answer?.from).toBe('c');
    expect(w.scheduler.now() - start).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
    expect(w.scoreOf('a', 'b')).toBeLessThan(0);
    expect(w.scoreOf('a', 'c')).toBe(0);
  });

  it('with every delivery lost, each peer tried times out and the request ends with nothing', async () => {
    const w = world({ lossProbability: 1 });
    w.port('b').serve(handlers({ blockProposal: async () => blockProposal(4, 0) }));
    w.port('c').serve(handlers({ blockProposal: async () => blockProposal(4, 0) }));
    const start = w.scheduler.now();
    expect(await w.settle(w.port('a').requestBlockProposal(4, 0))).toBeUndefined();
    expect(w.scheduler.now() - start).toBe(2 * REQUEST_TIMEOUT_MS);
    // Scores decay towards 0 with time: b's penalty is one timeout older than c's.
    expect(w.scoreOf('a', 'b')).toBeCloseTo(-PEER_PENALTY_POINTS.low, 1);
    expect(w.scoreOf('a', 'c')).toBeCloseTo(-PEER_PENALTY_POINTS.low, 1);
  });

  it('survives loss: over many requests with lossy links, nearly all are answered', async () => {
    const w = world({ lossProbability: 0.1, seed: 4n });
    for (const name of ['b', 'c']) w.port(name).serve(handlers({ blockProposal: async (s, i) => blockProposal(s, i) }));
    let answered = 0;
    for (let slot = 0; slot < 30; slot++)
      if ((await w.settle(w.port('a').requestBlockProposal(slot, 0))) !== undefined) answered++;
    expect(answered).toBeGreaterThanOrEqual(29);
  });

  it('a partitioned or crashed peer never answers', async () => {
    const w = world();
    w.port('b').serve(handlers({ blockProposal: async () => blockProposal(4, 0) }));
    w.network.partition([['b']]);
    expect(await w.settle(w.port('a').requestBlockProposal(4, 0, 'b'))).toBeUndefined();
    w.network.heal();
    const pending = w.settle(w.port('a').requestBlockProposal(4, 0, 'b'));
    w.network.disconnect('b');
    expect(await pending).toBeUndefined();
    expect(w.scoreOf('a', 'b')).toBeUndefined();
  });

  it("refuses a peer's requests beyond its rate limit", async () => {
    const w = world({ names: ['a', 'b'] });
    let served = 0;
    w.port('b').serve(handlers({ blockProposal: async () => (served++, blockProposal(4, 0)) }));
    const burst = Array.from({ length: 3 * REQUESTS_PER_PEER_PER_S }, () =>
      w.port('a').requestBlockProposal(4, 0, 'b'),
    );
    const answers = await w.settle(Promise.all(burst));
    expect(served).toBe(REQUESTS_PER_PEER_PER_S);
    expect(answers.filter((a) => a !== undefined)).toHaveLength(REQUESTS_PER_PEER_PER_S);
  });

  it('answers txs by hash from the peers that hold them, checking each hash', async () => {
    const w = world();
    const [tx, unknown] = [hashedTx(11), hashedTx(12)];
    w.port('b').serve(handlers({ txsByHash: async (hashes) => (hashes.includes(tx.txHash) ? [tx] : []) }));
    w.port('c').serve(handlers({ txsByHash: async () => [{ ...hashedTx(13), txHash: tx.txHash }] }));
    const answers = await w.settle(w.port('a').requestTxs([tx.txHash, unknown.txHash], 'c'));
    expect(answers).toEqual([{ value: tx, from: 'b' }]);
    expect(w.scoreOf('a', 'c')).toBeCloseTo(-PEER_PENALTY_POINTS.mid, 1);
  });

  it('the same seed gives the same trace; another seed another', async () => {
    const run = async (seed: bigint) => {
      const w = world({ names: ['a', 'b', 'c', 'd'], lossProbability: 0.2, seed });
      for (const name of ['b', 'c', 'd'])
        w.port(name).serve(handlers({ blockProposal: async (s, i) => blockProposal(s, i) }));
      for (let slot = 0; slot < 10; slot++) {
        w.port('b').publish(message(slot));
        await w.settle(w.port('a').requestBlockProposal(slot, 0, 'c'));
      }
      await w.scheduler.runFor(1_000);
      return { hash: w.trace.traceHash(), heard: w.heard.get('a') };
    };
    const first = await run(7n);
    expect(await run(7n)).toEqual(first);
    expect((await run(8n)).hash).not.toBe(first.hash);
  });
});
