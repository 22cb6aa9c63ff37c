/**
 * `GET /status` tells the truth on a real L1: a follower reads anvil through a loopback proxy
 * (test/helpers/rpcProxy.ts); while the proxy is down the status is 503 naming L1, and once it is back it is 200
 * again. `GET /live` stays 200 throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../adapters/l1/anvil.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import { startRpcProxy, type RpcProxy } from '../helpers/rpcProxy.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { waitFor } from './rpc.js';
import { deployTestRollup } from '../helpers/testRollup.js';

/** Long enough for a few sync steps and the archiver's first backoffs (1 s, 2 s, 4 s). */
const STATUS_CHANGE_TIMEOUT_MS = 20_000;

type StatusBody = { status: string; reasons: { kind: string; message: string }[] };

async function getStatus(url: string, path = '/status'): Promise<{ code: number; body: StatusBody }> {
  const response = await fetch(`${url}${path}`);
  return { code: response.status, body: (await response.json()) as StatusBody };
}

describe('GET /status on a follower of a real L1', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let proxy: RpcProxy;
  let node: RunningNode;

  beforeAll(async () => {
    anvil = await startAnvil({ port: 0 });
    const { rollupAddress } = await deployTestRollup(anvil.url);
    proxy = await startRpcProxy(anvil.url);
    node = await runNode({ ...quietNodeOptions, l1RpcUrl: proxy.url, l1ConsensusHostUrl: anvil.url, rollupAddress });
  });
  afterAll(async () => {
    await node?.stop();
    await proxy?.stop();
    await anvil?.stop();
  });

  it('turns 503 naming L1 when L1 stops answering, and 200 when it is back; /live stays 200', async () => {
    await waitFor(
      'a healthy status',
      async () => (await getStatus(node.publicUrl)).code === 200,
      STATUS_CHANGE_TIMEOUT_MS,
    );
    expect((await getStatus(node.publicUrl)).body).toMatchObject({ status: 'ok', reasons: [] });

    await proxy.kill();
    await waitFor('a 503 status', async () => (await getStatus(node.publicUrl)).code === 503, STATUS_CHANGE_TIMEOUT_MS);
    for (const url of [node.publicUrl, node.adminUrl]) {
      const down = await getStatus(url);
      expect(down.code).toBe(503);
      expect(down.body.status).toBe('unhealthy');
      expect(down.body.reasons.map((reason) => reason.kind)).toContain('l1Unreachable');
      expect((await getStatus(url, '/live')).code).toBe(200);
    }

    await proxy.revive();
    await waitFor(
      'a healthy status again',
      async () => (await getStatus(node.publicUrl)).code === 200,
      STATUS_CHANGE_TIMEOUT_MS,
    );
    expect((await getStatus(node.adminUrl)).body).toMatchObject({ status: 'ok', reasons: [] });
  });
});
