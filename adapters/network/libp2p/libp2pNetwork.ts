/**
 * The NetworkPort over libp2p 2 (docs/protocol.md, Peer-to-peer): TCP, noise, yamux, identify, gossipsub for gossip
 * (gossip.ts), request/response protocols (requestServer.ts, requests.ts), scores and goodbyes (peerManager.ts),
 * bootstrap nodes kept connected (bootstrap.ts) and discv5 with the node's ENR (discovery.ts).
 */
import './polyfills.js';
import type { GossipSub } from '@chainsafe/libp2p-gossipsub';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import type { ENR } from '@chainsafe/enr';
import { identify } from '@libp2p/identify';
import type { Libp2p, PeerId, PrivateKey } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { RequestRateLimiter } from '../../../core/network/rateLimiter.js';
import type {
  ClockPort,
  GossipHandler,
  LoggerPort,
  NetworkPort,
  NetworkRequestHandlers,
  NetworkStatus,
} from '../../../core/ports.js';
import { DIAL_TIMEOUT_MS, REQUESTS_GLOBAL_PER_S, REQUESTS_PER_PEER_PER_S } from '../../../spec/p2p/constants.js';
import { encodeGossipMessage, gossipTopic } from '../../../spec/p2p/gossipCodec.js';
import { createSystemClock } from '../../clock/systemClock.js';
import { keepBootstrapPeersConnected, parseBootstrapNodes } from './bootstrap.js';
import { startDiscovery, type Discovery } from './discovery.js';
import { createGossipService, deliverGossip, GOSSIP_TOPICS, screenIncomingRpcs } from './gossip.js';
import { DISCOVERY_DIALS_IN_FLIGHT_MAX, DISCOVERY_LOOKUP_INTERVAL_MS, GOODBYE_TIMEOUT_MS } from './limits.js';
import { PeerManager } from './peerManager.js';
import { serveRequests } from './requestServer.js';
import { exchangeStatus, requestBlockProposal, requestTxs, sendGoodbye, type RequestsContext } from './requests.js';

export interface Libp2pNetworkOptions {
  readonly listenAddress: string;
  /** TCP for libp2p and UDP for discv5, same number; 0 = any free port (tests). */
  readonly port: number;
  /** Host or host:port put in the ENR and the announced multiaddr. */
  readonly announceAddress?: string;
  /** Each an `enr:...` or a multiaddr with /p2p/<id>. */
  readonly bootstrapNodes: readonly string[];
  readonly maxPeers: number;
  /** From loadOrCreatePeerKey. */
  readonly privateKey: PrivateKey;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  /** discv5 on/off. */
  readonly discovery: boolean;
  /** ms between discv5's random lookups while below maxPeers (default DISCOVERY_LOOKUP_INTERVAL_MS). */
  readonly discoveryLookupIntervalMs?: number;
  readonly logger: LoggerPort;
  /** For scores, rate limits and redials; the system clock by default. */
  readonly clock?: ClockPort;
}

export interface Libp2pNetwork extends NetworkPort {
  readonly peerId: string;
  /** What peers can dial, with /p2p/<id>. */
  multiaddrs(): string[];
  connectedPeerCount(): number;
  /** Sends goodbye(shutdown) to peers, then stops. */
  stop(): Promise<void>;
}

const ZERO_HASH = `0x${'00'.repeat(32)}` as const;

/** Where the node says it is: the announced host and port, else the listen address and the bound port. */
function announcedLocation(options: Libp2pNetworkOptions, boundPort: number): { host: string; port: number } {
  const [host, port] = (options.announceAddress ?? '').split(':');
  const fallbackHost = options.listenAddress === '0.0.0.0' ? '127.0.0.1' : options.listenAddress;
  return { host: host || fallbackHost, port: port ? Number(port) : boundPort };
}

