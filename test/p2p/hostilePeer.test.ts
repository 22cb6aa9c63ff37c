import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Libp2pNetwork } from '../../adapters/network/libp2p/index.js';
import { PEER_SCORE_BAN_BELOW, PEER_SCORE_DISCONNECT_BELOW } from '../../core/network/peerScores.js';
import type { GossipMessage } from '../../core/ports.js';
import { GOSSIP_MESSAGE_BYTES_MAX } from '../../spec/p2p/constants.js';
import { encodeGossipMessage, GOSSIP_KINDS, gossipTopic } from '../../spec/p2p/gossipCodec.js';
import { REQUEST_PROTOCOL_NAMES } from '../../spec/p2p/reqRespCodec.js';
import { gossipMessageArbitrary, sampleMessages } from './gossipArbitraries.js';
import { compressed, startHostilePeer, type HostilePeer } from './hostilePeer.js';
import { fullyConnected, servedHandlers, startTestNode, waitFor } from './libp2pHarness.js';

const ourTopic = fc.constantFrom(...GOSSIP_KINDS.map(gossipTopic));
const anyTopic = fc.oneof(ourTopic, fc.string({ maxLength: 30 }), fc.constant('/svc/tx/2'));

/** A snappy header declaring more than the gossip bound, followed by a little data. */
const oversizedHeader = fc.uint8Array({ maxLength: 32 }).map((tail) => {
  const declared = GOSSIP_MESSAGE_BYTES_MAX + 1;
  const varint = [(declared & 0x7f) | 0x80, ((declared >> 7) & 0x7f) | 0x80, (declared >> 14) & 0x7f];
  return Uint8Array.from([...varint, ...tail]);
});

/** Gossip data a decoder must survive: noise, compressed noise, compressed JSON of the wrong shape, truncations. */
const garbageData = fc.oneof(
  fc.uint8Array({ maxLength: 256 }),
  fc.uint8Array({ maxLength: 256 }).map(compressed),
  fc.json({ maxDepth: 3 }).map((text) => compressed(new TextEncoder().encode(text))),
  gossipMessageArbitrary.map((m) => compressed(encodeGossipMessage(m).subarray(1))),
  oversizedHeader,
);

/** Bursts of requests a flooding peer sends at most before the test gives up on being dropped. */
const FLOOD_BURSTS_MAX = 20;

type HostileAction =
  | { readonly kind: 'gossip'; readonly topic: string; readonly data: Uint8Array }
  | { readonly kind: 'stream'; readonly protocol: (typeof REQUEST_PROTOCOL_NAMES)[number]; readonly bytes: Uint8Array };

const hostileAction: fc.Arbitrary<HostileAction> = fc.oneof(
  fc.record({ kind: fc.constant('gossip' as const), topic: anyTopic, data: garbageData }),
  fc.record({
    kind: fc.constant('stream' as const),
    protocol: fc.constantFrom(...REQUEST_PROTOCOL_NAMES),
    // A length prefix far above any bound, or a frame of noise.
    bytes: fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.constant(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f)),
    ),
  }),
);

/** Dials until the victim lists the peer: libp2p limits inbound connections per second from one host (all of ours are 127.0.0.1). */
async function connectHostile(victim: Libp2pNetwork, peer: HostilePeer): Promise<void> {
  let dialing = false;
  await waitFor(() => {
    if (!dialing && !peer.isConnectedTo(victim.peerId)) {
      dialing = true;
      void peer
        .dial(victim.multiaddrs()[0]!)
        .catch(() => new Promise((resolve) => setTimeout(resolve, 200)))
        .finally(() => (dialing = false));
    }
    return victim.peers(true).some((p) => p.id === peer.peerId);
  }, 'hostile connected');
}

