/**
 * The simulated peer-to-peer network between the nodes of one run, modelled on gossipsub and libp2p's
 * request/response, with every time taken from the nodes' clocks and every draw from the network's stream.
 *
 * Gossip: a publisher sends its message to each peer; each delivery draws its own loss and latency and is a timer on
 * the receiver's clock, so a paused node hears late and a crashed incarnation never hears again (its clock is halted,
 * and `disconnect` drops it). A node drops a message id it has seen (a bounded seen cache), asks its subscribers, and
 * forwards the message to its other peers only when their combined verdict accepts it; a rejected message costs the
 * peer that sent it (core/network/peerScores.ts). A message lost on one link therefore still arrives by another path.
 * The publisher never hears its own message. Partitions separate groups of nodes.
 *
 * Requests: a request and its answer each draw a latency and may be lost; a peer that does not answer within
 * REQUEST_TIMEOUT_MS (on the requester's clock) is scored down and the next one is asked, the preferred peer first,
 * then the best-scored, at most REQUEST_PEERS_TRIED_MAX. A server applies per-peer and global rate limits
 * (core/network/rateLimiter.ts). Partitioned and crashed peers never answer; banned peers are neither heard nor
 * answered.
 *
 * Messages and answers are deep-frozen copies: a receiver can never change what another one sees.
 */
import { hash } from 'node:crypto';
import { assert } from '../core/assert.js';
import { combineVerdicts, PeerScores } from '../core/network/peerScores.js';
import { RequestRateLimiter } from '../core/network/rateLimiter.js';
import type {
  BlockProposalMessage,
  ClockPort,
  GossipHandler,
  GossipMessage,
  GossipVerdict,
  NetworkAnswer,
  NetworkPeer,
  NetworkPort,
  NetworkRequestHandlers,
  PeerOffenseSeverity,
} from '../core/ports.js';
import type { Hex } from '../spec/chain.js';
import type { TxValue } from '../spec/wire/tx.js';
import { computeTxHash } from '../spec/codec/tx.js';
import {
  REQUEST_PEERS_TRIED_MAX,
  REQUEST_TIMEOUT_MS,
  REQUESTS_GLOBAL_PER_S,
  REQUESTS_PER_PEER_PER_S,
  TXS_BY_HASH_REQUEST_HASHES_MAX,
} from '../spec/p2p/constants.js';
import type { Prng } from './prng.js';
import type { Trace } from './trace.js';

/** Nodes one network may connect (incarnations included); more means a runaway run. */
export const SIM_NETWORK_ENDPOINTS_MAX = 1_024;
/** Message ids one node remembers to drop duplicates (gossipsub's seen cache); the oldest are forgotten first. */
export const SIM_NETWORK_SEEN_MESSAGES_MAX = 16_384;

export const SIM_NETWORK_LATENCY_MS_DEFAULT = { min: 20, max: 200 } as const;

export interface SimNetworkOptions {
  readonly prng: Prng;
  /** Latency of one delivery (a gossip hop, a request, an answer), drawn uniformly in [min, max] ms. */
  readonly latencyMs?: { readonly min: number; readonly max: number };
  /** Chance that one delivery is lost. */
  readonly lossProbability?: number;
  readonly trace?: Trace;
}

interface Endpoint {
  /** `node` or `node#incarnation`: the peer id the others know it by. */
  readonly name: string;
  /** The node's name without the incarnation: partitions, and the node never hearing itself, go by it. */
  readonly node: string;
  readonly clock: ClockPort;
  readonly handlers: Set<GossipHandler>;
  readonly seen: Set<string>;
  readonly scores: PeerScores;
  readonly limiter: RequestRateLimiter;
  served: NetworkRequestHandlers | undefined;
}

/** A gossip message on its way: its id (from its content, as gossipsub's) and the node that first published it. */
interface Envelope {
  readonly id: string;
  readonly message: GossipMessage;
  readonly origin: string;
}