export async function startLibp2pNetwork(options: Libp2pNetworkOptions): Promise<Libp2pNetwork> {
  const clock = options.clock ?? createSystemClock();
  const logger = options.logger.child({ component: 'p2p' });
  const peers = new PeerManager(clock, logger);
  const senders = new WeakMap<Uint8Array, string>();
  const handlers = new Set<GossipHandler>();
  const stopping = new AbortController();
  let served: NetworkRequestHandlers | undefined;
  const announce = options.announceAddress === undefined ? undefined : announcedLocation(options, options.port);
  const node = await createLibp2p({
    privateKey: options.privateKey,
    addresses: {
      listen: [`/ip4/${options.listenAddress}/tcp/${options.port}`],
      announce: announce === undefined ? [] : [announceMultiaddr(announce.host, announce.port)],
    },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionManager: { maxConnections: options.maxPeers, dialTimeout: DIAL_TIMEOUT_MS },
    connectionGater: {
      denyDialPeer: (peer: PeerId) => peers.isBanned(peer.toString()),
      denyInboundEncryptedConnection: (peer: PeerId) => peers.isBanned(peer.toString()),
      denyOutboundEncryptedConnection: (peer: PeerId) => peers.isBanned(peer.toString()),
    },
    services: { identify: identify(), pubsub: createGossipService(peers, senders) },
    start: false,
  });
  const pubsub = node.services.pubsub as unknown as GossipSub;
  screenIncomingRpcs(pubsub, peers, senders);
  deliverGossip(pubsub, { peers, logger, handlers });
  const requests: RequestsContext = { node, peers, logger, signal: stopping.signal };
  peers.attach(node, (peer, reason, timeoutMs) => sendGoodbye(requests, peer, reason, timeoutMs));

  const localStatus = (): NetworkStatus =>
    served?.status() ?? {
      l1ChainId: options.l1ChainId,
      rollupVersion: options.rollupVersion,
      proposedBlock: { number: 0, hash: ZERO_HASH },
      checkpointedBlock: { number: 0, hash: ZERO_HASH },
    };
  const onPeerStatus = (peer: string, status: NetworkStatus) => {
    if (status.l1ChainId !== options.l1ChainId || status.rollupVersion !== options.rollupVersion) {
      logger.info('peer of another network refused', {
        peer,
        l1ChainId: status.l1ChainId,
        rollupVersion: status.rollupVersion,
      });
      void peers.sendAway(peer, 'wrongNetwork');
      return;
    }
    peers.markHandshakeDone(peer);
  };
  watchConnections(node, peers, logger, async (peer) =>
    onPeerStatus(peer, await exchangeStatus(requests, peer, localStatus())),
  );

  await node.start();
  await serveRequests(node, {
    clock,
    logger,
    peers,
    rateLimiter: new RequestRateLimiter(REQUESTS_PER_PEER_PER_S, REQUESTS_GLOBAL_PER_S, clock.now()),
    served: () => served,
    localStatus,
    onPeerStatus,
    onGoodbye: (peer, reason) => {
      logger.info('peer said goodbye', { peer, reason });
      peers.forgetConnection(peer);
    },
  });
  for (const topic of GOSSIP_TOPICS) pubsub.subscribe(topic);

  const boundPort = boundTcpPort(node) ?? options.port;
  const location = announcedLocation(options, boundPort);
  const targets = parseBootstrapNodes(options.bootstrapNodes, logger);
  const stopBootstrap = keepBootstrapPeersConnected({ node, peers, clock, logger }, targets);
  const discovery = options.discovery
    ? await startDiscoveryFor(
        node,
        options,
        { peers, clock, logger },
        location,
        boundPort,
        targets.flatMap((t) => (t.enr ? [t.enr] : [])),
      )
    : undefined;
  logger.info('p2p started', { peerId: node.peerId.toString(), addresses: node.getMultiaddrs().map(String) });

  return {
    peerId: node.peerId.toString(),
    multiaddrs: () => node.getMultiaddrs().map(String),
    connectedPeerCount: () => new Set(node.getConnections().map((c) => c.remotePeer.toString())).size,
    publish(message) {
      let bytes: Uint8Array;
      try {
        bytes = encodeGossipMessage(message);
      } catch (error) {
        logger.warn('gossip message not publishable', { kind: message.kind, error: String(error) });
        return;
      }
      pubsub.publish(gossipTopic(message.kind), bytes).catch((error: unknown) => {
        logger.debug('gossip not published', { kind: message.kind, error: String(error) });
      });
    },
    subscribe(handler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    serve(next) {
      served = next;
      return () => {
        if (served === next) served = undefined;
      };
    },
    requestTxs: (hashes, preferredPeer) => requestTxs(requests, hashes, preferredPeer),
    requestBlockProposal: (slot, index, preferredPeer) => requestBlockProposal(requests, slot, index, preferredPeer),
    penalize: (peer, severity, reason) => peers.penalize(peer, severity, reason),
    peers: (includePending) => peers.peers(includePending),
    localEnr: () => discovery?.enr.encodeTxt(),
    async stop() {
      stopBootstrap();
      const connected = [...new Set(node.getConnections().map((c) => c.remotePeer.toString()))];
      await Promise.all(
        connected.map((peer) => sendGoodbye(requests, peer, 'shutdown', GOODBYE_TIMEOUT_MS).catch(() => undefined)),
      );
      stopping.abort();
      await discovery?.stop().catch(() => undefined);
      await node.stop();
    },
  };
}

function announceMultiaddr(host: string, port: number): string {
  const protocol = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ? 'ip4' : 'dns4';
  return `/${protocol}/${host}/tcp/${port}`;
}

function boundTcpPort(node: Libp2p): number | undefined {
  for (const address of node.getMultiaddrs()) {
    const tcpPart = address.stringTuples().find(([code]) => code === 6);
    if (tcpPart?.[1] !== undefined) return Number(tcpPart[1]);
  }
  return undefined;
}

/** Status handshake on every new connection; banned peers are sent away, closed connections forgotten. */
function watchConnections(
  node: Libp2p,
  peers: PeerManager,
  logger: LoggerPort,
  handshake: (peer: string) => Promise<void>,
): void {
  node.addEventListener('peer:connect', (event) => {
    const peer = event.detail.toString();
    const standing = peers.standing(peer);
    if (standing !== 'healthy') return void peers.sendAway(peer, standing === 'banned' ? 'banned' : 'lowScore');
    handshake(peer).catch((error: unknown) => {
      logger.debug('status handshake failed', { peer, error: String(error) });
      peers.penalize(peer, 'low', 'status handshake failed');
    });
  });
  node.addEventListener('peer:disconnect', (event) => peers.forgetConnection(event.detail.toString()));
  node.addEventListener('peer:identify', (event) => {
    peers.remember(event.detail.peerId.toString(), event.detail.listenAddrs.map(String));
  });
}

async function startDiscoveryFor(
  node: Libp2p,
  options: Libp2pNetworkOptions,
  context: { peers: PeerManager; clock: ClockPort; logger: LoggerPort },
  location: { host: string; port: number },
  boundPort: number,
  bootstrapEnrs: ENR[],
): Promise<Discovery> {
  let dialsInFlight = 0;
  const connectedCount = () => new Set(node.getConnections().map((c) => c.remotePeer.toString())).size;
  return startDiscovery({
    privateKey: options.privateKey,
    ip: location.host,
    tcpPort: location.port,
    udpPort: options.port === 0 ? boundPort : options.port,
    listenAddress: options.listenAddress,
    bootstrapEnrs,
    lookupIntervalMs: options.discoveryLookupIntervalMs ?? DISCOVERY_LOOKUP_INTERVAL_MS,
    clock: context.clock,
    logger: context.logger,
    wantsPeers: () => connectedCount() < options.maxPeers,
    onDiscovered(enr) {
      const peer = enr.peerId.toString();
      const address = enr.getLocationMultiaddr('tcp');
      if (address === undefined || peer === node.peerId.toString()) return;
      context.peers.remember(peer, [address.toString()]);
      const busy = dialsInFlight >= DISCOVERY_DIALS_IN_FLIGHT_MAX || connectedCount() >= options.maxPeers;
      if (busy || context.peers.isConnected(peer) || context.peers.isBanned(peer)) return;
      dialsInFlight += 1;
      node
        .dial(address.encapsulate(`/p2p/${peer}`), { signal: AbortSignal.timeout(DIAL_TIMEOUT_MS) })
        .catch((error: unknown) => context.logger.debug('discovered peer not dialed', { peer, error: String(error) }))
        .finally(() => (dialsInFlight -= 1));
    },
  });
}
