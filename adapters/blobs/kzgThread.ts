/**
 * c-kzg on a worker thread of its own, so that the node's event loop never waits on KZG: loading the trusted setup
 * (seconds) and computing a blob's commitment (25 to 50 ms for a blob, synchronous native code) would otherwise hold
 * every JSON-RPC answer of a syncing node behind them. The thread's code is a CommonJS string (an eval worker):
 * it runs the same from the TypeScript sources and from the build, and needs nothing but c-kzg.
 *
 * Requests are answered in order, one at a time; what is queued is bounded by the callers (a checkpoint's blobs).
 * The thread does not keep the process alive while nothing is asked of it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What the thread answers: a commitment, a proof's verdict, or c-kzg's refusal of the bytes. */
type ThreadAnswer =
  | { readonly id: number; readonly commitment: Uint8Array }
  | { readonly id: number; readonly holds: boolean }
  | { readonly id: number; readonly refused: string };

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const cKzg = require(workerData.cKzgPath);
try {
  cKzg.loadTrustedSetup(0);
} catch (error) {
  if (!/already loaded/i.test(error.message)) throw error;
}
parentPort.postMessage({ ready: true });
parentPort.on('message', (request) => {
  try {
    if (request.proof === undefined) {
      parentPort.postMessage({ id: request.id, commitment: cKzg.blobToKzgCommitment(request.blob) });
    } else {
      const holds = cKzg.verifyBlobKzgProof(request.blob, request.commitment, request.proof);
      parentPort.postMessage({ id: request.id, holds });
    }
  } catch (error) {
    parentPort.postMessage({ id: request.id, refused: String(error && error.message) });
  }
});
`;

/** Thrown for bytes c-kzg refuses (a wrong size, a field element at or above the modulus, a point off the curve). */
export class KzgRefusedError extends Error {}

export interface KzgThread {
  /** Whether the thread has loaded its trusted setup (until then, requests wait for it). */
  readonly ready: boolean;
  /** The KZG commitment (48 bytes) of a blob. */
  commitment(blob: Uint8Array): Promise<Uint8Array>;
  /** Whether `proof` shows that `commitment` commits to `blob`. */
  proofHolds(blob: Uint8Array, commitment: Uint8Array, proof: Uint8Array): Promise<boolean>;
}

/** Starts the thread (it loads the trusted setup at once, off the event loop). Rejects every request if it dies. */
export function startKzgThread(): KzgThread {
  const cKzgPath = createRequire(import.meta.url).resolve('c-kzg');
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { cKzgPath } });
  worker.unref();
  const pending = new Map<number, { resolve: (answer: ThreadAnswer) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  let ready = false;
  worker.on('message', (answer: ThreadAnswer | { readonly ready: true }) => {
    if (!('id' in answer)) {
      ready = true;
      return;
    }
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (pending.size === 0) worker.unref();
    waiter?.resolve(answer);
  });
  const fail = (error: Error) => {
    failure = error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the KZG thread exited (${code})`)));
  const ask = (request: Record<string, Uint8Array>): Promise<ThreadAnswer> => {
    if (failure !== undefined) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ...request });
    });
  };
  const refused = (answer: ThreadAnswer): answer is { id: number; refused: string } => 'refused' in answer;
  return {
    get ready() {
      return ready && failure === undefined;
    },
    async commitment(blob) {
      const answer = await ask({ blob });
      if (refused(answer)) throw new KzgRefusedError(answer.refused);
      return new Uint8Array((answer as { commitment: Uint8Array }).commitment);
    },
    async proofHolds(blob, commitment, proof) {
      const answer = await ask({ blob, commitment, proof });
      if (refused(answer)) throw new KzgRefusedError(answer.refused);
      return (answer as { holds: boolean }).holds;
    },
  };
}
