/** The JSON-RPC envelope over HTTP (docs/protocol.md, Wire encoding), against a fake node. */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NodeError } from '../../core/errors.js';
import { BATCH_CALLS_MAX, PUBLIC_BODY_BYTES_MAX } from '../../spec/rpc/limits.js';
import { postJson, rawRequest, rpc, startTestServers, TEST_ADMIN_KEY, type TestServers } from './harness.js';

const call = (method: string, params?: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

describe('HTTP layer', () => {
  test('GET /status answers 200 {status: ok} on both ports, with no key', async () => {
    for (const url of [servers.publicUrl, servers.adminUrl]) {
      const reply = await rawRequest(url, { method: 'GET', path: '/status' });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ status: 'ok', reasons: [] });
    }
  });

  test('GET /live answers 200 on both ports, with no key', async () => {
    for (const url of [servers.publicUrl, servers.adminUrl]) {
      const reply = await rawRequest(url, { method: 'GET', path: '/live' });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ status: 'alive' });
    }
  });

  test('a body that is not application/json is HTTP 415', async () => {
    const variants: Record<string, string>[] = [
      { 'content-type': 'text/plain' },
      {},
      { 'content-type': 'application/json; charset=latin1' },
    ];
    for (const headers of variants) {
      const reply = await rawRequest(servers.publicUrl, { headers, body: JSON.stringify(call('svc_getChainId')) });
      expect(reply.status).toBe(415);
      expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  test('application/json with a UTF-8 charset is accepted', async () => {
    const reply = await postJson(servers.publicUrl, call('svc_getChainId'), {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 1, result: 31337 });
  });

  test('a body over 1 MiB on the public port is HTTP 413 naming the limit', async () => {
    const body = JSON.stringify(call('svc_getChainId', ['x'.repeat(PUBLIC_BODY_BYTES_MAX)]));
    const reply = await postJson(servers.publicUrl, body);
    expect(reply.status).toBe(413);
    expect(reply.json).toMatchObject({
      error: { code: -32005, data: { limit: 'bodyBytesMax', value: PUBLIC_BODY_BYTES_MAX } },
    });
  });

  test('the admin port takes bodies up to 10 MiB, and refuses more', async () => {
    const headers = { 'x-api-key': TEST_ADMIN_KEY };
    const big = await postJson(
      servers.adminUrl,
      JSON.stringify(call('svcAdmin_none', ['x'.repeat(2 * 1024 * 1024)])),
      headers,
    );
    expect(big.status).toBe(200);
    expect(big.json).toMatchObject({ error: { code: -32601 } });
    const tooBig = await postJson(
      servers.adminUrl,
      JSON.stringify(call('svcAdmin_none', ['x'.repeat(10 * 1024 * 1024)])),
      headers,
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toMatchObject({
      error: { code: -32005, data: { limit: 'bodyBytesMax', value: 10 * 1024 * 1024 } },
    });
  });

  test('a gzip-encoded request body is read', async () => {
    const reply = await rawRequest(servers.publicUrl, {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(call('svc_getChainId'))),
    });
    expect(reply.json).toEqual({ jsonrpc: '2.0', id: 1, result: 31337 });
  });

  test('other verbs on / are 405 and other paths 404', async () => {
    expect((await rawRequest(servers.publicUrl, { method: 'GET' })).status).toBe(405);
    expect(
      (
        await rawRequest(servers.publicUrl, {
          method: 'POST',
          path: '/rpc',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(404);
  });

  test('responses are gzipped when the client accepts gzip, and not otherwise', async () => {
    const batch = [1, 2, 3].map((n) => call('svc_getBlock', [n], n));
    const zipped = await postJson(servers.publicUrl, batch, { 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toMatch(/Accept-Encoding/);
    expect(zipped.raw.length).toBeLessThan(zipped.text.length);
    expect(zipped.json).toHaveLength(3);
    const plain = await postJson(servers.publicUrl, batch);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(zipped.text);
    const refused = await postJson(servers.publicUrl, batch, { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const small = await postJson(servers.publicUrl, call('svc_getChainId'), { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  test('CORS is off by default', async () => {
    const reply = await postJson(servers.publicUrl, call('svc_getChainId'), { origin: 'https://evil.example' });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('CORS follows the allow-list when one is given', async () => {
    const withCors = await startTestServers({}, { corsOrigins: ['https://app.example'] });
    try {
      const allowed = await postJson(withCors.publicUrl, call('svc_getChainId'), { origin: 'https://app.example' });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await postJson(withCors.publicUrl, call('svc_getChainId'), { origin: 'https://evil.example' });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await rawRequest(withCors.publicUrl, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
      expect(preflight.headers['access-control-allow-headers']).toMatch(/Content-Type/i);
      const adminPreflight = await rawRequest(withCors.adminUrl, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(adminPreflight.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await withCors.close();
    }
  });
});

describe('listeners', () => {
  test('a port in use is reported, and close() may be called twice', async () => {
    const adminPort = Number(new URL(servers.adminUrl).port);
    await expect(startTestServers({}, { adminPort, adminHost: '127.0.0.1' })).rejects.toThrow(/EADDRINUSE/);
    const extra = await startTestServers();
    await extra.close();
    await extra.close();
  });
});

describe('JSON-RPC envelope', () => {
  test('invalid JSON, a non-UTF-8 body and an empty body are -32700 with HTTP 200', async () => {
    for (const body of ['{"jsonrpc": "2.0",', '', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      const reply = await postJson(servers.publicUrl, body);
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    }
  });

  test('values that are not request objects are -32600 with id null', async () => {
    for (const body of [1, 'text', null, true, { jsonrpc: '2.0' }, { method: 'svc_getChainId', id: 4 }]) {
      const reply = await postJson(servers.publicUrl, JSON.stringify(body));
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    }
  });

  test('a malformed request keeps its id when the id itself is valid', async () => {
    const wrongVersion = await postJson(servers.publicUrl, { jsonrpc: '1.0', id: 'a', method: 'svc_getChainId' });
    expect(wrongVersion.json).toMatchObject({
      id: 'a',
      error: { code: -32600, message: expect.stringMatching(/jsonrpc/) },
    });
    const methodNotString = await postJson(servers.publicUrl, { jsonrpc: '2.0', id: 7, method: 5 });
    expect(methodNotString.json).toMatchObject({
      id: 7,
      error: { code: -32600, message: expect.stringMatching(/method/) },
    });
    const badId = await postJson(servers.publicUrl, { jsonrpc: '2.0', id: { x: 1 }, method: 'svc_getChainId' });
    expect(badId.json).toMatchObject({ id: null, error: { code: -32600 } });
    const badParams = await postJson(servers.publicUrl, {
      jsonrpc: '2.0',
      id: 8,
      method: 'svc_getChainId',
      params: 'x',
    });
    expect(badParams.json).toMatchObject({ id: 8, error: { code: -32600 } });
  });

  test('ids are echoed as sent: strings, numbers, null', async () => {
    for (const id of ['abc', 0, -5, 1.5, null]) {
      const reply = await postJson(servers.publicUrl, call('svc_getChainId', [], id));
      expect(reply.json).toEqual({ jsonrpc: '2.0', id, result: 31337 });
    }
  });

  test('unknown methods are -32601, including names of Object.prototype members', async () => {
    const names = [
      'svc_nope',
      'svc_constructor',
      'svc___proto__',
      'toString',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'valueOf',
      '',
    ];
    for (const name of names) {
      const reply = await rpc(servers.publicUrl, name, []);
      expect(reply.error?.code).toBe(-32601);
    }
    const long = await rpc(servers.publicUrl, `svc_${'a'.repeat(10_000)}`);
    expect(long.error?.message.length).toBeLessThan(200);
  });

  test('each listener serves only its namespace', async () => {
    expect((await rpc(servers.publicUrl, 'svcAdmin_getConfig')).error?.code).toBe(-32601);
    const onAdmin = await rpc(servers.adminUrl, 'svc_getChainId', [], { 'x-api-key': TEST_ADMIN_KEY });
    expect(onAdmin.error?.code).toBe(-32601);
  });

  test('params by name, or too many params, are -32602', async () => {
    const byName = await rpc(servers.publicUrl, 'svc_getBlockNumber', { tip: 'proven' });
    expect(byName.error).toMatchObject({ code: -32602, message: expect.stringMatching(/positional/) });
    const tooMany = await rpc(servers.publicUrl, 'svc_getChainId', [1]);
    expect(tooMany.error).toMatchObject({ code: -32602, message: expect.stringMatching(/at most 0 params, got 1/) });
  });

  test('a batch answers every element on its own, in order', async () => {
    const reply = await postJson(servers.publicUrl, [
      call('svc_getChainId', [], 1),
      call('svc_nope', [], 2),
      { jsonrpc: '2.0', method: 'svc_getChainId' },
      42,
      call('svc_getBlockNumber', ['latest'], 3),
      call('svc_getBlock', [999], 4),
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual([
      { jsonrpc: '2.0', id: 1, result: 31337 },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: svc_nope' } },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32602 }) },
      { jsonrpc: '2.0', id: 4, result: null },
    ]);
  });

  test('an empty batch is -32600', async () => {
    const reply = await postJson(servers.publicUrl, []);
    expect(reply.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringMatching(/empty batch/) },
    });
  });

  test(`a batch of ${BATCH_CALLS_MAX} is served; one more is -32005 naming the limit`, async () => {
    const full = await postJson(
      servers.publicUrl,
      Array.from({ length: BATCH_CALLS_MAX }, (_, i) => call('svc_getChainId', [], i)),
    );
    expect(full.json).toHaveLength(BATCH_CALLS_MAX);
    const over = await postJson(
      servers.publicUrl,
      Array.from({ length: BATCH_CALLS_MAX + 1 }, (_, i) => call('svc_getChainId', [], i)),
    );
    expect(over.status).toBe(200);
    expect(over.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, data: { limit: 'batchCallsMax', value: BATCH_CALLS_MAX, requested: BATCH_CALLS_MAX + 1 } },
    });
  });

  test('notifications get no answer; a body of only notifications is HTTP 204', async () => {
    const before = servers.node.calls.length;
    const single = await postJson(servers.publicUrl, { jsonrpc: '2.0', method: 'svc_getChainTips' });
    expect(single.status).toBe(204);
    expect(single.text).toBe('');
    const batch = await postJson(servers.publicUrl, [
      { jsonrpc: '2.0', method: 'svc_getChainId' },
      { jsonrpc: '2.0', method: 'svc_nope' },
      { jsonrpc: '2.0', method: 'svc_getBlockNumber', params: ['latest'] },
    ]);
    expect(batch.status).toBe(204);
    expect(servers.node.calls.length).toBe(before + 2);
  });

  test('a lookup that finds nothing answers result: null, the key present', async () => {
    const reply = await postJson(servers.publicUrl, call('svc_getBlockData', [12345]));
    expect(reply.text).toBe('{"jsonrpc":"2.0","id":1,"result":null}');
  });
});

describe('errors of the node', () => {
  test('a call that takes too long is -32002', async () => {
    const slow = await startTestServers(
      { chain: { getChainTips: () => new Promise(() => undefined) } },
      { publicLimits: { requestTimeoutMs: 50 } },
    );
    try {
      const reply = await rpc(slow.publicUrl, 'svc_getChainTips');
      expect(reply.error).toMatchObject({ code: -32002, data: { limit: 'requestTimeoutMs', value: 50 } });
      expect(await rpc(slow.publicUrl, 'svc_getChainId')).toMatchObject({ result: 31337 });
    } finally {
      await slow.close();
    }
  });

  test('an unexpected exception is -32603 with no message, stack or detail of it', async () => {
    const failing = await startTestServers({
      chain: {
        getChainTips: async () => {
          throw new Error('secret database path /var/lib/secret');
        },
      },
      info: {
        getChainId: () => {
          throw new TypeError('sync failure');
        },
        getNodeVersion: () => 42 as unknown as string,
      },
    });
    try {
      for (const method of ['svc_getChainTips', 'svc_getChainId', 'svc_getNodeVersion']) {
        const reply = await postJson(failing.publicUrl, call(method));
        expect(reply.status).toBe(200);
        expect(reply.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
        expect(reply.text).not.toMatch(/secret|at .*\.ts|stack/);
      }
    } finally {
      await failing.close();
    }
  });

  test('core error codes map to their JSON-RPC codes, with the code and details in data', async () => {
    const cases = [
      ['STATE_NOT_AVAILABLE', -32006],
      ['SUBSYSTEM_DISABLED', -32004],
      ['OPERATION_REFUSED', -32007],
      ['LIMIT_EXCEEDED', -32005],
      ['INVALID_PARAMS', -32602],
    ] as const;
    for (const [code, rpcCode] of cases) {
      const failing = await startTestServers({
        chain: {
          getChainTips: async () => {
            throw new NodeError(code, 'the node says no', { limit: 'someLimitMax', value: 10n });
          },
        },
      });
      try {
        const reply = await rpc(failing.publicUrl, 'svc_getChainTips');
        expect(reply.error).toEqual({
          code: rpcCode,
          message: 'the node says no',
          data: { code, limit: 'someLimitMax', value: '10' },
        });
      } finally {
        await failing.close();
      }
    }
  });

  test('core codes clients never see, and foreign codes, are -32603', async () => {
    const failing = await startTestServers({
      chain: {
        getChainTips: async () => {
          throw new NodeError('SYNC_FAILED', 'l1 unreachable');
        },
      },
      info: {
        getChainId: () => {
          throw Object.assign(new Error('ENOENT: /secret'), { code: 'ENOENT' });
        },
      },
    });
    try {
      expect((await rpc(failing.publicUrl, 'svc_getChainTips')).error).toEqual({
        code: -32603,
        message: 'Internal error',
      });
      expect((await rpc(failing.publicUrl, 'svc_getChainId')).error).toEqual({
        code: -32603,
        message: 'Internal error',
      });
    } finally {
      await failing.close();
    }
  });
});
