/**
 * The peer-to-peer queries of the node service (svc_getPeers, svc_getEncodedEnr, the status page): what the node's
 * network port knows about its peers and itself. Absent from the node service when the node has no network.
 */
import type { NetworkPeer, NetworkPort } from '../ports.js';

export interface P2pService {
  /** Connected, dialing and cached peers; pending ones too when asked (spec: P2P queries). */
  peers(includePending: boolean): readonly NetworkPeer[];
  /** The node's ENR (`enr:...`), or undefined when its network has no discovery. */
  encodedEnr(): string | undefined;
  connectedPeerCount(): number;
}

export function createP2pService(network: NetworkPort): P2pService {
  return {
    peers: (includePending) => network.peers(includePending),
    encodedEnr: () => network.localEnr(),
    connectedPeerCount: () => network.peers(false).filter((peer) => peer.status === 'connected').length,
  };
}