describe('a hostile peer', () => {
  let victim: Libp2pNetwork;
  let honest: Libp2pNetwork[];
  const honestHeard: GossipMessage[] = [];

  beforeAll(async () => {
    victim = await startTestNode();
    victim.serve(servedHandlers());
    const first = await startTestNode({ bootstrapNodes: [victim.multiaddrs()[0]!] });
    const second = await startTestNode({ bootstrapNodes: [victim.multiaddrs()[0]!, first.multiaddrs()[0]!] });
    honest = [first, second];
    second.subscribe((message) => (honestHeard.push(message), 'accept'));
    victim.subscribe(() => 'accept');
    await waitFor(() => fullyConnected([victim, ...honest]), 'honest mesh');
  });

  afterAll(async () => {
    await Promise.all([victim, ...honest].map((node) => node.stop()));
  });

  const scoreAtVictim = (peer: string) => victim.peers(true).find((p) => p.id === peer)?.score;

  it('sends garbage gossip and frames: the victim survives and hangs up on each hostile peer', async () => {
    let hostile = await startHostilePeer();
    const hostiles = [hostile];
    const connect = (peer: HostilePeer) => connectHostile(victim, peer);
    try {
      await connect(hostile);
      await fc.assert(
        fc.asyncProperty(hostileAction, async (action) => {
          // Once the victim hung up on one hostile peer, a new one (a new identity) takes over.
          if (!hostile.isConnectedTo(victim.peerId)) {
            hostile = await startHostilePeer();
            hostiles.push(hostile);
            await connect(hostile);
          }
          if (action.kind === 'gossip') await hostile.sendGossip(victim.peerId, action.topic, action.data);
          else await hostile.sendRawStream(victim.peerId, action.protocol, action.bytes).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }),
        { numRuns: 60 },
      );
      for (const peer of hostiles.slice(0, -1)) {
        expect(scoreAtVictim(peer.peerId) ?? 0).toBeLessThan(PEER_SCORE_DISCONNECT_BELOW * 0.9);
      }
      expect(hostiles.length).toBeGreaterThan(1);
    } finally {
      await Promise.all(hostiles.map((peer) => peer.stop()));
    }
    // The honest nodes still gossip, through and beside the victim.
    let round = 0;
    await waitFor(() => {
      if (round++ % 8 === 0) for (const message of sampleMessages(42 + round)) honest[0]!.publish(message);
      return honestHeard.length >= 4;
    }, 'honest gossip after the attack');
    expect(victim.connectedPeerCount()).toBe(2);
  });

  it('sends a burst of oversized gossip: scored down, disconnected with a goodbye, then banned', async () => {
    const hostile = await startHostilePeer();
    try {
      await connectHostile(victim, hostile);
      // Each copy declares 2 MiB + 1 bytes, above the gossip bound: each costs the sender (high) before any dedup.
      await hostile.sendGossip(victim.peerId, gossipTopic('tx'), Uint8Array.of(0x81, 0x80, 0x80, 0x01), 3);
      await waitFor(() => !hostile.isConnectedTo(victim.peerId), 'the victim hangs up');
      expect(scoreAtVictim(hostile.peerId) ?? 0).toBeLessThan(PEER_SCORE_BAN_BELOW * 0.9);
      // Banned: the victim's gater refuses a new connection once the peer is known (the dial may fail or be closed).
      await hostile.dial(victim.multiaddrs()[0]!).catch(() => undefined);
      await waitFor(() => !hostile.isConnectedTo(victim.peerId), 'the banned peer stays out');
      expect(victim.peers(false).some((p) => p.id === hostile.peerId && p.status === 'connected')).toBe(false);
    } finally {
      await hostile.stop();
    }
  });

  it('floods requests: refused beyond the rate limit, and the flooder is scored down', async () => {
    const flooder = await startHostilePeer();
    try {
      await connectHostile(victim, flooder);
      // A sustained flood: bursts of 30 until the victim hangs up (a short burst of an honest peer costs little).
      let [sent, answered] = [0, 0];
      for (let burst = 0; burst < FLOOD_BURSTS_MAX && flooder.isConnectedTo(victim.peerId); burst++) {
        answered += await flooder.floodRequests(victim.peerId, 30);
        sent += 30;
      }
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThan(sent);
      await waitFor(() => !flooder.isConnectedTo(victim.peerId), 'the victim drops the flooder');
    } finally {
      await flooder.stop();
    }
  });
});
