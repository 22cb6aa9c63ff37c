/**
 * Worker thread entry of the campaign runner: runs the seeds it is sent, one at a time, and posts back each
 * compact result. Exempt from the determinism lint (it measures wall time and talks to its parent thread); the
 * simulation itself runs in `simulateForCampaign`, which is deterministic.
 */
import { parentPort } from 'node:worker_threads';
import { crashedRun, simulateForCampaign } from './campaignRun.js';
import type { WorkerReply, WorkerRequest } from './workerPool.js';

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.message}` : String(error);
}

async function runRequest(request: Extract<WorkerRequest, { type: 'run' }>): Promise<WorkerReply> {
  const started = performance.now();
  try {
    const run = await simulateForCampaign(request.seed, request.simulatedSeconds);
    return { type: 'done', jobId: request.jobId, run: { ...run, wallMs: performance.now() - started } };
  } catch (error) {
    const run = crashedRun(
      request.seed,
      request.simulatedSeconds,
      `run threw: ${describeError(error)}`,
      performance.now() - started,
    );
    return { type: 'done', jobId: request.jobId, run };
  }
}

const port = parentPort;
if (port === null) throw new Error('campaignWorker.ts runs only as a worker thread');
port.on('message', (request: WorkerRequest) => {
  if (request.type === 'stop') {
    port.close();
    return;
  }
  void runRequest(request).then((reply) => port.postMessage(reply));
});
port.postMessage({ type: 'ready' } satisfies WorkerReply);
