import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { AnvilStartError, startAnvil, type AnvilInstance } from './anvil.js';

async function chainIdAt(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  });
  return ((await response.json()) as { result: string }).result;
}

function listenOnFreePort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address !== 'object') return reject(new Error('no address'));
      resolve({ server, port: address.port });
    });
  });
}

describe('startAnvil', () => {
  const started: AnvilInstance[] = [];
  afterAll(async () => {
    await Promise.all(started.map((anvil) => anvil.stop()));
  });

  it('starts on a free port with the requested chain id and stops', async () => {
    const anvil = await startAnvil({ chainId: 4242 });
    started.push(anvil);
    expect(anvil.port).toBeGreaterThan(0);
    expect(anvil.url).toBe(`http://127.0.0.1:${anvil.port}`);
    expect(await chainIdAt(anvil.url)).toBe('0x1092');
    await anvil.stop();
    await anvil.stop(); // idempotent
    await expect(chainIdAt(anvil.url)).rejects.toThrow();
  });

  it('fails fast with a clear message when the port is taken by another anvil', async () => {
    const first = await startAnvil({});
    started.push(first);
    const t0 = Date.now();
    const error = await startAnvil({ port: first.port }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnvilStartError);
    expect((error as Error).message).toMatch(new RegExp(`127\\.0\\.0\\.1:${first.port}: the port is already in use`));
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await chainIdAt(first.url)).toBe('0x7a69'); // the first one is untouched
  });

  it('gives up after the bounded start wait, with a clear error, and leaves no process behind', async () => {
    const error = await startAnvil({ startTimeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnvilStartError);
    const match = /did not start on (http:\/\/127\.0\.0\.1:\d+): no JSON-RPC answer within 1 ms/.exec(
      (error as Error).message,
    );
    expect(match).not.toBeNull();
    await expect(chainIdAt(match![1]!)).rejects.toThrow(); // the half-started anvil was stopped
  });

  it('fails fast when the port is taken by something that is not anvil', async () => {
    const { server, port } = await listenOnFreePort();
    try {
      await expect(startAnvil({ port })).rejects.toThrow(/already in use/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
