/**
 * Bounds of the libp2p adapter's own memory and queues (the protocol's limits are in spec/p2p/constants.ts). Every
 * cache, map and queue here names its bound.
 */

/** Gossip messages whose ids gossipsub remembers to drop duplicates (its seen cache), in ms of message age. */
export const GOSSIP_SEEN_TTL_MS = 120_000;
/** Gossip messages being validated by the subscribers at once; beyond, new ones are ignored (dropped unblamed). */
export const GOSSIP_VALIDATIONS_IN_FLIGHT_MAX = 1_024;
/** Inbound streams one connection may have open per request protocol; beyond, libp2p resets new ones. */
export const REQUEST_INBOUND_STREAMS_PER_PROTOCOL_MAX = 32;
/** Outbound streams one connection may have open per request protocol. */
export const REQUEST_OUTBOUND_STREAMS_PER_PROTOCOL_MAX = 32;
/** Peers remembered with their addresses for svc_getPeers (`cached`) beyond the connected ones; oldest go first. */
export const KNOWN_PEERS_MAX = 1_024;
/** Addresses remembered per known peer. */
export const KNOWN_PEER_ADDRESSES_MAX = 8;
/** Peers whose status handshake is remembered (one entry per connected peer, bounded by maxPeers in practice). */
export const HANDSHAKES_TRACKED_MAX = 4_096;
/** Bootstrap redial backoff: first delay, factor and cap, in ms. */
export const BOOTSTRAP_REDIAL_FIRST_MS = 500;
export const BOOTSTRAP_REDIAL_FACTOR = 2;
export const BOOTSTRAP_REDIAL_MAX_MS = 30_000;
/** Bootstrap entries used at most; beyond, the rest are ignored with a warning. */
export const BOOTSTRAP_NODES_MAX = 64;
/** How often discv5 looks for random nodes, in ms, while below maxPeers. */
export const DISCOVERY_LOOKUP_INTERVAL_MS = 10_000;
/** How long a goodbye may take before the connection is closed anyway, in ms. */
export const GOODBYE_TIMEOUT_MS = 1_000;
/** Concurrent discv5-found dials at most. */
export const DISCOVERY_DIALS_IN_FLIGHT_MAX = 8;
/** Bytes an RPC frame of gossipsub may have beyond the compressed message (protobuf fields, control messages). */
export const GOSSIP_RPC_OVERHEAD_BYTES = 65_536;
