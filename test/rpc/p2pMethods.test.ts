/**
 * The peer-to-peer methods over HTTP on a node with a network (here the in-process bus): svc_getPeers lists the other
 * nodes as PeerInfo, pending ones only when asked; svc_getEncodedEnr answers null for a network without discovery.
 * A node without a network answers -32004 (test/rpc/everyMethod.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInProcessBus } from '../../adapters/network/inProcessBus.js';
import { createP2pService } from '../../core/network/p2pService.js';
import type { NetworkPeer, NetworkPort } from '../../core/ports.js';
import { rpc, startTestServers, type TestServers } from './harness.js';

let servers: TestServers;
beforeAll(async () => {
  const bus = createInProcessBus();
  const own = bus.connect('own');
  bus.connect('peer-a');
  bus.connect('peer-b');
  const pending: NetworkPeer = { id: 'peer-c', status: 'pending', addresses: ['/ip4/127.0.0.1/tcp/9'], score: 0 };
  const withPending: NetworkPort = {
    ...own,
    peers: (includePending) => [...own.peers(includePending), ...(includePending ? [pending] : [])],
  };
  servers = await startTestServers({ p2p: createP2pService(withPending) });
});
afterAll(async () => {
  await servers.close();
});

describe('p2p methods on a node with a network', () => {
  test('svc_getPeers lists connected peers, and pending ones only with includePending', async () => {
    const connected = [
      { id: 'peer-a', status: 'connected', addresses: [] },
      { id: 'peer-b', status: 'connected', addresses: [] },
    ];
    expect(await rpc(servers.publicUrl, 'svc_getPeers', [])).toMatchObject({ result: connected });
    expect(await rpc(servers.publicUrl, 'svc_getPeers', [true])).toMatchObject({
      result: [...connected, { id: 'peer-c', status: 'pending', addresses: ['/ip4/127.0.0.1/tcp/9'] }],
    });
  });

  test('svc_getEncodedEnr answers no record for a network without discovery', async () => {
    const reply = (await rpc(servers.publicUrl, 'svc_getEncodedEnr', [])) as { result?: unknown; error?: unknown };
    expect(reply.error).toBeUndefined();
    expect(reply.result ?? null).toBeNull();
  });
});
