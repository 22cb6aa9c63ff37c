import { describe, expect, it } from 'vitest';
import type { GossipMessage } from '../../core/ports.js';
import { createInProcessBus } from './inProcessBus.js';

const message: GossipMessage = {
  kind: 'checkpointAttestation',
  payload: {
    l1ChainId: 1,
    rollupVersion: 1,
    slot: 4,
    checkpointNumber: 1,
    archiveRoot: `0x${'11'.repeat(32)}`,
    checkpointHeaderHash: `0x${'22'.repeat(32)}`,
  },
  attester: `0x${'33'.repeat(20)}`,
  signature: `0x${'44'.repeat(96)}`,
};

describe('in-process gossip bus', () => {
  it('delivers a copy to every other port on a later turn, never to the sender, and stops after unsubscribe', async () => {
    const bus = createInProcessBus();
    const [a, b, c] = [bus.connect(), bus.connect(), bus.connect()];
    const heard: Record<string, GossipMessage[]> = { a: [], b: [], c: [] };
    a.subscribe((m) => (heard.a!.push(m), 'accept'));
    b.subscribe((m) => (heard.b!.push(m), 'accept'));
    const stopC = c.subscribe((m) => (heard.c!.push(m), 'accept'));
    a.publish(message);
    expect(heard.b).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.a).toEqual([]);
    expect(heard.b).toEqual([message]);
    expect(heard.b![0]).not.toBe(message);
    expect(heard.c).toEqual([message]);
    stopC();
    b.publish({ ...message, signature: `0x${'55'.repeat(96)}` });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard.a).toHaveLength(1);
    expect(heard.c).toHaveLength(1);
  });
});
