/**
 * A hostile peer for tests: a raw libp2p node of the same stack (TCP, noise, yamux, identify, gossipsub without
 * signatures) that a test drives to send what an honest node never would: garbage, oversized or malformed gossip on
 * our topics and on unknown ones, floods of requests, and broken request frames. It answers the status handshake
 * like an honest peer so that what it is scored for is what the test sends.
 */
import '../../adapters/network/libp2p/polyfills.js';
import { gossipsub, type GossipSub } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { generateKeyPair } from '@libp2p/crypto/keys';
import { identify } from '@libp2p/identify';
import type { Libp2p } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { responseFrame, writeFrame } from '../../adapters/network/libp2p/frames.js';
import { GOSSIP_TOPICS } from '../../adapters/network/libp2p/gossip.js';
import { sendRequest } from '../../adapters/network/libp2p/requestSender.js';
import { snappyCompress } from '../../adapters/network/libp2p/snappy.js';
import {
  encodeRequest,
  encodeResponse,
  requestProtocolId,
  type RequestProtocolName,
} from '../../spec/p2p/reqRespCodec.js';
import { testStatus } from './libp2pHarness.js';

export interface HostilePeer {
  readonly peerId: string;
  readonly node: Libp2p;
  dial(address: string): Promise<void>;
  /** Sends `copies` gossip messages with these raw (already "compressed") bytes on `topic`, in one RPC, to `peer`. */
  sendGossip(peer: string, topic: string, data: Uint8Array, copies?: number): Promise<void>;
  /** Sends `count` valid txs_by_hash requests at once; resolves with how many were answered with success. */
  floodRequests(peer: string, count: number): Promise<number>;
  /** Opens `protocol` on `peer` and writes these raw bytes as they are (no frame), then closes. */
  sendRawStream(peer: string, protocol: RequestProtocolName, bytes: Uint8Array): Promise<void>;
  isConnectedTo(peer: string): boolean;
  stop(): Promise<void>;
}

export async function startHostilePeer(): Promise<HostilePeer> {
  const node = await createLibp2p({
    privateKey: await generateKeyPair('secp256k1'),
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: {
      identify: identify(),
      pubsub: gossipsub({ globalSignaturePolicy: 'StrictNoSign', allowPublishToZeroTopicPeers: true }),
    },
  });
  const pubsub = node.services.pubsub as unknown as GossipSub;
  // gossipsub's own sender, private in its types: it writes an RPC to a peer's stream, whatever the topic.
  const raw = pubsub as unknown as {
    sendRpc(peer: string, rpc: { messages: { topic: string; data: Uint8Array }[] }): boolean;
  };
  for (const topic of GOSSIP_TOPICS) pubsub.subscribe(topic);
  await node.handle(requestProtocolId('status'), ({ stream }) => {
    void writeFrame(stream, responseFrame('success', encodeResponse('status', testStatus()))).catch(() => undefined);
  });
  return {
    peerId: node.peerId.toString(),
    node,
    async dial(address) {
      await node.dial(multiaddr(address));
    },
    async sendGossip(peer, topic, data, copies = 1) {
      // gossipsub opens its stream to a new peer a moment after connecting; until then sendRpc sends nothing.
      const messages = Array.from({ length: copies }, () => ({ topic, data }));
      const deadline = Date.now() + 5_000;
      while (!raw.sendRpc(peer, { messages })) {
        if (Date.now() > deadline || node.getConnections(peerIdFromString(peer)).length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async floodRequests(peer, count) {
      const request = encodeRequest('txs_by_hash', { hashes: [`0x${'01'.repeat(32)}`] });
      const answers = await Promise.allSettled(
        Array.from({ length: count }, () => sendRequest(node, peer, 'txs_by_hash', request, { timeoutMs: 3_000 })),
      );
      return answers.filter((a) => a.status === 'fulfilled' && a.value.status === 'success').length;
    },
    async sendRawStream(peer, protocol, bytes) {
      const stream = await node.dialProtocol(peerIdFromString(peer), requestProtocolId(protocol));
      await stream.sink([bytes]).catch(() => undefined);
      for await (const _ of stream.source) break;
    },
    isConnectedTo: (peer) => node.getConnections(peerIdFromString(peer)).length > 0,
    async stop() {
      await node.stop();
    },
  };
}

/** Snappy bytes of `payload`: what a well-formed gossip message's data looks like. */
export function compressed(payload: Uint8Array): Uint8Array {
  return snappyCompress(payload);
}