/** How one request to one peer ended. */
type Attempt<T> =
  { readonly kind: 'answered'; readonly value: T } | { readonly kind: 'refused' } | { readonly kind: 'timedOut' };

/** What a request asks, for the trace. */
type RequestLabel =
  | { readonly kind: 'blockProposal'; readonly slot: number; readonly index: number }
  | {
      readonly kind: 'txsByHash';
      readonly count: number;
    };

const nodeOf = (name: string): string => name.split('#')[0]!;

function frozenCopy<T>(value: T): T {
  if (ArrayBuffer.isView(value)) return (value as unknown as Uint8Array).slice() as T;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.freeze(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozenCopy(v)]))) as T;
  }
  return value;
}

/** A message's id: sha256 of its canonical JSON (bigints as decimal strings). */
export function simMessageId(message: GossipMessage): string {
  const json = JSON.stringify(message, (_key, value: unknown) =>
    typeof value === 'bigint' ? `${value.toString()}n` : value,
  );
  return hash('sha256', json, 'hex');
}

/** Adds the id to the seen cache; false when it was there already. */
function remember(seen: Set<string>, id: string): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  if (seen.size > SIM_NETWORK_SEEN_MESSAGES_MAX) seen.delete(seen.values().next().value!);
  return true;
}

async function verdictOf(endpoint: Endpoint, message: GossipMessage, from: string): Promise<GossipVerdict> {
  const verdicts = await Promise.all(
    [...endpoint.handlers].map(async (handler): Promise<GossipVerdict> => {
      try {
        return await handler(message, from);
      } catch {
        return 'ignore';
      }
    }),
  );
  return combineVerdicts(verdicts);
}

export class SimNetwork {
  private readonly endpoints = new Map<string, Endpoint>();
  /** The endpoints ordered by name: the order of every loop that draws. */
  private ordered: Endpoint[] = [];
  /** Group of each node while partitioned; undefined when healed. */
  private groupOf: Map<string, number> | undefined;
  private latencyMs: { min: number; max: number };
  private lossProbability: number;
  private readonly prng: Prng;
  private readonly trace: Trace | undefined;

  constructor(options: SimNetworkOptions) {
    this.prng = options.prng;
    this.trace = options.trace;
    this.latencyMs = { ...(options.latencyMs ?? SIM_NETWORK_LATENCY_MS_DEFAULT) };
    this.lossProbability = options.lossProbability ?? 0;
    this.setLatencyMs(this.latencyMs);
    this.setLossProbability(this.lossProbability);
  }

  setLatencyMs(latency: { readonly min: number; readonly max: number }): void {
    assert(
      Number.isSafeInteger(latency.min) &&
        latency.min >= 0 &&
        latency.max >= latency.min &&
        Number.isSafeInteger(latency.max),
      'latency is a range of non-negative ms',
    );
    this.latencyMs = { ...latency };
  }

  setLossProbability(probability: number): void {
    assert(probability >= 0 && probability <= 1, `loss probability ${probability} must be in [0, 1]`);
    this.lossProbability = probability;
  }

  /** Splits the network: nodes (by base name, incarnations included) in different groups do not hear each other. */
  partition(groups: readonly (readonly string[])[]): void {
    this.groupOf = new Map(groups.flatMap((group, index) => group.map((name) => [name, index] as const)));
    this.trace?.record('network.partitioned', { groups: groups.map((g) => [...g]) });
  }

  heal(): void {
    this.groupOf = undefined;
    this.trace?.record('network.healed', {});
  }

  get partitioned(): boolean {
    return this.groupOf !== undefined;
  }

