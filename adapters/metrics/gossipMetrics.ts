/**
 * Gossip counters: the node's network port wrapped so that every message it publishes, and every message its
 * subscribers judge, is counted by kind (and verdict). The wrapped port behaves exactly as the one it wraps.
 */
import type { Meter } from '@opentelemetry/api';
import type { GossipHandler, GossipVerdict, NetworkPort } from '../../core/ports.js';

export function countGossip(network: NetworkPort, meter: Meter): NetworkPort {
  const published = meter.createCounter('svc_gossip_messages_published_total', {
    description: 'Gossip messages this node published, by kind',
  });
  const received = meter.createCounter('svc_gossip_messages_received_total', {
    description: 'Gossip messages from peers a subscriber judged, by kind and verdict (accept, ignore, reject)',
  });
  const counted =
    (handler: GossipHandler): GossipHandler =>
    (message, from) => {
      const count = (verdict: GossipVerdict) => {
        received.add(1, { kind: message.kind, verdict });
        return verdict;
      };
      const verdict = handler(message, from);
      return typeof verdict === 'string' ? count(verdict) : verdict.then(count);
    };
  return {
    publish: (message) => {
      published.add(1, { kind: message.kind });
      network.publish(message);
    },
    subscribe: (handler) => network.subscribe(counted(handler)),
    serve: (handlers) => network.serve(handlers),
    requestTxs: (hashes, preferredPeer) => network.requestTxs(hashes, preferredPeer),
    requestBlockProposal: (slot, index, preferredPeer) => network.requestBlockProposal(slot, index, preferredPeer),
    penalize: (peer, severity, reason) => network.penalize(peer, severity, reason),
    peers: (includePending) => network.peers(includePending),
    localEnr: () => network.localEnr(),
  };
}
