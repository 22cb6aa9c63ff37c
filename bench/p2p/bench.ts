/**
 * `npm run bench -- p2p`: gossip across four libp2p processes on loopback. One peer publishes txs at a given rate;
 * every peer records when each arrives. Figures per run: txs per second delivered to every peer, delivery latency
 * (p50/p99 over every tx and receiver), the share delivered, CPU (all processes) per published message, and resident
 * memory per connected peer. Baseline in the same run: the same txs over the in-process bus (no encoding, no sockets),
 * which is the floor the network adds to.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { keccak256, toBytes } from 'viem';
import { findFreePort } from '../../adapters/l1/anvil.js';
import { createInProcessBus } from '../../adapters/network/inProcessBus.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { computeTxHash } from '../../spec/codec/tx.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { makeTx } from '../../test/txPool/txFixtures.js';
import type { PeerChildCommand, PeerChildMessage } from './protocol.js';

const PEERS = 4;
/** Runs: a paced one for latency, and a fast one for throughput. */
const RUNS = [
  { name: 'paced', txs: 1_000, perSecond: 200 },
  { name: 'burst', txs: 4_000, perSecond: 4_000 },
] as const;
const WARM_UP = { txs: 300, perSecond: 300 };
/** Time for gossipsub to form its mesh after the peers connected. */
const MESH_SETTLE_MS = 3_000;
/** How long after the last publish deliveries are waited for. */
const DRAIN_MS = 3_000;

interface Peer {
  readonly child: ChildProcess;
  ask(command: PeerChildCommand): Promise<PeerChildMessage>;
}

function txsFrom(first: number, count: number): TxValue[] {
  return Array.from({ length: count }, (_, i) => {
    const tx = makeTx({ hash: first + i, priorityFee: 10n + BigInt(i % 7) });
    return { ...tx, txHash: computeTxHash(tx) };
  });
}