  /** A node incarnation's port; `name` is `node` or `node#incarnation`, and partitions go by the base name. */
  connect(name: string, clock: ClockPort): NetworkPort {
    assert(!this.endpoints.has(name), `a network endpoint named ${name} exists`);
    assert(this.endpoints.size < SIM_NETWORK_ENDPOINTS_MAX, `at most ${SIM_NETWORK_ENDPOINTS_MAX} network endpoints`);
    const endpoint: Endpoint = {
      name,
      node: nodeOf(name),
      clock,
      handlers: new Set(),
      seen: new Set(),
      scores: new PeerScores(),
      limiter: new RequestRateLimiter(REQUESTS_PER_PEER_PER_S, REQUESTS_GLOBAL_PER_S, clock.now()),
      served: undefined,
    };
    this.endpoints.set(name, endpoint);
    this.reorder();
    return this.portOf(endpoint);
  }

  /** A crashed incarnation: it hears nothing more and answers nothing more. */
  disconnect(name: string): void {
    const endpoint = this.endpoints.get(name);
    if (endpoint === undefined) return;
    endpoint.handlers.clear();
    endpoint.served = undefined;
    this.endpoints.delete(name);
    this.reorder();
  }

  /** Publishes as no node (a scenario's forged or replayed message): every node may hear it. */
  inject(message: GossipMessage, fromName = 'outside'): void {
    this.publish(fromName, undefined, message);
  }

  private portOf(endpoint: Endpoint): NetworkPort {
    return {
      publish: (message) => this.publish(endpoint.name, endpoint, message),
      subscribe: (handler) => {
        endpoint.handlers.add(handler);
        return () => endpoint.handlers.delete(handler);
      },
      serve: (handlers) => {
        endpoint.served = handlers;
        return () => {
          if (endpoint.served === handlers) endpoint.served = undefined;
        };
      },
      requestTxs: (hashes, preferredPeer) => this.requestTxs(endpoint, hashes, preferredPeer),
      requestBlockProposal: (slot, index, preferredPeer) =>
        this.requestBlockProposal(endpoint, slot, index, preferredPeer),
      penalize: (peer, severity, reason) => this.penalize(endpoint, peer, severity, reason),
      peers: () => this.peersOf(endpoint),
      localEnr: () => undefined,
    };
  }

