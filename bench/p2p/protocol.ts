/** Messages between the p2p benchmark's orchestrator (bench/p2p/bench.ts) and its peer processes (peerChild.ts). */

export interface PeerChildConfig {
  readonly index: number;
  readonly port: number;
  /** Hex of the peer's 32-byte secp256k1 key. */
  readonly privateKey: string;
  readonly bootstrapNodes: readonly string[];
}

export type PeerChildCommand =
  | { readonly kind: 'peers' }
  /** Publishes these txs (wire values with bigints as strings are not used: structured clone keeps bigints). */
  | { readonly kind: 'publish'; readonly txs: readonly unknown[]; readonly perSecond: number }
  | { readonly kind: 'report' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'shutdown' };

export type PeerChildMessage =
  | { readonly kind: 'ready'; readonly peerId: string }
  | { readonly kind: 'peers'; readonly connected: number }
  | { readonly kind: 'published'; readonly sent: Readonly<Record<string, number>> }
  | {
      readonly kind: 'report';
      readonly received: Readonly<Record<string, number>>;
      readonly cpuMicros: number;
      readonly rssBytes: number;
      readonly rssBeforeBytes: number;
    }
  | { readonly kind: 'reset' };
