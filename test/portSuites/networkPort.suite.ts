/**
 * The network port's contract, run against every implementation: libp2p over loopback, the in-process bus and the
 * simulated network. Time passes only through the harness (`pass`, `waitFor`), so a simulated network runs it as well
 * as a real one. Three nodes, all connected to each other once `make` resolved.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointAttestationMessage, GossipMessage, GossipVerdict, NetworkPort } from '../../core/ports.js';
import { REQUESTS_PER_PEER_PER_S } from '../../spec/p2p/constants.js';
import { attestation, blockProposal, handlers, hashedTx, txMessage } from './networkFixtures.js';

export interface NetworkHarness {
  /** Node `index`'s current port (a rejoined node has a new one). */
  port(index: number): NetworkPort;
  /** The id the other nodes know node `index` by: the `from` of its messages and its NetworkPeer id. */
  peerIdOf(index: number): string;
  /** Lets time pass (a real sleep or a simulated run). */
  pass(ms: number): Promise<void>;
  /** Lets time pass until `done()` holds; fails naming `what` after `timeoutMs` of the harness's time. */
  waitFor(done: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Takes node `index` off the network (it stops, as a crashed or stopped node does). */
  leave(index: number): Promise<void>;
  /** Brings node `index` back with the same identity; resolves once it is connected to the others again. */
  rejoin(index: number): Promise<void>;
  close(): Promise<void>;
}

export const NETWORK_SUITE_NODES = 3;

interface Heard {
  readonly message: GossipMessage;
  readonly from: string;
}

export function describeNetworkPort(
  name: string,
  make: (nodeCount: number) => Promise<NetworkHarness>,
  options: { readonly timeoutMs?: number } = {},
): void {
  describe(`NetworkPort contract: ${name}`, { timeout: options.timeoutMs ?? 30_000 }, () => {
    let h: NetworkHarness;
    let heard: Heard[][];
    let verdicts: GossipVerdict[];

    const listen = (index: number): (() => void) =>
      h.port(index).subscribe((message, from) => {
        heard[index]!.push({ message, from });
        return verdicts[index]!;
      });

    beforeEach(async () => {
      h = await make(NETWORK_SUITE_NODES);
      heard = Array.from({ length: NETWORK_SUITE_NODES }, () => []);
      verdicts = Array.from({ length: NETWORK_SUITE_NODES }, () => 'accept');
      for (let index = 0; index < NETWORK_SUITE_NODES; index++) listen(index);
    });
    afterEach(async () => {
      await h.close();
    });

    it('delivers each message kind to every other node, from its publisher, never to the publisher', async () => {
      const messages: GossipMessage[] = [attestation(3), txMessage(1), blockProposal(3, 0)];
      for (const message of messages) h.port(0).publish(message);
      await h.waitFor(() => heard[1]!.length === 3 && heard[2]!.length === 3, 'delivery to nodes 1 and 2');
      for (const index of [1, 2]) {
        const byKind = new Map(heard[index]!.map((entry) => [entry.message.kind, entry]));
        for (const message of messages) expect(byKind.get(message.kind)).toEqual({ message, from: h.peerIdOf(0) });
      }
      await h.pass(200);
      expect(heard[0]).toEqual([]);
    });

    it('delivers a message published twice only once', async () => {
      h.port(1).publish(attestation(4));
      await h.waitFor(() => heard[0]!.length === 1 && heard[2]!.length === 1, 'first delivery');
      h.port(1).publish(attestation(4));
      h.port(1).publish(attestation(5));
      await h.waitFor(() => heard[0]!.length === 2 && heard[2]!.length === 2, 'the second, different message');
      await h.pass(300);
      for (const index of [0, 2]) {
        expect(heard[index]!.map((entry) => (entry.message as CheckpointAttestationMessage).payload.slot)).toEqual([
          4, 5,
        ]);
      }
    });

    it('scores a sender down for a message its receiver rejects, not for one it accepts or ignores', async () => {
      verdicts[1] = 'reject';
      verdicts[2] = 'ignore';
      h.port(0).publish(attestation(6));
      await h.waitFor(() => heard[1]!.length === 1 && heard[2]!.length === 1, 'delivery');
      const scoreOf = (at: number, of: number) =>
        h
          .port(at)
          .peers(true)
          .find((p) => p.id === h.peerIdOf(of))?.score;
      await h.waitFor(() => (scoreOf(1, 0) ?? 0) < 0, 'the rejecting node scores the sender down');
      expect(scoreOf(2, 0)).toBe(0);
    });

    it('stops delivering to a handler once unsubscribed', async () => {
      const extra: GossipMessage[] = [];
      const stop = h.port(2).subscribe((message) => (extra.push(message), 'accept'));
      stop();
      h.port(0).publish(attestation(7));
      await h.waitFor(() => heard[2]!.length === 1, 'delivery to the remaining handler');
      expect(extra).toEqual([]);
    });

    it('answers txs by hash from the peers that hold them, checking each hash', async () => {
      const [tx, unknown] = [hashedTx(11), hashedTx(12)];
      h.port(1).serve(handlers({ txsByHash: async (hashes) => (hashes.includes(tx.txHash) ? [tx] : []) }));
      const forged = { ...hashedTx(13), txHash: tx.txHash };
      h.port(2).serve(handlers({ txsByHash: async () => [forged] }));
      const answers = await h.port(0).requestTxs([tx.txHash, unknown.txHash], h.peerIdOf(2));
      expect(answers).toEqual([{ value: tx, from: h.peerIdOf(1) }]);
      const forger = h
        .port(0)
        .peers(true)
        .find((p) => p.id === h.peerIdOf(2));
      expect(forger?.score ?? 0).toBeLessThan(0);
    });

    it('answers a block proposal by slot and index, and nothing for one no peer holds', async () => {
      const proposal = blockProposal(9, 1);
      h.port(2).serve(
        handlers({ blockProposal: async (slot, index) => (slot === 9 && index === 1 ? proposal : undefined) }),
      );
      expect(await h.port(0).requestBlockProposal(9, 1)).toEqual({ value: proposal, from: h.peerIdOf(2) });
      expect(await h.port(0).requestBlockProposal(9, 2)).toBeUndefined();
    });

    it("refuses a peer's requests beyond its rate limit", async () => {
      let served = 0;
      h.port(1).serve(handlers({ blockProposal: async () => (served++, blockProposal(10, 0)) }));
      const burst = REQUESTS_PER_PEER_PER_S * 3;
      await Promise.all(Array.from({ length: burst }, () => h.port(0).requestBlockProposal(10, 0, h.peerIdOf(1))));
      expect(served).toBeGreaterThan(0);
      expect(served).toBeLessThanOrEqual(REQUESTS_PER_PEER_PER_S * 2);
    });

    it('lists connected peers, drops one that leaves, and takes it back when it returns', async () => {
      const connected = (at: number, of: number) =>
        h
          .port(at)
          .peers(false)
          .some((p) => p.id === h.peerIdOf(of) && p.status === 'connected');
      expect(connected(0, 1) && connected(0, 2)).toBe(true);
      await h.leave(2);
      await h.waitFor(() => !connected(0, 2), 'node 0 sees node 2 gone');
      h.port(0).publish(attestation(12));
      await h.waitFor(() => heard[1]!.length === 1, 'delivery to node 1 while node 2 is away');
      await h.rejoin(2);
      heard[2] = [];
      listen(2);
      await h.waitFor(() => connected(0, 2), 'node 0 sees node 2 back');
      h.port(0).publish(attestation(13));
      await h.waitFor(() => heard[2]!.length === 1, 'delivery to the returned node');
    });
  });
}
