import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENR } from '@chainsafe/enr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GossipMessage, GossipVerdict } from '../../../core/ports.js';
import { sampleBlockProposal, sampleMessages, sampleTx } from '../../../test/p2p/gossipArbitraries.js';
import { fullyConnected, servedHandlers, startTestNode, testStatus, waitFor } from '../../../test/p2p/libp2pHarness.js';
import { loadOrCreatePeerKey, PEER_KEY_FILE_NAME, type Libp2pNetwork } from './index.js';

describe('libp2p network: three nodes bootstrapping from the first', () => {
  let nodes: Libp2pNetwork[] = [];
  const heard: GossipMessage[][] = [[], [], []];
  const verdicts: GossipVerdict[] = ['accept', 'accept', 'accept'];

  beforeAll(async () => {
    const first = await startTestNode({ discovery: true });
    const rest = await Promise.all([1, 2].map(() => startTestNode({ bootstrapNodes: [first.multiaddrs()[0]!] })));
    nodes = [first, ...rest];
    nodes.forEach((node, i) =>
      node.subscribe((message) => {
        heard[i]!.push(message);
        return verdicts[i]!;
      }),
    );
    await waitFor(() => nodes.slice(1).every((n) => n.connectedPeerCount() >= 1), 'bootstrap connections');
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it('delivers every message kind to the other nodes, not back to the sender', async () => {
    await waitFor(() => nodes[0]!.connectedPeerCount() === 2, 'both joiners connected to the first');
    // Gossipsub learns the peers' subscriptions a moment after connecting, and drops a republished message as a
    // duplicate: publish a fresh round until every kind reached both other nodes.
    const sent: GossipMessage[] = [];
    let round = 100;
    const kindsHeard = (i: number) => new Set(heard[i]!.map((m) => m.kind)).size;
    await waitFor(() => {
      for (const message of round % 8 === 0 ? sampleMessages(round) : []) {
        sent.push(message);
        nodes[1]!.publish(message);
      }
      round += 1;
      return kindsHeard(0) === 4 && kindsHeard(2) === 4;
    }, 'gossip of every kind');
    for (const message of [...heard[0]!, ...heard[2]!]) expect(sent).toContainEqual(message);
    expect(heard[1]).toEqual([]);
  });

  it("a subscriber that rejects lowers the sender's score", async () => {
    verdicts[0] = 'reject';
    const sender = nodes[2]!;
    const [message] = sampleMessages(2).filter((m) => m.kind === 'checkpointAttestation');
    sender.publish(message!);
    await waitFor(() => (nodes[0]!.peers(true).find((p) => p.id === sender.peerId)?.score ?? 0) < 0, 'score drop');
    verdicts[0] = 'accept';
  });

  it('requestTxs and requestBlockProposal get answers from served handlers, checked', async () => {
    const tx = sampleTx(`0x00${'0a'.repeat(31)}`);
    const proposal = sampleBlockProposal(7, 1);
    const stopServing = nodes[0]!.serve(
      servedHandlers({
        txsByHash: async (hashes) => (hashes.includes(tx.txHash) ? [tx] : []),
        blockProposal: async (slot, index) => (slot === 7 && index === 1 ? proposal : undefined),
      }),
    );
    const missing = `0x${'ee'.repeat(32)}` as const;
    const txs = await nodes[1]!.requestTxs([tx.txHash, missing], nodes[0]!.peerId);
    expect(txs).toEqual([{ value: tx, from: nodes[0]!.peerId }]);
    const answer = await nodes[1]!.requestBlockProposal(7, 1, nodes[0]!.peerId);
    expect(answer).toEqual({ value: proposal, from: nodes[0]!.peerId });
    expect(await nodes[1]!.requestBlockProposal(8, 0)).toBeUndefined();
    stopServing();
  });

  it('an answer with a tx that was not asked for is dropped and costs the peer', async () => {
    const other = sampleTx(`0x00${'0b'.repeat(31)}`);
    const stopServing = nodes[0]!.serve(servedHandlers({ txsByHash: async () => [other] }));
    const before = nodes[1]!.peers(true).find((p) => p.id === nodes[0]!.peerId)?.score ?? 0;
    const txs = await nodes[1]!.requestTxs([`0x${'dd'.repeat(32)}`], nodes[0]!.peerId);
    expect(txs).toEqual([]);
    const after = nodes[1]!.peers(true).find((p) => p.id === nodes[0]!.peerId)?.score ?? 0;
    expect(after).toBeLessThan(before);
    stopServing();
  });

  it("the first node's ENR decodes to its peer id, ip and ports", () => {
    const text = nodes[0]!.localEnr();
    expect(text).toMatch(/^enr:/);
    const enr = ENR.decodeTxt(text!);
    expect(enr.peerId.toString()).toBe(nodes[0]!.peerId);
    expect(enr.ip).toBe('127.0.0.1');
    const port = Number(nodes[0]!.multiaddrs()[0]!.split('/')[4]);
    expect(enr.tcp).toBe(port);
    expect(enr.udp).toBe(port);
    expect(nodes[1]!.localEnr()).toBeUndefined();
  });
});

describe('libp2p network: failures', () => {
  it('a request to a peer stopped mid-request fails within its timeout, and nothing else breaks', async () => {
    const a = await startTestNode();
    const b = await startTestNode({ bootstrapNodes: [a.multiaddrs()[0]!] });
    try {
      await waitFor(() => fullyConnected([a, b]), 'a and b connected');
      let stopping: Promise<void> | undefined;
      a.serve(
        servedHandlers({
          txsByHash: () => {
            stopping = a.stop();
            return new Promise(() => undefined);
          },
        }),
      );
      const txs = await b.requestTxs([`0x${'11'.repeat(32)}`], a.peerId);
      expect(txs).toEqual([]);
      await stopping;
    } finally {
      await b.stop();
    }
  });

  it('a request to a peer that never answers fails after its timeout and costs the peer a little', async () => {
    const a = await startTestNode();
    const b = await startTestNode({ bootstrapNodes: [a.multiaddrs()[0]!] });
    try {
      await waitFor(() => fullyConnected([a, b]), 'a and b connected');
      let asked = 0;
      a.serve(servedHandlers({ txsByHash: () => (asked++, new Promise(() => undefined)) }));
      const txs = await b.requestTxs([`0x${'12'.repeat(32)}`], a.peerId);
      expect(txs).toEqual([]);
      expect(asked).toBe(1);
      expect(b.peers(false).find((p) => p.id === a.peerId)?.score).toBeLessThan(0);
      expect(b.connectedPeerCount()).toBe(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a node of another L1 chain is refused at status', async () => {
    const a = await startTestNode();
    a.serve(servedHandlers());
    const b = await startTestNode({ l1ChainId: 1, bootstrapNodes: [a.multiaddrs()[0]!] });
    b.serve(servedHandlers({ status: () => testStatus(1) }));
    try {
      await waitFor(() => a.peers(true).some((p) => p.id === b.peerId), 'b dialed a');
      await waitFor(() => a.connectedPeerCount() === 0 && b.connectedPeerCount() === 0, 'disconnect at status');
      expect(a.peers(false).filter((p) => p.status === 'connected')).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('keeps its peer key in the data directory: same peer id after a restart, and it reconnects', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'p2p-key-'));
    try {
      const a = await startTestNode();
      const key = await loadOrCreatePeerKey(directory, undefined);
      expect((await stat(join(directory, PEER_KEY_FILE_NAME))).mode & 0o777).toBe(0o600);
      const b = await startTestNode({ privateKey: key, bootstrapNodes: [a.multiaddrs()[0]!] });
      const firstId = b.peerId;
      await waitFor(() => fullyConnected([a, b]), 'first connection');
      await b.stop();
      await waitFor(() => a.connectedPeerCount() === 0, 'a sees b leave');
      const again = await startTestNode({
        privateKey: await loadOrCreatePeerKey(directory, undefined),
        bootstrapNodes: [a.multiaddrs()[0]!],
      });
      expect(again.peerId).toBe(firstId);
      await waitFor(() => fullyConnected([a, again]), 'reconnection after restart');
      await Promise.all([a.stop(), again.stop()]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('takes P2P_PRIVATE_KEY as hex of 32 raw bytes or of the protobuf encoding', async () => {
    const raw = `0x${'01'.repeat(32)}`;
    const key = await loadOrCreatePeerKey(undefined, raw);
    expect(key.type).toBe('secp256k1');
    await expect(loadOrCreatePeerKey(undefined, 'zz')).rejects.toMatchObject({ code: 'P2P_PRIVATE_KEY_INVALID' });
  });
});

describe('libp2p network: discovery', () => {
  // discv5 answers a lookup with the nodes already in its table, and a lookup whose request timed out (a loaded
  // machine) finds nothing: production looks every 10 s, which gave only four tries in the wait below. Looking twice a
  // second makes the test depend on discovery working, not on how soon its first lookups land.
  const lookupIntervalMs = 500;
  it("two nodes given only the first one's ENR find each other and connect", async () => {
    const first = await startTestNode({ discovery: true, discoveryLookupIntervalMs: lookupIntervalMs });
    const enr = first.localEnr()!;
    const others = await Promise.all(
      [1, 2].map(() =>
        startTestNode({ discovery: true, discoveryLookupIntervalMs: lookupIntervalMs, bootstrapNodes: [enr] }),
      ),
    );
    try {
      await waitFor(() => others.every((n) => n.connectedPeerCount() >= 1), 'bootstrap by ENR', 15_000);
      const [b, c] = others as [Libp2pNetwork, Libp2pNetwork];
      await waitFor(
        () => b.peers(false).some((p) => p.id === c.peerId && p.status === 'connected'),
        'the two to find each other',
        45_000,
      );
    } finally {
      await Promise.all([first, ...others].map((node) => node.stop()));
    }
  }, 60_000);
});
