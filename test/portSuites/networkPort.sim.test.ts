import { createPrng } from '../../sim/prng.js';
import { createScheduler } from '../../sim/scheduler.js';
import { createNodeClock } from '../../sim/simClock.js';
import { createSimNetwork } from '../../sim/simNetwork.js';
import type { NetworkPort } from '../../core/ports.js';
import { describeNetworkPort, type NetworkHarness } from './networkPort.suite.js';

/** Simulated ms the harness lets pass per turn of the event loop. */
const SIM_MS_PER_TURN = 10;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The simulated network under the contract. Simulated time runs by itself, a few ms per turn of the event loop, so a
 * test that awaits a request sees it answered; `pass` and `waitFor` count simulated time. One fixed latency, so that
 * the publisher's own delivery comes before any forwarded copy.
 */
describeNetworkPort('simulated network', async (count) => {
  const scheduler = createScheduler();
  const network = createSimNetwork({ prng: createPrng(1n), latencyMs: { min: 20, max: 20 } });
  const ids = Array.from({ length: count }, (_, index) => `node-${index}`);
  const clocks = ids.map((id) => createNodeClock(scheduler, { owner: id }));
  const ports: NetworkPort[] = ids.map((id, index) => network.connect(id, clocks[index]!));
  let closed = false;
  const pump = (async () => {
    while (!closed) {
      await scheduler.runFor(SIM_MS_PER_TURN);
      await turn();
    }
  })();
  const harness: NetworkHarness = {
    port: (index) => ports[index]!,
    peerIdOf: (index) => ids[index]!,
    pass: async (ms) => {
      const until = scheduler.now() + ms;
      while (scheduler.now() < until) await turn();
    },
    waitFor: async (done, what, timeoutMs = 5_000) => {
      const deadline = scheduler.now() + timeoutMs;
      while (!done()) {
        if (scheduler.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await turn();
      }
    },
    leave: async (index) => network.disconnect(ids[index]!),
    rejoin: async (index) => {
      ports[index] = network.connect(ids[index]!, clocks[index]!);
    },
    close: async () => {
      closed = true;
      await pump;
      for (const id of ids) network.disconnect(id);
    },
  };
  return harness;
});
