/** The libp2p network: its entry points, re-exported by name. */
export { startLibp2pNetwork, type Libp2pNetwork, type Libp2pNetworkOptions } from './libp2pNetwork.js';
export { loadOrCreatePeerKey, PeerKeyError, PEER_KEY_FILE_NAME } from './peerKey.js';
