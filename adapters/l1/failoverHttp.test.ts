/**
 * Failover between several URLs of one L1 (failoverHttp, and the publisher over it), against anvil behind loopback
 * proxies that refuse, hang or count requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { startRpcProxy, type RpcProxy } from '../../test/helpers/rpcProxy.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { startAnvil, type AnvilInstance } from './anvil.js';
import { createL1PublicClient, rawRequest } from './l1Rpc.js';
import { createViemL1Publisher } from './viemL1Publisher.js';

const REQUEST_TIMEOUT_MS = 300;
const PUBLISHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

describe('failover between L1 URLs (anvil)', () => {
  let anvil: AnvilInstance;
  const proxies: RpcProxy[] = [];
  const seen = new Map<RpcProxy, string[]>();
  const proxy = async () => {
    const methods: string[] = [];
    const started = await startRpcProxy(anvil.url, { onRequest: (r) => methods.push(r.method) });
    proxies.push(started);
    seen.set(started, methods);
    return started;
  };
  beforeAll(async () => {
    anvil = await startAnvil({});
  });
  afterAll(async () => {
    for (const p of proxies) await p.stop();
    await anvil?.stop();
  });

  it('a hanging URL costs one timeout: requests stay on the URL that answered', async () => {
    const [a, b] = [await proxy(), await proxy()];
    a.hang();
    const switches: string[][] = [];
    const client = createL1PublicClient([a.url, b.url], {
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      onFailover: (from, to) => switches.push([from, to]),
    });
    expect(await client.getChainId()).toBe(31337);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(0n);
    expect(seen.get(a)).toEqual(['eth_chainId']);
    expect(seen.get(b)).toEqual(['eth_chainId', 'eth_blockNumber']);
    expect(switches).toEqual([[a.url, b.url]]);
  });

  it('an answer that is not a transport failure is not sent to the next URL', async () => {
    const [a, b] = [await proxy(), await proxy()];
    const client = createL1PublicClient([a.url, b.url], { requestTimeoutMs: REQUEST_TIMEOUT_MS });
    await expect(rawRequest(client, 'eth_noSuchMethod', [])).rejects.toThrow();
    expect(seen.get(a)).toEqual(['eth_noSuchMethod']);
    expect(seen.get(b)).toEqual([]);
  });

  it('when every URL fails, the publisher says L1_UNREACHABLE naming them; with one back, it reads through it', async () => {
    const [a, b] = [await proxy(), await proxy()];
    await a.kill();
    await b.kill();
    const lines: LogLine[] = [];
    const publisher = createViemL1Publisher({
      l1RpcUrls: [a.url, b.url],
      rollupAddress: privateKeyToAccount(PUBLISHER_KEY).address,
      publisherPrivateKey: PUBLISHER_KEY,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      logger: capturingLogger((line) => lines.push(line)),
    });
    const txHash = `0x${'ab'.repeat(32)}` as const;
    await expect(publisher.getTxStatus(txHash)).rejects.toMatchObject({
      code: 'L1_UNREACHABLE',
      message: expect.stringContaining(`${a.url}, ${b.url}`),
    });
    await b.revive();
    expect(await publisher.getTxStatus(txHash)).toEqual({ status: 'unknown' });
    expect(lines.map((l) => [l.level, l.message, l.fields?.to])).toEqual([
      ['warn', 'L1 publisher switches endpoint', b.url],
    ]);
  });
});
