/**
 * The node under test, in its own process: a production node (adapters/node/runNode.ts over LevelDB, viem on anvil,
 * blobs from anvil's beacon routes), so that the event-loop delay, the CPU time and the resident size it reports
 * (over IPC, a bench-only channel) are the node's alone.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import type { Hex } from '../../spec/chain.js';
import { parseConfigArg } from '../rpc/protocol.js';
import type { EventLoopFigures, NodeChildCommand, NodeChildConfig, NodeChildMessage, NodeStats } from './protocol.js';

/** Resolution of the event-loop delay sampler (milliseconds), as the node's own metric samples it. */
const EVENT_LOOP_RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

function send(message: NodeChildMessage): void {
  process.send?.(message);
}

type Histogram = ReturnType<typeof monitorEventLoopDelay>;

/** A full garbage collection, through the `gc` that --expose-gc gives (bench.ts starts this process with it). */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the read-load node child runs with --expose-gc');
  gc();
}

function figuresOf(delay: Histogram): EventLoopFigures {
  // An empty histogram reports huge percentiles: read 0 until it has samples.
  const sampled = delay.count > 0;
  return {
    p50Ms: sampled ? delay.percentile(50) / NS_PER_MS : 0,
    p99Ms: sampled ? delay.percentile(99) / NS_PER_MS : 0,
    maxMs: sampled ? delay.max / NS_PER_MS : 0,
    samples: delay.count,
  };
}

async function statsOf(node: RunningNode, phase: Histogram, window: Histogram): Promise<NodeStats> {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const tip = node.node.chain.tips.checkpointed;
  return {
    eventLoopPhase: figuresOf(phase),
    eventLoopWindow: figuresOf(window),
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    heapTotalBytes: memory.heapTotal,
    externalBytes: memory.external,
    cpuMicros: cpu.user + cpu.system,
    checkpointedBlock: tip.block.number,
    checkpointNumber: tip.checkpoint.number,
    keyIndexMemoryKeys: node.node.chain.worldState.keyIndex.memoryKeys,
    keyIndexInStorage: node.node.chain.worldState.keyIndex.inStorage,
    pendingTxs: await node.node.service.txs.getPendingTxCount(),
  };
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('nodeChild must be started with an IPC channel');
  const config = parseConfigArg<NodeChildConfig>(process.argv);
  const phase = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  const window = monitorEventLoopDelay({ resolution: EVENT_LOOP_RESOLUTION_MS });
  phase.enable();
  window.enable();
  const node = await runNode({
    config: configFromSettings(
      {
        port: 0,
        adminPort: 0,
        adminHost: '127.0.0.1',
        adminApiKey: { disabled: true, reset: false },
        l1RpcUrl: config.l1RpcUrl,
        l1ConsensusHostUrl: config.l1RpcUrl,
        rollupAddress: config.rollupAddress as Hex,
        dataDirectory: config.dataDirectory,
      },
      {
        p2pPendingTxCountMax: config.pendingTxCountMax,
        ...(config.keyIndexMemoryKeys === undefined ? {} : { worldStateKeyIndexMemoryKeys: config.keyIndexMemoryKeys }),
      },
    ),
    logger: createPinoLogger({ level: 'warn' }),
    print: () => undefined,
  });
  process.on('message', (command: NodeChildCommand) => {
    if (command.type === 'stats') {
      if (command.collectGarbage) collectGarbage();
      void statsOf(node, phase, window).then((stats) => {
        if (command.resetPhase) phase.reset();
        if (command.resetWindow) window.reset();
        send({ type: 'stats', seq: command.seq, stats });
      });
    } else {
      // Exit on our own terms, so that --cpu-prof writes its profile; never hang on a slow stop.
      setTimeout(() => process.exit(0), 10_000).unref();
      void node.stop().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', publicUrl: node.publicUrl });
}

main().catch((error: unknown) => {
  process.stderr.write(`read-load node: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
