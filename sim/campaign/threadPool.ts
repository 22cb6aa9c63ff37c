/**
 * A pool of campaign worker threads that stays up between requests: a queue worker runs job after job on it, so
 * the threads start (and compile the simulator) once. Exempt from the determinism lint (threads, wall clock).
 * The threads are the campaign runner's (`campaignWorker.ts`, started as `workerPool.ts` starts them); a thread that
 * dies mid-seed gives that seed a crashed run, as in a local campaign, and is replaced.
 */
import type { Worker } from 'node:worker_threads';
import { crashedRun, type CampaignRun } from './campaignRun.js';
import { startCampaignThread, type WorkerReply, type WorkerRequest } from './workerPool.js';

/** Threads replaced after dying, per pool, before the pool gives up (a thread that cannot live is a broken build). */
export const THREAD_POOL_RESPAWNS_MAX = 100;

export interface ThreadPool {
  readonly threads: number;
  /** Runs one seed on the next free thread. */
  run(seed: bigint, simulatedSeconds: number): Promise<CampaignRun>;
  /** Stops every thread; runs still waiting are rejected. */
  close(): Promise<void>;
}

interface Pending {
  readonly id: number;
  readonly seed: bigint;
  readonly simulatedSeconds: number;
  readonly resolve: (run: CampaignRun) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  current: Pending | undefined;
  startedMs: number;
  lastError: Error | undefined;
}

export function openThreadPool(threads: number): ThreadPool {
  const waiting: Pending[] = [];
  const slots = new Set<Slot>();
  let nextId = 0;
  let respawnsLeft = THREAD_POOL_RESPAWNS_MAX;
  let closed = false;
  let broken: Error | undefined;

  const failAll = (error: Error) => {
    broken = error;
    for (const pending of waiting.splice(0)) pending.reject(error);
  };
  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.current !== undefined) continue;
      const pending = waiting.shift();
      if (pending === undefined) return;
      slot.current = pending;
      slot.startedMs = performance.now();
      const { id: jobId, seed, simulatedSeconds } = pending;
      slot.worker.postMessage({ type: 'run', jobId, seed, simulatedSeconds } satisfies WorkerRequest);
    }
  };
  const onExit = (slot: Slot, code: number) => {
    slots.delete(slot);
    if (closed) return;
    const reason = slot.lastError?.message ?? 'no error reported';
    if (!slot.ready)
      return failAll(new Error(`a campaign thread exited (code ${code}) before it was ready: ${reason}`));
    const pending = slot.current;
    if (pending !== undefined) {
      const detail = `worker thread died (exit code ${code}): ${reason}`;
      pending.resolve(crashedRun(pending.seed, pending.simulatedSeconds, detail, performance.now() - slot.startedMs));
    }
    if (respawnsLeft-- > 0) spawn();
    else if (slots.size === 0) failAll(new Error(`campaign threads keep dying (last: ${reason})`));
  };
  const spawn = () => {
    const worker = startCampaignThread();
    const slot: Slot = { worker, ready: false, current: undefined, startedMs: 0, lastError: undefined };
    slots.add(slot);
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') slot.ready = true;
      else if (slot.current !== undefined && reply.jobId === slot.current.id) {
        const done = slot.current;
        slot.current = undefined;
        done.resolve(reply.run);
      }
      dispatch();
    });
    worker.on('error', (error) => (slot.lastError = error));
    worker.on('exit', (code) => onExit(slot, code));
  };

  for (let i = 0; i < threads; i++) spawn();
  return {
    threads,
    run(seed, simulatedSeconds) {
      if (closed) return Promise.reject(new Error('the thread pool is closed'));
      if (broken !== undefined) return Promise.reject(broken);
      return new Promise<CampaignRun>((resolve, reject) => {
        waiting.push({ id: nextId++, seed, simulatedSeconds, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of waiting.splice(0)) pending.reject(new Error('the thread pool closed'));
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
    },
  };
}
