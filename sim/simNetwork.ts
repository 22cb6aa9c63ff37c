/**
 * The simulated validator gossip network: a bus between the nodes of one run. Each published message reaches every
 * other connected node after a latency drawn from the network's stream, unless the draw loses it or a partition
 * separates the two nodes. Delivery is a timer on the receiver's clock, so a paused node hears late and a crashed
 * incarnation never hears again (its clock is halted, and `disconnect` drops its subscribers).
 *
 * Messages are deep-frozen copies: a receiver can never change what another one sees.
 */
import { assert } from '../core/assert.js';
import type { ClockPort, GossipHandler, GossipMessage, NetworkPort } from '../core/ports.js';
import type { Prng } from './prng.js';
import type { Trace } from './trace.js';

/** Nodes one network may connect (incarnations included); more means a runaway run. */
export const SIM_NETWORK_ENDPOINTS_MAX = 1_024;

export interface SimNetworkOptions {
  readonly prng: Prng;
  /** Delivery latency, drawn uniformly in [min, max] ms per message and receiver. */
  readonly latencyMs?: { readonly min: number; readonly max: number };
  /** Chance that one delivery is lost. */
  readonly lossProbability?: number;
  readonly trace?: Trace;
}

interface Endpoint {
  readonly name: string;
  readonly clock: ClockPort;
  readonly handlers: Set<GossipHandler>;
}

export const SIM_NETWORK_LATENCY_MS_DEFAULT = { min: 20, max: 200 } as const;

function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.freeze(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozenCopy(v)]))) as T;
  }
  return value;
}

export class SimNetwork {
  private readonly endpoints = new Map<string, Endpoint>();
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
    const endpoint: Endpoint = { name, clock, handlers: new Set() };
    this.endpoints.set(name, endpoint);
    return {
      publish: (message) => this.publish(endpoint, message),
      subscribe: (handler) => {
        endpoint.handlers.add(handler);
        return () => endpoint.handlers.delete(handler);
      },
      serve: () => () => undefined,
      requestTxs: async () => [],
      requestBlockProposal: async () => undefined,
      penalize: () => undefined,
      peers: () =>
        [...this.endpoints.values()]
          .filter((other) => other !== endpoint)
          .map((other) => ({ id: other.name, status: 'connected', addresses: [], score: 0 })),
      localEnr: () => undefined,
    };
  }

  /** A crashed incarnation: it hears nothing more. */
  disconnect(name: string): void {
    this.endpoints.get(name)?.handlers.clear();
    this.endpoints.delete(name);
  }

  /** Publishes as no node (a scenario's forged or replayed message): every node may hear it. */
  inject(message: GossipMessage, fromName = 'outside'): void {
    this.publish({ name: fromName, clock: undefined as unknown as ClockPort, handlers: new Set() }, message);
  }

  private separated(a: string, b: string): boolean {
    if (this.groupOf === undefined) return false;
    // Nodes named in no group form one more group together.
    const groupOf = (name: string) => this.groupOf!.get(name.split('#')[0]!) ?? -1;
    return groupOf(a) !== groupOf(b);
  }

  private publish(from: Endpoint, message: GossipMessage): void {
    const copy = frozenCopy(message);
    this.trace?.record('network.published', {
      from: from.name,
      kind: message.kind,
      ...(message.kind === 'tx' ? { txHash: message.tx.txHash } : { slot: message.payload.slot }),
    });
    for (const to of [...this.endpoints.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (to === from || to.name.split('#')[0] === from.name.split('#')[0]) continue;
      if (this.separated(from.name, to.name)) continue;
      if (this.lossProbability > 0 && this.prng.bool(this.lossProbability)) continue;
      const latency = this.prng.int(this.latencyMs.min, this.latencyMs.max);
      to.clock.setTimeout(() => {
        for (const handler of [...to.handlers]) void handler(copy, from.name);
      }, latency);
    }
  }
}

export function createSimNetwork(options: SimNetworkOptions): SimNetwork {
  return new SimNetwork(options);
}
