import { setTimeout as sleep } from 'node:timers/promises';
import { generateKeyPair } from '@libp2p/crypto/keys';
import type { PrivateKey } from '@libp2p/interface';
import type { Libp2pNetwork } from '../../adapters/network/libp2p/index.js';
import type { GossipMessage } from '../../core/ports.js';
import { fullyConnected, startTestNode, waitFor } from '../p2p/libp2pHarness.js';
import { describeNetworkPort, type NetworkHarness } from './networkPort.suite.js';

/** A message only the harness publishes, to learn that gossip flows between every pair before a test starts. */
function probe(round: number, from: number): GossipMessage {
  return {
    kind: 'checkpointAttestation',
    payload: {
      l1ChainId: 0,
      rollupVersion: 0,
      slot: 1_000_000 + round,
      checkpointNumber: from,
      archiveRoot: `0x${'99'.repeat(32)}`,
      checkpointHeaderHash: `0x${'99'.repeat(32)}`,
    },
    attester: `0x${'99'.repeat(20)}`,
    signature: `0x${'99'.repeat(96)}`,
  };
}

/** Resolves once every node's gossip reaches every other node (gossipsub knows their subscriptions). */
async function gossipSettled(nodes: readonly Libp2pNetwork[]): Promise<void> {
  const heard = nodes.map(() => new Set<number>());
  const stops = nodes.map((node, index) =>
    node.subscribe((message) => {
      if (message.kind === 'checkpointAttestation' && message.payload.l1ChainId === 0) {
        heard[index]!.add(message.payload.checkpointNumber);
      }
      return 'ignore';
    }),
  );
  let round = 0;
  try {
    await waitFor(() => {
      if (round++ % 8 === 0) nodes.forEach((node, index) => node.publish(probe(round, index)));
      return heard.every((from, index) => from.size === nodes.length - 1 && !from.has(index));
    }, 'gossip between every pair');
    await sleep(100);
  } finally {
    for (const stop of stops) stop();
  }
}

describeNetworkPort(
  'libp2p over loopback',
  async (count) => {
    const keys: PrivateKey[] = await Promise.all(Array.from({ length: count }, () => generateKeyPair('secp256k1')));
    const nodes: (Libp2pNetwork | undefined)[] = [];
    const ports: number[] = [];
    const start = async (index: number) => {
      const bootstrapNodes = nodes.flatMap((node, other) => (node && other !== index ? [node.multiaddrs()[0]!] : []));
      const node = await startTestNode({ privateKey: keys[index]!, port: ports[index] ?? 0, bootstrapNodes });
      ports[index] = Number(node.multiaddrs()[0]!.split('/')[4]);
      nodes[index] = node;
    };
    for (let index = 0; index < count; index++) await start(index);
    const live = () => nodes.filter((node): node is Libp2pNetwork => node !== undefined);
    await waitFor(() => fullyConnected(live()), 'a full mesh');
    await gossipSettled(live());
    const harness: NetworkHarness = {
      port: (index) => nodes[index]!,
      peerIdOf: (index) => nodes[index]?.peerId ?? '',
      pass: (ms) => sleep(ms),
      waitFor: (done, what, timeoutMs) => waitFor(done, what, timeoutMs),
      leave: async (index) => {
        await nodes[index]!.stop();
        nodes[index] = undefined;
      },
      rejoin: async (index) => {
        await start(index);
        await waitFor(() => fullyConnected(live()), 'the rejoined node connected');
        await gossipSettled(live());
      },
      close: async () => {
        await Promise.all(live().map((node) => node.stop()));
      },
    };
    return harness;
  },
  { timeoutMs: 60_000 },
);
