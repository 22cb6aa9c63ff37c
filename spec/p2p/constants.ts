/**
 * Limits and timings of the peer-to-peer protocol (docs/protocol.md, Peer-to-peer), shared by every network
 * implementation: libp2p (adapters/network/libp2p/), the in-process bus and the simulated network.
 */

/** The protocol version every topic and request protocol id carries; peers of another version never meet. */
export const P2P_PROTOCOL_VERSION = 1;

/** Largest gossip message, in bytes after decompression (a block proposal with its body is the largest). */
export const GOSSIP_MESSAGE_BYTES_MAX = 1_048_576;
/** Largest request, in bytes. */
export const REQUEST_BYTES_MAX = 65_536;
/** Largest response, in bytes after decompression. */
export const RESPONSE_BYTES_MAX = 4_194_304;
/** Tx hashes one txs-by-hash request may name. */
export const TXS_BY_HASH_REQUEST_HASHES_MAX = 256;

/** A request without a full answer after this long fails (the peer is scored down a little). */
export const REQUEST_TIMEOUT_MS = 5_000;
/** A dial that has not connected after this long fails. */
export const DIAL_TIMEOUT_MS = 5_000;
/** Peers one request tries, best-scored first, before it gives up. */
export const REQUEST_PEERS_TRIED_MAX = 4;

/** Requests a node serves per peer per second (a token bucket of this size refilled at this rate); beyond, refused. */
export const REQUESTS_PER_PEER_PER_S = 10;
/** Requests a node serves from all peers together per second. */
export const REQUESTS_GLOBAL_PER_S = 200;

/** Peers a node keeps connections to by default (P2P_MAX_PEERS). */
export const P2P_MAX_PEERS_DEFAULT = 100;
/** How long without peers before a node warns (and keeps warning at this period). */
export const NO_PEERS_WARNING_MS = 60_000;

/**
 * Gossiped txs a node holds waiting for validation; one more is ignored unheard (its sender is not blamed). They wait
 * apart from the pool's queue and enter it one at a time, so a tx submitted over the node's own RPC waits behind at
 * most one gossiped tx, however many peers flood it.
 */
export const GOSSIP_TXS_AWAITING_VALIDATION_MAX = 64;