function startPeer(index: number, port: number, key: string, bootstrapNodes: string[]): Promise<Peer> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = fork(
    path.join(here, 'peerChild.ts'),
    [JSON.stringify({ index, port, privateKey: key, bootstrapNodes })],
    {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let waiting: ((message: PeerChildMessage) => void) | undefined;
  child.on('message', (message: PeerChildMessage) => waiting?.(message));
  const peer: Peer = {
    child,
    ask: (command) =>
      new Promise((resolve) => {
        waiting = resolve;
        child.send(command);
      }),
  };
  return new Promise((resolve, reject) => {
    waiting = () => resolve(peer);
    child.once('exit', (code) => reject(new Error(`peer ${index} exited (${code}) before it was ready`)));
  });
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function waitForMesh(peers: readonly Peer[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const counts = await Promise.all(
      peers.map(async (p) => ((await p.ask({ kind: 'peers' })) as { connected: number }).connected),
    );
    if (counts.every((c) => c >= PEERS - 1)) break;
    if (Date.now() > deadline) throw new Error(`peers did not all connect: ${counts.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, MESH_SETTLE_MS));
}

async function runOnLibp2p(peers: readonly Peer[], txs: readonly TxValue[], perSecond: number) {
  for (const p of peers) await p.ask({ kind: 'reset' });
  const cpuBefore = await Promise.all(
    peers.map(async (p) => ((await p.ask({ kind: 'report' })) as { cpuMicros: number }).cpuMicros),
  );
  const published = (await peers[0]!.ask({ kind: 'publish', txs, perSecond })) as { sent: Record<string, number> };
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  const reports = (await Promise.all(peers.map((p) => p.ask({ kind: 'report' })))) as Extract<
    PeerChildMessage,
    { kind: 'report' }
  >[];
  const latencies: number[] = [];
  let lastDelivery = 0;
  let deliveredToAll = 0;
  for (const tx of txs) {
    const sentAt = published.sent[tx.txHash]!;
    const arrivals = reports.slice(1).map((r) => r.received[tx.txHash]);
    if (arrivals.every((a) => a !== undefined)) deliveredToAll++;
    for (const at of arrivals) {
      if (at === undefined) continue;
      latencies.push(at - sentAt);
      lastDelivery = Math.max(lastDelivery, at);
    }
  }
  latencies.sort((a, b) => a - b);
  const firstSent = Math.min(...Object.values(published.sent));
  const cpuMicros = reports.reduce((sum, r, i) => sum + r.cpuMicros - cpuBefore[i]!, 0);
  return {
    txsPerSecondDeliveredToAll: Math.round(deliveredToAll / ((lastDelivery - firstSent) / 1_000)),
    deliveredShare: Number((deliveredToAll / txs.length).toFixed(4)),
    latencyP50Ms: Number(quantile(latencies, 0.5).toFixed(2)),
    latencyP99Ms: Number(quantile(latencies, 0.99).toFixed(2)),
    cpuMicrosPerMessage: Math.round(cpuMicros / txs.length),
    rssMiBPerPeerProcess: Math.round(reports.reduce((s, r) => s + r.rssBytes, 0) / reports.length / 2 ** 20),
    rssGrowthMiBPerConnectedPeer: Number(
      (reports.reduce((s, r) => s + r.rssBytes - r.rssBeforeBytes, 0) / reports.length / (PEERS - 1) / 2 ** 20).toFixed(
        1,
      ),
    ),
  };
}

/** The same txs and pace over the in-process bus, in this process. */
async function runOnBus(txs: readonly TxValue[], perSecond: number) {
  const bus = createInProcessBus();
  const ports = Array.from({ length: PEERS }, (_, i) => bus.connect(`bench-${i}`));
  const received = ports.map(() => new Map<string, number>());
  ports.forEach((port, i) =>
    port.subscribe((message) => {
      if (message.kind === 'tx') received[i]!.set(message.tx.txHash, performance.now());
      return 'accept';
    }),
  );
  const sent = new Map<string, number>();
  const start = performance.now();
  for (const [i, tx] of txs.entries()) {
    const wait = start + (i * 1_000) / perSecond - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.set(tx.txHash, performance.now());
    ports[0]!.publish({ kind: 'tx', tx });
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const latencies = txs.flatMap((tx) => received.slice(1).map((r) => r.get(tx.txHash)! - sent.get(tx.txHash)!));
  latencies.sort((a, b) => a - b);
  for (let i = 0; i < PEERS; i++) bus.disconnect(`bench-${i}`);
  return {
    latencyP50Ms: Number(quantile(latencies, 0.5).toFixed(3)),
    latencyP99Ms: Number(quantile(latencies, 0.99).toFixed(3)),
  };
}

export async function benchP2p(): Promise<{ name: string; figures: Record<string, number | string> }> {
  const ports = await Promise.all(Array.from({ length: PEERS }, () => findFreePort()));
  const keys = ports.map((_, i) => keccak256(toBytes(`svc p2p bench key ${i}`)));
  const addresses = keys.map(
    (key, i) =>
      `/ip4/127.0.0.1/tcp/${ports[i]}/p2p/${peerIdFromPrivateKey(privateKeyFromRaw(hexToBytes(key))).toString()}`,
  );
  const peers = await Promise.all(
    keys.map((key, i) =>
      startPeer(
        i,
        ports[i]!,
        key,
        addresses.filter((_, j) => j !== i),
      ),
    ),
  );
  const figures: Record<string, number | string> = { peers: PEERS, topology: 'full mesh on 127.0.0.1' };
  try {
    await waitForMesh(peers);
    await runOnLibp2p(peers, txsFrom(1, WARM_UP.txs), WARM_UP.perSecond);
    let next = 1_000_000;
    for (const run of RUNS) {
      const txs = txsFrom(next, run.txs);
      next += run.txs;
      const libp2p = await runOnLibp2p(peers, txs, run.perSecond);
      const bus = await runOnBus(txs, run.perSecond);
      for (const [key, value] of Object.entries(libp2p)) figures[`${run.name}.${key}`] = value;
      figures[`${run.name}.offeredTxsPerSecond`] = run.perSecond;
      figures[`${run.name}.baselineInProcessBus.latencyP50Ms`] = bus.latencyP50Ms;
      figures[`${run.name}.baselineInProcessBus.latencyP99Ms`] = bus.latencyP99Ms;
    }
  } finally {
    await Promise.all(
      peers.map(
        (p) =>
          new Promise<void>((resolve) => {
            p.child.once('exit', () => resolve());
            p.child.send({ kind: 'shutdown' });
            setTimeout(() => (p.child.kill('SIGKILL'), resolve()), 10_000).unref();
          }),
      ),
    );
  }
  return { name: 'p2p', figures };
}