  private reorder(): void {
    this.ordered = [...this.endpoints.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  private connected(endpoint: Endpoint): boolean {
    return this.endpoints.get(endpoint.name) === endpoint;
  }

  private separated(a: string, b: string): boolean {
    if (this.groupOf === undefined) return false;
    // Nodes named in no group form one more group together.
    const groupOf = (name: string) => this.groupOf!.get(nodeOf(name)) ?? -1;
    return groupOf(a) !== groupOf(b);
  }

  /** The peers `endpoint` is connected to: other nodes in its partition group that it has not banned. */
  private reachablePeers(endpoint: Endpoint): Endpoint[] {
    const nowMs = endpoint.clock.now();
    return this.ordered.filter(
      (other) =>
        other.node !== endpoint.node &&
        !this.separated(endpoint.name, other.name) &&
        !endpoint.scores.isBanned(other.name, nowMs),
    );
  }

  private peersOf(endpoint: Endpoint): readonly NetworkPeer[] {
    const nowMs = endpoint.clock.now();
    return this.reachablePeers(endpoint).map((other) => ({
      id: other.name,
      status: 'connected',
      addresses: [],
      score: endpoint.scores.score(other.name, nowMs),
    }));
  }

  private penalize(endpoint: Endpoint, peer: string, severity: PeerOffenseSeverity, reason: string): void {
    const standing = endpoint.scores.penalize(peer, severity, endpoint.clock.now());
    this.trace?.record('network.penalized', { by: endpoint.name, peer, severity, reason, standing });
  }

  /**
   * One delivery from `from` to `to`: lost by a draw, or run on `to`'s clock after a drawn latency, unless a partition
   * separates them now or `to` has left the network by then.
   */
  private transmit(from: string, to: Endpoint, onArrival: () => void): void {
    if (this.separated(from, to.name)) return;
    if (this.lossProbability > 0 && this.prng.bool(this.lossProbability)) return;
    const latencyMs = this.prng.int(this.latencyMs.min, this.latencyMs.max);
    to.clock.setTimeout(() => {
      if (this.connected(to)) onArrival();
    }, latencyMs);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Gossip

  private publish(fromName: string, from: Endpoint | undefined, message: GossipMessage): void {
    const id = simMessageId(message);
    this.trace?.record('network.published', {
      from: fromName,
      kind: message.kind,
      ...(message.kind === 'tx' ? { txHash: message.tx.txHash } : { slot: message.payload.slot }),
    });
    // A message the node has seen (published or heard) is not sent again, as gossipsub refuses a duplicate publish.
    if (from !== undefined && !remember(from.seen, id)) return;
    this.forward(fromName, from, { id, message: frozenCopy(message), origin: fromName }, undefined);
  }

  /** Sends a message on to every peer but its origin and the peer it came from (and those the sender banned). */
  private forward(
    fromName: string,
    from: Endpoint | undefined,
    envelope: Envelope,
    cameFrom: string | undefined,
  ): void {
    const nowMs = from?.clock.now() ?? 0;
    const skipped = new Set([nodeOf(fromName), nodeOf(envelope.origin), ...(cameFrom ? [nodeOf(cameFrom)] : [])]);
    for (const to of this.ordered) {
      if (skipped.has(to.node) || from?.scores.isBanned(to.name, nowMs) === true) continue;
      this.transmit(fromName, to, () => void this.receive(to, fromName, envelope));
    }
  }

  /** A message arrives at `to` from peer `from`: dropped when seen or banned, else judged, then forwarded or blamed. */
  private async receive(to: Endpoint, from: string, envelope: Envelope): Promise<void> {
    if (to.scores.isBanned(from, to.clock.now()) || !remember(to.seen, envelope.id)) return;
    const verdict = await verdictOf(to, envelope.message, from);
    if (!this.connected(to)) return;
    if (verdict === 'reject') {
      const standing = to.scores.penalize(from, 'mid', to.clock.now());
      this.trace?.record('network.rejected', { by: to.name, from, kind: envelope.message.kind, standing });
    }
    if (verdict === 'accept') this.forward(to.name, to, envelope, from);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Requests

  /** The peers a request tries, in order: the preferred one first, then the best-scored; at most the bound. */
  private requestOrder(requester: Endpoint, preferredPeer: string | undefined): Endpoint[] {
    const reachable = this.reachablePeers(requester);
    const ranked = requester.scores.ranked(
      reachable.map((e) => e.name),
      requester.clock.now(),
    );
    const first = ranked.filter((name) => name === preferredPeer);
    return [...first, ...ranked.filter((name) => name !== preferredPeer)]
      .slice(0, REQUEST_PEERS_TRIED_MAX)
      .map((name) => this.endpoints.get(name)!);
  }

  /**
   * One request to one peer: sent, served under the server's rate limits, answered; a peer silent for
   * REQUEST_TIMEOUT_MS on the requester's clock is scored down. Resolves once, whichever comes first.
   */
  private attempt<T>(
    requester: Endpoint,
    server: Endpoint,
    label: RequestLabel,
    ask: (handlers: NetworkRequestHandlers) => Promise<T>,
  ): Promise<Attempt<T>> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: Attempt<T>) => {
        if (settled) return;
        settled = true;
        requester.clock.clearTimeout(timer);
        this.trace?.record(`network.${outcome.kind}`, { from: requester.name, to: server.name, ...label });
        resolve(outcome);
      };
      const timer = requester.clock.setTimeout(() => {
        if (settled) return;
        requester.scores.penalize(server.name, 'low', requester.clock.now());
        settle({ kind: 'timedOut' });
      }, REQUEST_TIMEOUT_MS);
      this.trace?.record('network.requested', { from: requester.name, to: server.name, ...label });
      this.transmit(
        requester.name,
        server,
        () =>
          void this.serveRequest(server, requester.name, ask).then((outcome) => {
            if (outcome !== undefined && this.connected(server))
              this.transmit(server.name, requester, () => settle(outcome));
          }),
      );
    });
  }

