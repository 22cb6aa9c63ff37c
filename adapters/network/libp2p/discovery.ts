/**
 * The node's ENR (ip, tcp and udp, signed with the peer key) and discv5 on the libp2p port over UDP: bootstrap ENRs
 * seed its table, random lookups run every `lookupIntervalMs` while the node is below maxPeers, and every
 * node found with a TCP address is offered to `onDiscovered`.
 */
import { Discv5 } from '@chainsafe/discv5';
import { SignableENR, type ENR } from '@chainsafe/enr';
import type { PrivateKey } from '@libp2p/interface';
import { multiaddr } from '@multiformats/multiaddr';
import type { ClockPort, LoggerPort, TimerId } from '../../../core/ports.js';

export interface LocalRecordOptions {
  readonly privateKey: PrivateKey;
  /** An IPv4 address; left out of the record when it is not one (a DNS name). */
  readonly ip: string;
  readonly tcpPort: number;
  readonly udpPort: number;
}

export function createLocalEnr(options: LocalRecordOptions): SignableENR {
  const enr = SignableENR.createFromPrivateKey(options.privateKey);
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(options.ip)) enr.ip = options.ip;
  enr.tcp = options.tcpPort;
  enr.udp = options.udpPort;
  return enr;
}

export interface DiscoveryOptions extends LocalRecordOptions {
  readonly listenAddress: string;
  readonly bootstrapEnrs: readonly ENR[];
  /** ms between random lookups (DISCOVERY_LOOKUP_INTERVAL_MS in production; tests drive discovery faster). */
  readonly lookupIntervalMs: number;
  readonly clock: ClockPort;
  readonly logger: LoggerPort;
  /** Whether the node wants more peers (lookups pause while it does not). */
  wantsPeers(): boolean;
  onDiscovered(enr: ENR): void;
}

export interface Discovery {
  readonly enr: SignableENR;
  stop(): Promise<void>;
}

export async function startDiscovery(options: DiscoveryOptions): Promise<Discovery> {
  const enr = createLocalEnr(options);
  const discv5 = Discv5.create({
    enr,
    privateKey: options.privateKey,
    bindAddrs: { ip4: multiaddr(`/ip4/${options.listenAddress}/udp/${options.udpPort}`) },
    config: { enrUpdate: false },
  });
  // Discv5's event types come from a package whose types do not resolve here; it is a Node EventEmitter.
  (discv5 as unknown as NodeJS.EventEmitter).on('discovered', (found: ENR) => {
    try {
      options.onDiscovered(found);
    } catch (error) {
      options.logger.debug('discovered node not usable', { error: String(error) });
    }
  });
  await discv5.start();
  for (const bootstrap of options.bootstrapEnrs) {
    try {
      discv5.addEnr(bootstrap);
    } catch (error) {
      options.logger.warn('bootstrap ENR refused by discv5', { error: String(error) });
    }
  }
  let timer: TimerId | undefined;
  let stopped = false;
  const lookup = () => {
    timer = undefined;
    if (stopped) return;
    const next = () => {
      if (!stopped) timer = options.clock.setTimeout(lookup, options.lookupIntervalMs);
    };
    if (!options.wantsPeers()) return next();
    discv5
      .findRandomNode()
      .catch((error: unknown) => options.logger.debug('discovery lookup failed', { error: String(error) }))
      .finally(next);
  };
  timer = options.clock.setTimeout(lookup, 0);
  return {
    enr,
    async stop() {
      stopped = true;
      if (timer !== undefined) options.clock.clearTimeout(timer);
      await discv5.stop();
    },
  };
}
