/**
 * The peer-to-peer network between nodes in one process (the single-process local network, tests): every port is
 * connected to every other. What one port publishes reaches every other port's subscribers on a later turn of the
 * event loop, never its own, each as its own structured clone (as after a real network's decoding); a port drops a
 * message it has seen before (by content), as gossipsub does. Requests go to the other ports' served handlers in the
 * order of their scores. Scores follow core/network/peerScores.ts; a banned port's messages and answers are dropped.
 */
import { createHash } from 'node:crypto';
import { assert } from '../../core/assert.js';
import { combineVerdicts, PeerScores } from '../../core/network/peerScores.js';
import { RequestRateLimiter } from '../../core/network/rateLimiter.js';
import type {
  GossipHandler,
  GossipMessage,
  GossipVerdict,
  NetworkPeer,
  NetworkPort,
  NetworkRequestHandlers,
} from '../../core/ports.js';
import { computeTxHash } from '../../spec/codec/tx.js';
import { REQUESTS_GLOBAL_PER_S, REQUESTS_PER_PEER_PER_S } from '../../spec/p2p/constants.js';

/** Message ids one port remembers to drop duplicates; the oldest are forgotten first. */
export const IN_PROCESS_SEEN_MESSAGES_MAX = 16_384;

export interface InProcessBus {
  /** A node's port on the bus; `id` (unique while connected) defaults to a fresh one. */
  connect(id?: string): NetworkPort;
  /** Takes the node off the bus, as a stopped node: it hears and answers nothing more. */
  disconnect(id: string): void;
}

interface Member {
  readonly id: string;
  readonly handlers: Set<GossipHandler>;
  readonly seen: Set<string>;
  readonly scores: PeerScores;
  readonly limiter: RequestRateLimiter;
  served: NetworkRequestHandlers | undefined;
}

/** The handlers `server` serves `client` with, or undefined when it does not serve or refuses over its rate limits. */
function servedTo(server: Member, client: Member): NetworkRequestHandlers | undefined {
  if (server.served === undefined || server.scores.isBanned(client.id, Date.now())) return undefined;
  if (server.limiter.take(client.id, Date.now()) === 'allowed') return server.served;
  server.scores.penalize(client.id, 'low', Date.now());
  return undefined;
}

/** A message's id: sha256 of its canonical JSON (bigints as decimal strings). */
export function inProcessMessageId(message: GossipMessage): string {
  const json = JSON.stringify(message, (_key, value: unknown) =>
    typeof value === 'bigint' ? `${value.toString()}n` : value,
  );
  return createHash('sha256').update(json).digest('hex');
}

function remember(member: Member, id: string): boolean {
  if (member.seen.has(id)) return false;
  member.seen.add(id);
  if (member.seen.size > IN_PROCESS_SEEN_MESSAGES_MAX) member.seen.delete(member.seen.values().next().value!);
  return true;
}

async function deliver(to: Member, from: Member, message: GossipMessage): Promise<void> {
  if (to.scores.isBanned(from.id, Date.now())) return;
  const copy = structuredClone(message);
  const verdicts: GossipVerdict[] = [];
  for (const handler of [...to.handlers]) verdicts.push(await handler(copy, from.id));
  if (combineVerdicts(verdicts) === 'reject') to.scores.penalize(from.id, 'mid', Date.now());
}

export function createInProcessBus(): InProcessBus {
  const members = new Map<string, Member>();
  let nextId = 1;
  return {
    disconnect(id) {
      members.delete(id);
    },
    connect(id = `in-process-${nextId++}`) {
      assert(!members.has(id), `a node ${id} is on the bus already`);
      const self: Member = {
        id,
        handlers: new Set(),
        seen: new Set(),
        scores: new PeerScores(),
        limiter: new RequestRateLimiter(REQUESTS_PER_PEER_PER_S, REQUESTS_GLOBAL_PER_S, Date.now()),
        served: undefined,
      };
      members.set(self.id, self);
      const live = () => members.get(self.id) === self;
      const others = () =>
        (live() ? self.scores : new PeerScores())
          .ranked([...members.keys()], Date.now())
          .filter((id) => live() && id !== self.id && !self.scores.isBanned(id, Date.now()))
          .map((id) => members.get(id)!);
      const ordered = (preferred: string | undefined) => {
        const ranked = others();
        const first = ranked.filter((m) => m.id === preferred);
        return [...first, ...ranked.filter((m) => m.id !== preferred)];
      };
      return {
        publish(message) {
          const id = inProcessMessageId(message);
          remember(self, id);
          if (!live()) return;
          for (const other of members.values()) {
            if (other === self) continue;
            setImmediate(() => {
              if (members.get(other.id) === other && remember(other, id)) void deliver(other, self, message);
            });
          }
        },
        subscribe(handler) {
          self.handlers.add(handler);
          return () => self.handlers.delete(handler);
        },
        serve(handlers) {
          self.served = handlers;
          return () => {
            if (self.served === handlers) self.served = undefined;
          };
        },
        async requestTxs(hashes, preferredPeer) {
          const wanted = new Set(hashes.map((h) => h.toLowerCase()));
          const found: { value: Awaited<ReturnType<NetworkRequestHandlers['txsByHash']>>[number]; from: string }[] = [];
          for (const peer of ordered(preferredPeer)) {
            if (wanted.size === 0) break;
            const answer = (await servedTo(peer, self)?.txsByHash([...wanted].map((h) => h as `0x${string}`))) ?? [];
            for (const tx of structuredClone(answer)) {
              const hash = computeTxHash(tx).toLowerCase();
              if (!wanted.has(hash) || hash !== tx.txHash.toLowerCase()) {
                self.scores.penalize(peer.id, 'mid', Date.now());
                continue;
              }
              wanted.delete(hash);
              found.push({ value: tx, from: peer.id });
            }
          }
          return found;
        },
        async requestBlockProposal(slot, indexWithinCheckpoint, preferredPeer) {
          for (const peer of ordered(preferredPeer)) {
            const answer = await servedTo(peer, self)?.blockProposal(slot, indexWithinCheckpoint);
            if (answer === undefined) continue;
            const { payload } = answer;
            if (payload.slot === slot && payload.indexWithinCheckpoint === indexWithinCheckpoint)
              return { value: structuredClone(answer), from: peer.id };
            self.scores.penalize(peer.id, 'mid', Date.now());
          }
          return undefined;
        },
        penalize(peer, severity) {
          self.scores.penalize(peer, severity, Date.now());
        },
        peers(): readonly NetworkPeer[] {
          return [...members.values()]
            .filter((m) => m !== self && live())
            .map((m) => ({ id: m.id, status: 'connected', addresses: [], score: self.scores.score(m.id, Date.now()) }));
        },
        localEnr: () => undefined,
      };
    },
  };
}
