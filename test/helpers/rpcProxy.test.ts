import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type AnvilInstance } from '../../adapters/l1/anvil.js';
import { startRpcProxy, type RpcProxy } from './rpcProxy.js';

/** One JSON-RPC call; the raw answer (result or error). */
async function call(url: string, method: string, params: unknown[] = [], timeoutMs = 5_000) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe('the RPC proxy in front of anvil', () => {
  let anvil: AnvilInstance;
  let proxy: RpcProxy;
  const methods: string[] = [];
  beforeAll(async () => {
    anvil = await startAnvil({});
    proxy = await startRpcProxy(anvil.url, { onRequest: (r) => methods.push(r.method) });
    const from = ((await call(anvil.url, 'eth_accounts')).result as string[])[0];
    await call(anvil.url, 'anvil_mine', ['0x2']);
    // A contract creation whose constructor emits one log (LOG0): block 3.
    await call(anvil.url, 'eth_sendTransaction', [{ from, data: '0x60006000a000' }]);
    await call(anvil.url, 'anvil_mine', ['0x3']);
  });
  afterAll(async () => {
    await proxy?.stop();
    await anvil?.stop();
  });

  it('forwards, and reports every request', async () => {
    expect(await call(proxy.url, 'eth_blockNumber')).toMatchObject({ result: '0x6' });
    expect(methods).toContain('eth_blockNumber');
  });

  it('stale: answers as a node stuck at an older block', async () => {
    expect(await proxy.stale(2n)).toBe(2n);
    expect(await call(proxy.url, 'eth_blockNumber')).toMatchObject({ result: '0x2' });
    expect(await call(proxy.url, 'eth_getBlockByNumber', ['latest', false])).toMatchObject({
      result: { number: '0x2' },
    });
    expect(await call(proxy.url, 'eth_getBlockByNumber', ['0x3', false])).toMatchObject({ result: null });
    // Logs up to its head, silently; a range starting past it is refused.
    expect((await call(proxy.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x6' }])).result).toEqual([]);
    expect((await call(proxy.url, 'eth_getLogs', [{ fromBlock: '0x3', toBlock: '0x6' }])).error?.message).toMatch(
      /BlockOutOfRange/,
    );
    expect((await call(proxy.url, 'eth_getCode', ['0x' + '00'.repeat(20), '0x5'])).error?.message).toMatch(
      /block height is 2/,
    );
    proxy.heal();
    expect((await call(proxy.url, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x6' }])).result).toHaveLength(1);
  });

  it('refuse: answers the requests it names with a JSON-RPC error, and forwards the others', async () => {
    const refused: string[] = [];
    const strict = await startRpcProxy(anvil.url, {
      refuse: ({ method }) =>
        method.startsWith('anvil_') ? (refused.push(method), 'no development methods') : undefined,
    });
    try {
      expect(await call(strict.url, 'anvil_mine', ['0x1'])).toMatchObject({
        error: { code: -32601, message: 'no development methods' },
      });
      expect(await call(strict.url, 'eth_blockNumber')).toMatchObject({ result: '0x6' });
      expect(refused).toEqual(['anvil_mine']);
    } finally {
      await strict.stop();
    }
  });

  it('hang: takes requests and answers none; kill: refuses them; revive: forwards again', async () => {
    proxy.hang();
    await expect(call(proxy.url, 'eth_chainId', [], 300)).rejects.toThrow();
    proxy.heal();
    await proxy.kill();
    await expect(call(proxy.url, 'eth_chainId')).rejects.toThrow();
    await proxy.revive();
    expect(await call(proxy.url, 'eth_chainId')).toMatchObject({ result: '0x7a69' });
  });
});