  /** The server's side: silent to a banned peer, refused beyond the rate limits or when not serving, else answered. */
  private async serveRequest<T>(
    server: Endpoint,
    requester: string,
    ask: (handlers: NetworkRequestHandlers) => Promise<T>,
  ): Promise<Attempt<T> | undefined> {
    const nowMs = server.clock.now();
    if (server.scores.isBanned(requester, nowMs)) return undefined;
    if (server.limiter.take(requester, nowMs) !== 'allowed' || server.served === undefined) return { kind: 'refused' };
    try {
      return { kind: 'answered', value: frozenCopy(await ask(server.served)) };
    } catch {
      return { kind: 'refused' };
    }
  }

  private async requestBlockProposal(
    requester: Endpoint,
    slot: number,
    index: number,
    preferredPeer: string | undefined,
  ): Promise<NetworkAnswer<BlockProposalMessage> | undefined> {
    const label = { kind: 'blockProposal', slot, index } as const;
    for (const server of this.requestOrder(requester, preferredPeer)) {
      const outcome = await this.attempt(requester, server, label, (handlers) => handlers.blockProposal(slot, index));
      if (outcome.kind !== 'answered' || outcome.value === undefined) continue;
      const { payload } = outcome.value;
      if (payload.slot === slot && payload.indexWithinCheckpoint === index)
        return { value: outcome.value, from: server.name };
      this.penalize(requester, server.name, 'mid', 'another block proposal than asked');
    }
    return undefined;
  }

  /** Asks peer after peer for the txs not found yet, in requests of at most TXS_BY_HASH_REQUEST_HASHES_MAX hashes. */
  private async requestTxs(
    requester: Endpoint,
    hashes: readonly Hex[],
    preferredPeer: string | undefined,
  ): Promise<readonly NetworkAnswer<TxValue>[]> {
    const wanted = new Set(hashes.map((h) => h.toLowerCase() as Hex));
    const found: NetworkAnswer<TxValue>[] = [];
    for (const server of this.requestOrder(requester, preferredPeer)) {
      if (wanted.size === 0) break;
      const remaining = [...wanted];
      for (let start = 0; start < remaining.length; start += TXS_BY_HASH_REQUEST_HASHES_MAX) {
        const asked = remaining.slice(start, start + TXS_BY_HASH_REQUEST_HASHES_MAX);
        const label = { kind: 'txsByHash', count: asked.length } as const;
        const outcome = await this.attempt(requester, server, label, (handlers) => handlers.txsByHash(asked));
        if (outcome.kind !== 'answered') break;
        const kept = this.checkedTxs(requester, server.name, outcome.value, wanted);
        found.push(...kept.map((tx) => ({ value: tx, from: server.name })));
      }
    }
    return found;
  }

  /** The answered txs that were wanted and hash to their hash (taken out of `wanted`); a bad one costs the peer. */
  private checkedTxs(requester: Endpoint, server: string, answer: readonly TxValue[], wanted: Set<Hex>): TxValue[] {
    const kept: TxValue[] = [];
    let bad = false;
    for (const tx of answer) {
      const txHash = computeTxHash(tx).toLowerCase() as Hex;
      if (!wanted.has(txHash) || txHash !== tx.txHash.toLowerCase()) {
        bad = true;
        continue;
      }
      wanted.delete(txHash);
      kept.push(tx);
    }
    if (bad) this.penalize(requester, server, 'mid', 'a tx that was not asked for or does not hash to its hash');
    return kept;
  }
}

export function createSimNetwork(options: SimNetworkOptions): SimNetwork {
  return new SimNetwork(options);
}
