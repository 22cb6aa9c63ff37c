/**
 * Messages and settings shared by the read-load benchmark's processes: the orchestrator (bench.ts, inside `npm run
 * bench`), the node child (nodeChild.ts: a production node, runNode over LevelDB, syncing from anvil) and the load
 * generator child (loadGenerator.ts: mixed reads or svc_sendTx over keep-alive HTTP).
 */
import type { ChainShape } from '../snapshot/chainMaker.js';

// --- node child <-> orchestrator ---

export interface NodeChildConfig {
  readonly l1RpcUrl: string;
  readonly rollupAddress: string;
  readonly dataDirectory: string;
  readonly pendingTxCountMax: number;
  /** The world state's in-memory key bound (WS_KEY_INDEX_MEMORY_KEYS), the node's default when absent. */
  readonly keyIndexMemoryKeys?: number;
}

/** What the node process reports about itself, measured inside it. */
export interface EventLoopFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly samples: number;
}

export interface NodeStats {
  /** Event-loop delay (perf_hooks.monitorEventLoopDelay), milliseconds, since the phase's and the window's reset. */
  readonly eventLoopPhase: EventLoopFigures;
  readonly eventLoopWindow: EventLoopFigures;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  /** V8's heap as reserved from the system (process.memoryUsage().heapTotal). */
  readonly heapTotalBytes: number;
  /** Memory of JavaScript objects held outside V8's heap: Buffers and other array buffers (`external`). */
  readonly externalBytes: number;
  /** process.cpuUsage() user + system, microseconds since the process started. */
  readonly cpuMicros: number;
  readonly checkpointedBlock: number;
  readonly checkpointNumber: number;
  /** Keys of the nullifier and public data trees the world state holds in memory (0 once they are in storage). */
  readonly keyIndexMemoryKeys: number;
  /** Whether those keys passed the bound and moved to storage. */
  readonly keyIndexInStorage: boolean;
  readonly pendingTxs: number;
}

export type NodeChildMessage =
  | { readonly type: 'ready'; readonly publicUrl: string }
  | { readonly type: 'stats'; readonly seq: number; readonly stats: NodeStats };

export type NodeChildCommand =
  /** Reports the stats, then restarts the event-loop histograms asked for. */
  | {
      readonly type: 'stats';
      readonly seq: number;
      readonly resetPhase: boolean;
      readonly resetWindow: boolean;
      /** Run a full garbage collection first (the node child has --expose-gc), so the heap is what is live. */
      readonly collectGarbage: boolean;
    }
  | { readonly type: 'shutdown' };

// --- load generator <-> orchestrator ---

export interface ReadLoadConfig {
  readonly kind: 'reads';
  readonly url: string;
  readonly connections: number;
  readonly shape: ChainShape;
  /** Historical reads pick a block up to this many below the tip. */
  readonly historyDepthMax: number;
  readonly seed: number;
}

export interface SendTxLoadConfig {
  readonly kind: 'sendTx';
  readonly url: string;
  readonly connections: number;
  /** A file of JSON-RPC svc_sendTx request bodies, one a line: the first `fillCount` fill the pool, the rest are timed. */
  readonly bodiesFile: string;
  readonly fillCount: number;
}

export type LoadConfig = ReadLoadConfig | SendTxLoadConfig;

/** Per-method latency figures of a window. */
export interface MethodFigures {
  readonly completed: number;
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly firstError?: string;
}

export interface LoadWindowResult {
  readonly windowMs: number;
  readonly completed: number;
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly byMethod: Record<string, MethodFigures>;
}

export type LoadMessage =
  /** sendTx: the pool holds the fill; the timed txs go out after `measure`. */
  | { readonly type: 'filled'; readonly fill: LoadWindowResult }
  | { readonly type: 'result'; readonly result: LoadWindowResult }
  | { readonly type: 'failed'; readonly message: string };

/** reads: `measure` opens the window (before it, requests are a warm-up), `stop` closes it and ends the run. */
export type LoadCommand = { readonly type: 'measure' } | { readonly type: 'stop' };
