/**
 * The node's libp2p network when P2P is enabled (adapters/network/libp2p/): started before the node so that the core
 * gets it as its NetworkPort, with the peer key from the configuration or the data directory. A watchdog logs the
 * peer count when it changes and warns while the node has had no peer for NO_PEERS_WARNING_MS.
 */
import type { LoggerPort } from '../../core/ports.js';
import type { ConfigValues } from '../../spec/config/schema.js';
import { NO_PEERS_WARNING_MS } from '../../spec/p2p/constants.js';
import { loadOrCreatePeerKey, startLibp2pNetwork, type Libp2pNetwork } from '../network/libp2p/index.js';

/** How often the watchdog looks at the peer count. */
export const PEER_WATCH_INTERVAL_MS = 10_000;

export interface NodeP2p {
  readonly network: Libp2pNetwork;
  stop(): Promise<void>;
}

export async function startNodeP2p(
  values: ConfigValues,
  chain: { readonly l1ChainId: number; readonly rollupVersion: number },
  logger: LoggerPort,
): Promise<NodeP2p> {
  const privateKey = await loadOrCreatePeerKey(values.dataDirectory, values.p2pPrivateKey);
  const network = await startLibp2pNetwork({
    listenAddress: values.p2pListenAddress,
    port: values.p2pPort,
    ...(values.p2pAnnounceAddress !== undefined ? { announceAddress: values.p2pAnnounceAddress } : {}),
    bootstrapNodes: values.p2pBootstrapNodes,
    maxPeers: values.p2pMaxPeers,
    privateKey,
    l1ChainId: chain.l1ChainId,
    rollupVersion: chain.rollupVersion,
    discovery: !values.p2pDiscoveryDisabled,
    logger,
  });
  logger.info('p2p network started', {
    peerId: network.peerId,
    addresses: network.multiaddrs().join(' '),
    enr: network.localEnr() ?? 'none (discovery off)',
    bootstrapNodes: values.p2pBootstrapNodes.length,
  });
  const watchdog = watchPeers(network, logger);
  return {
    network,
    async stop() {
      clearInterval(watchdog);
      await network.stop();
    },
  };
}

/** Logs each change of the peer count, and warns every NO_PEERS_WARNING_MS while there is none. */
export function watchPeers(network: Pick<Libp2pNetwork, 'connectedPeerCount'>, logger: LoggerPort): NodeJS.Timeout {
  let lastCount = -1;
  let alone = { sinceMs: Date.now(), warnedAtMs: Date.now() };
  const timer = setInterval(() => {
    const count = network.connectedPeerCount();
    const now = Date.now();
    if (count !== lastCount) logger.info('p2p peers', { connected: count, previously: Math.max(0, lastCount) });
    if (count > 0) alone = { sinceMs: now, warnedAtMs: now };
    else if (now - alone.warnedAtMs >= NO_PEERS_WARNING_MS) {
      logger.warn('no p2p peers: txs and proposals are not shared; check bootstrap nodes, ports and firewall', {
        withoutPeersForSeconds: Math.round((now - alone.sinceMs) / 1_000),
      });
      alone = { ...alone, warnedAtMs: now };
    }
    lastCount = count;
  }, PEER_WATCH_INTERVAL_MS);
  timer.unref();
  return timer;
}
