/**
 * Validator gossip between nodes in one process (the local network, tests): what one port publishes reaches every
 * other port's subscribers on a later turn of the event loop, never its own. Each receiver gets its own structured
 * clone, as it would after a real network's decoding.
 */
import type { GossipMessage, NetworkPort } from '../../core/ports.js';

export interface InProcessBus {
  /** A node's port on the bus. */
  connect(): NetworkPort;
}

export function createInProcessBus(): InProcessBus {
  const ports = new Set<Set<(message: GossipMessage) => void>>();
  return {
    connect() {
      const handlers = new Set<(message: GossipMessage) => void>();
      ports.add(handlers);
      return {
        publish(message) {
          for (const other of ports) {
            if (other === handlers) continue;
            for (const handler of other) setImmediate(() => handler(structuredClone(message)));
          }
        },
        subscribe(handler) {
          handlers.add(handler);
          return () => handlers.delete(handler);
        },
      };
    },
  };
}
