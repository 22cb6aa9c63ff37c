/**
 * Bootstrap nodes: each an `enr:...` (decoded to its TCP multiaddr, and given to discv5 too) or a multiaddr with
 * `/p2p/<id>`. The node keeps them connected: it dials each at start and, whenever one is not connected, again after a
 * backoff that grows from BOOTSTRAP_REDIAL_FIRST_MS by BOOTSTRAP_REDIAL_FACTOR up to BOOTSTRAP_REDIAL_MAX_MS and
 * resets once a dial succeeds.
 */
import { ENR } from '@chainsafe/enr';
import type { Libp2p } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { multiaddr, type Multiaddr } from '@multiformats/multiaddr';
import type { ClockPort, LoggerPort, TimerId } from '../../../core/ports.js';
import { DIAL_TIMEOUT_MS } from '../../../spec/p2p/constants.js';
import {
  BOOTSTRAP_NODES_MAX,
  BOOTSTRAP_REDIAL_FACTOR,
  BOOTSTRAP_REDIAL_FIRST_MS,
  BOOTSTRAP_REDIAL_MAX_MS,
} from './limits.js';
import type { PeerManager } from './peerManager.js';

export interface BootstrapTarget {
  readonly peer: string;
  readonly address: Multiaddr;
  /** The ENR it was given as, for discv5. */
  readonly enr?: ENR;
}

/** The usable entries; an unusable one (no peer id, no TCP address, not decodable) is logged and skipped. */
export function parseBootstrapNodes(entries: readonly string[], logger: LoggerPort): BootstrapTarget[] {
  if (entries.length > BOOTSTRAP_NODES_MAX) logger.warn('too many bootstrap nodes', { used: BOOTSTRAP_NODES_MAX });
  const targets: BootstrapTarget[] = [];
  for (const entry of entries.slice(0, BOOTSTRAP_NODES_MAX)) {
    try {
      targets.push(parseBootstrapNode(entry.trim()));
    } catch (error) {
      logger.warn('bootstrap node skipped', { entry: entry.slice(0, 200), error: String(error) });
    }
  }
  return targets;
}

export function parseBootstrapNode(entry: string): BootstrapTarget {
  if (entry.startsWith('enr:')) {
    const enr = ENR.decodeTxt(entry);
    const location = enr.getLocationMultiaddr('tcp');
    if (location === undefined) throw new Error('the ENR has no ip and tcp port');
    const peer = enr.peerId.toString();
    return { peer, address: location.encapsulate(`/p2p/${peer}`), enr };
  }
  const address = multiaddr(entry);
  const peer = address.getPeerId();
  if (peer === null) throw new Error('a bootstrap multiaddr needs /p2p/<peer id>');
  peerIdFromString(peer);
  return { peer, address };
}

export interface BootstrapDialerContext {
  readonly node: Libp2p;
  readonly peers: PeerManager;
  readonly clock: ClockPort;
  readonly logger: LoggerPort;
}

/** Dials the targets now and keeps redialing them while disconnected; returns the function that stops it. */
export function keepBootstrapPeersConnected(context: BootstrapDialerContext, targets: BootstrapTarget[]): () => void {
  const { node, peers, clock, logger } = context;
  const self = node.peerId.toString();
  let stopped = false;
  const timers = new Map<string, TimerId>();
  const delays = new Map<string, number>();
  const schedule = (target: BootstrapTarget, delayMs: number) => {
    if (stopped || timers.has(target.peer)) return;
    timers.set(
      target.peer,
      clock.setTimeout(() => {
        timers.delete(target.peer);
        void attempt(target);
      }, delayMs),
    );
  };
  const attempt = async (target: BootstrapTarget) => {
    if (stopped || peers.isConnected(target.peer)) return;
    const delayMs = delays.get(target.peer) ?? BOOTSTRAP_REDIAL_FIRST_MS;
    if (peers.isBanned(target.peer)) return schedule(target, BOOTSTRAP_REDIAL_MAX_MS);
    try {
      await node.dial(target.address, { signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) });
      delays.delete(target.peer);
    } catch (error) {
      logger.debug('bootstrap dial failed', { peer: target.peer, retryInMs: delayMs, error: String(error) });
      delays.set(target.peer, Math.min(BOOTSTRAP_REDIAL_MAX_MS, delayMs * BOOTSTRAP_REDIAL_FACTOR));
      schedule(target, delayMs);
    }
  };
  const byPeer = new Map(targets.filter((t) => t.peer !== self).map((t) => [t.peer, t]));
  const onDisconnect = (event: CustomEvent<{ toString(): string }>) => {
    const target = byPeer.get(event.detail.toString());
    if (target !== undefined) schedule(target, delays.get(target.peer) ?? BOOTSTRAP_REDIAL_FIRST_MS);
  };
  node.addEventListener('peer:disconnect', onDisconnect);
  for (const target of byPeer.values()) {
    peers.remember(target.peer, [target.address.toString()]);
    void attempt(target);
  }
  return () => {
    stopped = true;
    node.removeEventListener('peer:disconnect', onDisconnect);
    for (const timer of timers.values()) clock.clearTimeout(timer);
    timers.clear();
  };
}
