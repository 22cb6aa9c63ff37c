import { setTimeout as sleep } from 'node:timers/promises';
import { createInProcessBus } from '../../adapters/network/inProcessBus.js';
import type { NetworkPort } from '../../core/ports.js';
import { describeNetworkPort, type NetworkHarness } from './networkPort.suite.js';

/** Real time, polled: the in-process bus delivers on later turns of the event loop. */
async function waitFor(done: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describeNetworkPort('in-process bus', async (count) => {
  const bus = createInProcessBus();
  const ids = Array.from({ length: count }, (_, index) => `node-${index}`);
  const ports: NetworkPort[] = ids.map((id) => bus.connect(id));
  const harness: NetworkHarness = {
    port: (index) => ports[index]!,
    peerIdOf: (index) => ids[index]!,
    pass: async (ms) => {
      await sleep(ms);
    },
    waitFor,
    leave: async (index) => bus.disconnect(ids[index]!),
    rejoin: async (index) => {
      ports[index] = bus.connect(ids[index]!);
    },
    close: async () => {
      for (const id of ids) bus.disconnect(id);
    },
  };
  return harness;
});
