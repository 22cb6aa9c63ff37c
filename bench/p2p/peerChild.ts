/**
 * One peer of the p2p benchmark in its own process: a libp2p network (adapters/network/libp2p/) on 127.0.0.1 that
 * dials the other peers, records when each tx message arrives, and on request publishes txs at a given rate. Talks to
 * the orchestrator over IPC (bench/p2p/bench.ts).
 */
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { startLibp2pNetwork } from '../../adapters/network/libp2p/index.js';
import { parsePeerKey } from '../../adapters/network/libp2p/peerKey.js';
import type { TxValue } from '../../spec/wire/tx.js';
import type { PeerChildCommand, PeerChildConfig, PeerChildMessage } from './protocol.js';

const send = (message: PeerChildMessage) => process.send!(message);
const nowMs = () => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2]!) as PeerChildConfig;
  const rssAtBoot = process.memoryUsage().rss;
  const network = await startLibp2pNetwork({
    listenAddress: '127.0.0.1',
    port: config.port,
    bootstrapNodes: config.bootstrapNodes,
    maxPeers: 16,
    privateKey: parsePeerKey(config.privateKey, 'the benchmark'),
    l1ChainId: 31337,
    rollupVersion: 1,
    discovery: false,
    logger: createPinoLogger({ level: 'silent' }),
  });
  const received = new Map<string, number>();
  network.subscribe((message) => {
    if (message.kind === 'tx') received.set(message.tx.txHash, nowMs());
    return 'accept';
  });
  process.on('message', (command: PeerChildCommand) => {
    void handle(command).catch((error: unknown) => {
      process.stderr.write(`peer ${config.index}: ${String(error)}\n`);
      process.exit(1);
    });
  });
  async function handle(command: PeerChildCommand): Promise<void> {
    switch (command.kind) {
      case 'peers':
        send({ kind: 'peers', connected: network.connectedPeerCount() });
        return;
      case 'publish': {
        const sent: Record<string, number> = {};
        const intervalMs = 1_000 / command.perSecond;
        const start = nowMs();
        for (const [i, tx] of (command.txs as TxValue[]).entries()) {
          const due = start + i * intervalMs;
          const wait = due - nowMs();
          if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
          sent[tx.txHash] = nowMs();
          network.publish({ kind: 'tx', tx });
        }
        send({ kind: 'published', sent });
        return;
      }
      case 'report':
        send({
          kind: 'report',
          received: Object.fromEntries(received),
          cpuMicros: process.cpuUsage().user + process.cpuUsage().system,
          rssBytes: process.memoryUsage().rss,
          rssBeforeBytes: rssAtBoot,
        });
        return;
      case 'reset':
        received.clear();
        send({ kind: 'reset' });
        return;
      case 'shutdown':
        await network.stop();
        process.exit(0);
    }
  }
  send({ kind: 'ready', peerId: network.peerId });
}

await main();
