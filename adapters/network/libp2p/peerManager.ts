/**
 * What this node thinks of its peers: scores (core/network/peerScores.ts, one rule for every network), the status
 * handshake of each connection, the peers it knows addresses of, and the consequences of a falling score: below the
 * disconnect threshold a goodbye(lowScore) and a hang-up, once banned a goodbye(banned), a hang-up and refusal
 * (the connection gater asks `isBanned`) for PEER_BAN_MS.
 */
import type { Libp2p } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { PeerScores, type PeerStanding } from '../../../core/network/peerScores.js';
import type { ClockPort, LoggerPort, NetworkPeer, PeerOffenseSeverity } from '../../../core/ports.js';
import type { GoodbyeReason } from '../../../spec/p2p/reqRespCodec.js';
import { GOODBYE_TIMEOUT_MS, HANDSHAKES_TRACKED_MAX, KNOWN_PEER_ADDRESSES_MAX, KNOWN_PEERS_MAX } from './limits.js';

export type SendGoodbye = (peer: string, reason: GoodbyeReason, timeoutMs: number) => Promise<void>;

export class PeerManager {
  readonly scores = new PeerScores();
  private readonly handshakeDone = new Set<string>();
  private readonly known = new Map<string, string[]>();
  /** Peers being sent away (goodbye in flight), so one offense burst sends one goodbye. */
  private readonly leaving = new Set<string>();
  private node: Libp2p | undefined;
  private sendGoodbye: SendGoodbye | undefined;

  constructor(
    private readonly clock: ClockPort,
    private readonly logger: LoggerPort,
  ) {}

  attach(node: Libp2p, sendGoodbye: SendGoodbye): void {
    this.node = node;
    this.sendGoodbye = sendGoodbye;
  }

  score(peer: string): number {
    return this.scores.score(peer, this.clock.now());
  }

  /** Healthy, or how far below the thresholds the peer's score is (a reconnecting peer is sent away unless healthy). */
  standing(peer: string): PeerStanding {
    return this.scores.standing(peer, this.clock.now());
  }

  isBanned(peer: string): boolean {
    return this.scores.isBanned(peer, this.clock.now());
  }

  /** Lowers the peer's score; sends it away when it fell below the disconnect threshold or got banned. */
  penalize(peer: string, severity: PeerOffenseSeverity, reason: string): void {
    const standing = this.scores.penalize(peer, severity, this.clock.now());
    this.logger.debug('peer penalized', { peer, severity, reason, score: this.score(peer), standing });
    if (standing === 'healthy' || !this.isConnected(peer)) return;
    this.logger.warn('disconnecting a peer for its score', { peer, reason, standing });
    void this.sendAway(peer, standing === 'banned' ? 'banned' : 'lowScore');
  }

  /** Says goodbye (bounded by GOODBYE_TIMEOUT_MS) and hangs up; never rejects. */
  async sendAway(peer: string, reason: GoodbyeReason): Promise<void> {
    if (this.leaving.has(peer) || this.node === undefined) return;
    this.leaving.add(peer);
    try {
      await this.sendGoodbye?.(peer, reason, GOODBYE_TIMEOUT_MS).catch((error: unknown) => {
        this.logger.debug('goodbye not delivered', { peer, reason, error: String(error) });
      });
      await this.node.hangUp(peerIdFromString(peer)).catch(() => undefined);
    } finally {
      this.leaving.delete(peer);
    }
  }

  isConnected(peer: string): boolean {
    return this.node !== undefined && this.node.getConnections(peerIdFromString(peer)).length > 0;
  }

  markHandshakeDone(peer: string): void {
    this.handshakeDone.delete(peer);
    this.handshakeDone.add(peer);
    if (this.handshakeDone.size > HANDSHAKES_TRACKED_MAX)
      this.handshakeDone.delete(this.handshakeDone.values().next().value!);
  }

  isHandshakeDone(peer: string): boolean {
    return this.handshakeDone.has(peer);
  }

  forgetConnection(peer: string): void {
    this.handshakeDone.delete(peer);
  }

  /** Remembers a peer's addresses (the freshest first), for `cached` peers and redials. */
  remember(peer: string, addresses: readonly string[]): void {
    const merged = [...new Set([...addresses, ...(this.known.get(peer) ?? [])])].slice(0, KNOWN_PEER_ADDRESSES_MAX);
    this.known.delete(peer);
    this.known.set(peer, merged);
    if (this.known.size > KNOWN_PEERS_MAX) this.known.delete(this.known.keys().next().value!);
  }

  /** Connected peers, best-scored first (banned and leaving ones left out): the order requests try them in. */
  rankedConnectedPeers(): string[] {
    if (this.node === undefined) return [];
    const connected = [...new Set(this.node.getConnections().map((c) => c.remotePeer.toString()))];
    return this.scores
      .ranked(connected, this.clock.now())
      .filter((peer) => !this.isBanned(peer) && !this.leaving.has(peer));
  }

  /** Connected (or pending, when asked), dialing and cached peers, one entry each. */
  peers(includePending: boolean): NetworkPeer[] {
    const node = this.node;
    if (node === undefined) return [];
    const entries = new Map<string, NetworkPeer>();
    const add = (id: string, status: NetworkPeer['status'], addresses: readonly string[]) => {
      if (!entries.has(id)) entries.set(id, { id, status, addresses: [...addresses], score: this.score(id) });
    };
    for (const connection of node.getConnections()) {
      const id = connection.remotePeer.toString();
      const status = this.isHandshakeDone(id) ? 'connected' : 'pending';
      if (status === 'pending' && !includePending) continue;
      add(id, status, [connection.remoteAddr.toString()]);
    }
    for (const dial of node.getDialQueue()) {
      if (dial.peerId !== undefined) add(dial.peerId.toString(), 'dialing', dial.multiaddrs.map(String));
    }
    for (const [id, addresses] of this.known) {
      if (id !== node.peerId.toString() && !(entries.has(id) || this.isConnected(id))) add(id, 'cached', addresses);
    }
    return [...entries.values()];
  }
}
