import { describe, expect, it } from 'vitest';
import type { GossipMessage } from '../core/ports.js';
import { createPrng } from './prng.js';
import { createScheduler } from './scheduler.js';
import { createNodeClock } from './simClock.js';
import { createSimNetwork } from './simNetwork.js';

const message = (slot: number): GossipMessage => ({
  kind: 'checkpointAttestation',
  payload: {
    l1ChainId: 1,
    rollupVersion: 1,
    slot,
    checkpointNumber: 1,
    archiveRoot: `0x${'11'.repeat(32)}`,
    checkpointHeaderHash: `0x${'22'.repeat(32)}`,
  },
  attester: `0x${'33'.repeat(20)}`,
  signature: `0x${'44'.repeat(96)}`,
});

function world(options: { lossProbability?: number; seed?: bigint } = {}) {
  const scheduler = createScheduler();
  const network = createSimNetwork({
    prng: createPrng(options.seed ?? 1n),
    latencyMs: { min: 10, max: 50 },
    ...(options.lossProbability !== undefined ? { lossProbability: options.lossProbability } : {}),
  });
  const heard = new Map<string, { slot: number; atMs: number }[]>();
  const ports = Object.fromEntries(
    ['a', 'b', 'c'].map((name) => {
      const port = network.connect(name, createNodeClock(scheduler, { owner: name }));
      heard.set(name, []);
      port.subscribe((m) => {
        if (m.kind !== 'tx') heard.get(name)!.push({ slot: m.payload.slot, atMs: scheduler.now() });
        return 'accept';
      });
      return [name, port];
    }),
  );
  return { scheduler, network, ports, heard };
}

describe('the simulated gossip network', () => {
  it('delivers to every other node after a latency in range, never to the sender, as frozen copies', async () => {
    const { scheduler, ports, heard } = world();
    const start = scheduler.now();
    ports.a!.publish(message(1));
    await scheduler.runFor(100);
    expect(heard.get('a')).toEqual([]);
    for (const name of ['b', 'c']) {
      const [entry] = heard.get(name)!;
      expect(entry!.slot).toBe(1);
      expect(entry!.atMs - start).toBeGreaterThanOrEqual(10);
      expect(entry!.atMs - start).toBeLessThanOrEqual(50);
    }
  });

  it('a partition separates the named group from the rest until it heals', async () => {
    const { scheduler, network, ports, heard } = world();
    network.partition([['a']]);
    ports.a!.publish(message(1));
    ports.b!.publish(message(2));
    await scheduler.runFor(100);
    expect(heard.get('a')).toEqual([]);
    expect(heard.get('b')).toEqual([]);
    expect(heard.get('c')!.map((e) => e.slot)).toEqual([2]);
    network.heal();
    ports.a!.publish(message(3));
    await scheduler.runFor(100);
    expect(heard.get('b')!.map((e) => e.slot)).toEqual([3]);
  });

  it('loses deliveries by its stream: the same seed loses the same ones; a disconnected node hears nothing', async () => {
    const run = async () => {
      const { scheduler, ports, heard } = world({ lossProbability: 0.5, seed: 9n });
      for (let slot = 0; slot < 40; slot++) ports.a!.publish(message(slot));
      await scheduler.runFor(100);
      return heard.get('b')!.map((e) => e.slot);
    };
    const first = await run();
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(35);
    expect(await run()).toEqual(first);
    const { scheduler, network, ports, heard } = world();
    network.disconnect('c');
    ports.a!.publish(message(1));
    await scheduler.runFor(100);
    expect(heard.get('c')).toEqual([]);
  });
});
