/** Real libp2p nodes on 127.0.0.1 for tests: start with defaults, wait for conditions with a deadline, stop all. */
import { generateKeyPair } from '@libp2p/crypto/keys';
import {
  startLibp2pNetwork,
  type Libp2pNetwork,
  type Libp2pNetworkOptions,
} from '../../adapters/network/libp2p/index.js';
import type { NetworkRequestHandlers, NetworkStatus } from '../../core/ports.js';
import { silentLogger } from '../helpers/testLogger.js';

export const TEST_L1_CHAIN_ID = 31_337;
export const TEST_ROLLUP_VERSION = 1;

export async function startTestNode(overrides: Partial<Libp2pNetworkOptions> = {}): Promise<Libp2pNetwork> {
  return startLibp2pNetwork({
    listenAddress: '127.0.0.1',
    port: 0,
    bootstrapNodes: [],
    maxPeers: 20,
    privateKey: overrides.privateKey ?? (await generateKeyPair('secp256k1')),
    l1ChainId: TEST_L1_CHAIN_ID,
    rollupVersion: TEST_ROLLUP_VERSION,
    discovery: false,
    logger: silentLogger,
    ...overrides,
  });
}

/** Resolves once `condition` holds, polling; rejects with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function testStatus(l1ChainId = TEST_L1_CHAIN_ID): NetworkStatus {
  const hash = `0x${'00'.repeat(32)}` as const;
  return {
    l1ChainId,
    rollupVersion: TEST_ROLLUP_VERSION,
    proposedBlock: { number: 0, hash },
    checkpointedBlock: { number: 0, hash },
  };
}

export function servedHandlers(partial: Partial<NetworkRequestHandlers> = {}): NetworkRequestHandlers {
  return {
    status: () => testStatus(),
    txsByHash: async () => [],
    blockProposal: async () => undefined,
    ...partial,
  };
}

/** Whether every node sees each other one as a connected peer with the handshake done. */
export function fullyConnected(nodes: readonly Libp2pNetwork[]): boolean {
  return nodes.every((node) => {
    const connected = new Set(
      node
        .peers(false)
        .filter((p) => p.status === 'connected')
        .map((p) => p.id),
    );
    return nodes.every((other) => other === node || connected.has(other.peerId));
  });
}
