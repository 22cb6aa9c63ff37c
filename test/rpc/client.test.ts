/** The typed client (adapters/client) against real listeners over a fake node: calls, batches, errors, decoding. */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import {
  createSvcClient,
  SvcDecodeError,
  SvcHttpError,
  SvcRpcError,
  type SvcCallOutcome,
  type SvcClient,
} from '../../adapters/client/index.js';
import { subsystemUnavailable } from '../../core/errors.js';
import type { Hex } from '../../spec/chain.js';
import { NAMESPACE_PREFIX } from '../../spec/rpc/methodDefinition.js';
import { rpcMethodList, type RpcResult } from '../../spec/rpc/methods.js';
import { blockHashOf, checkpointOne, l1Constants, tips } from './fakeNode.js';
import { startTestServers, TEST_ADMIN_KEY, type TestServers } from './harness.js';

let servers: TestServers;
let client: SvcClient;
beforeAll(async () => {
  servers = await startTestServers();
  client = createSvcClient(servers.publicUrl);
});
afterAll(async () => {
  await servers.close();
});

/** The rejection of a promise that must reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** A fetch that answers every request itself, with the reply `answer` builds from the request body. */
function fetchAnswering(answer: (request: { id: number; method: string }) => string): typeof fetch {
  return async (_url, init) => {
    const request = JSON.parse(String(init?.body)) as { id: number; method: string };
    return new Response(answer(request), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

describe('typed calls', () => {
  test('request: wire params in, decoded result out (bigints as bigint)', async () => {
    const block = await client.request('svc_getBlock', [1, { includeL1PublishInfo: true, includeTransactions: true }]);
    expectTypeOf(block).toEqualTypeOf<RpcResult<'svc_getBlock'>>();
    expect(block).not.toBeNull();
    expect(block?.number).toBe(1);
    expect(block?.header.totalFees).toBe(2n ** 70n);
    expect(block?.header.globalVariables.gasFees.feePerL2Gas).toBe(12_345_678_901_234_567_890n);
    expect(block?.header.globalVariables.timestamp).toBe(1_700_000_036n);
    expect(block?.l1).toEqual(checkpointOne.l1);
    expect(block?.body?.txEffects).toHaveLength(1);
    expect(servers.node.calls.at(-1)).toMatchObject({ method: 'getBlock', args: [{ kind: 'number', number: 1 }] });

    const constants = await client.request('svc_getL1Constants');
    expectTypeOf(constants.l1StartBlock).toEqualTypeOf<bigint>();
    expect(constants).toEqual(l1Constants);
  });

  test('the camelCase groups call the same methods, params spread', async () => {
    expect(await client.svc.getBlock(1, { includeL1PublishInfo: true })).toEqual(
      await client.request('svc_getBlock', [1, { includeL1PublishInfo: true }]),
    );
    expect(await client.svc.getBlock({ hash: blockHashOf(2) })).toMatchObject({ number: 2, hash: blockHashOf(2) });
    expect(await client.svc.getBlock(99)).toBeNull();
    expect(await client.svc.getBlockNumber()).toBe(3);
    expect(await client.svc.getBlockNumber('checkpointed')).toBe(2);
    expect(await client.svc.getChainTips()).toEqual(tips);
    expectTypeOf(client.svc.getChainTips).returns.resolves.toEqualTypeOf<RpcResult<'svc_getChainTips'>>();
    expectTypeOf<Awaited<ReturnType<typeof client.svc.getBlockData>>>().toExtend<{ hash: Hex } | null>();
  });

  test('an optional param given as undefined is left out, or sent as null before a given one', async () => {
    expect(await client.svc.getBlock(2, undefined)).toMatchObject({ number: 2 });
    expect(await client.request('svc_getBlockNumber', [null])).toBe(3);
  });

  test('the groups hold exactly the methods of the table, under their names without the prefix', () => {
    for (const [group, namespace] of [
      ['svc', 'public'],
      ['admin', 'admin'],
    ] as const) {
      const expected = rpcMethodList
        .filter((method) => method.namespace === namespace)
        .map((method) => method.name.slice(NAMESPACE_PREFIX[namespace].length));
      expect(Object.keys(client[group]).sort()).toEqual([...expected].sort());
    }
  });

  test('types follow the table', () => {
    // Checked by tsc, which covers the tests; the calls are never made.
    const misuses = () => {
      // @ts-expect-error svc_getBlock's first param is required
      void client.request('svc_getBlock');
      // @ts-expect-error not a method of the table
      void client.request('svc_noSuchMethod');
      // @ts-expect-error a block number is a JSON number on the wire
      void client.svc.getBlock(1n);
      // @ts-expect-error svc_getBlock needs its params in a batch too
      void client.batch([{ method: 'svc_getBlock' }]);
    };
    expect(misuses).toBeTypeOf('function');
    expectTypeOf(client.svc.getBlockNumber).parameters.toEqualTypeOf<
      [('proposed' | 'checkpointed' | 'proven' | 'finalized' | null)?]
    >();
  });

  test('requestWire: any method name, the wire result undecoded', async () => {
    const wire = (await client.requestWire('svc_getL1Constants', [])) as Record<string, unknown>;
    expect(wire['l1StartBlock']).toBe('17');
    const unknown = await rejectionOf(client.requestWire('svc_noSuchMethod'));
    expect(unknown).toBeInstanceOf(SvcRpcError);
    expect(unknown).toMatchObject({ code: -32601, errorName: 'METHOD_NOT_FOUND', method: 'svc_noSuchMethod' });
  });
});

describe('JSON-RPC errors', () => {
  test('-32602 as SvcRpcError with the node’s message and data', async () => {
    const error = await rejectionOf(client.svc.getBlock({ number: -1 }));
    expect(error).toBeInstanceOf(SvcRpcError);
    const rpcError = error as SvcRpcError;
    expect(rpcError.code).toBe(-32602);
    expect(rpcError.errorName).toBe('INVALID_PARAMS');
    expect(rpcError.method).toBe('svc_getBlock');
    expect(rpcError.message).toMatch(/^Invalid params: params\[0\] \(param\)/);
    expect(rpcError.data).toMatchObject({
      position: 0,
      name: 'param',
      issues: [expect.objectContaining({ message: expect.any(String) })],
    });
  });

  test('-32004 as SvcRpcError naming the subsystem', async () => {
    const disabled = await startTestServers({
      chain: {
        getChainTips: async () => {
          throw subsystemUnavailable('p2p', 'notEnabled');
        },
      },
    });
    try {
      const error = await rejectionOf(createSvcClient(disabled.publicUrl).svc.getChainTips());
      expect(error).toBeInstanceOf(SvcRpcError);
      expect(error).toMatchObject({
        code: -32004,
        errorName: 'SUBSYSTEM_DISABLED',
        data: { subsystem: 'p2p', reason: 'notEnabled', code: 'SUBSYSTEM_DISABLED' },
      });
    } finally {
      await disabled.close();
    }
  });

  test('-32002 when the node takes longer than the listener allows', async () => {
    const slow = await startTestServers(
      { chain: { getChainTips: () => new Promise(() => undefined) } },
      { publicLimits: { requestTimeoutMs: 200 } },
    );
    try {
      const error = await rejectionOf(createSvcClient(slow.publicUrl, { timeoutMs: 5_000 }).svc.getChainTips());
      expect(error).toMatchObject({
        name: 'SvcRpcError',
        code: -32002,
        data: { limit: 'requestTimeoutMs', value: 200 },
      });
    } finally {
      await slow.close();
    }
  });

  test('a result that does not fit the result codec is a SvcDecodeError', async () => {
    const lying = createSvcClient('http://127.0.0.1:1', {
      fetch: fetchAnswering(({ id }) =>
        JSON.stringify({ jsonrpc: '2.0', id, result: { proposed: { number: 'three' } } }),
      ),
    });
    const error = await rejectionOf(lying.svc.getChainTips());
    expect(error).toBeInstanceOf(SvcDecodeError);
    expect(error).toMatchObject({ method: 'svc_getChainTips', result: { proposed: { number: 'three' } } });
    expect((error as SvcDecodeError).issues.length).toBeGreaterThan(0);
  });

  test('a body that is not the JSON-RPC answer is a SvcHttpError invalidResponse', async () => {
    const cases = [
      () => 'not json',
      () => JSON.stringify({ jsonrpc: '2.0', id: 12345, result: true }),
      () => JSON.stringify([{ jsonrpc: '2.0', id: 1, result: true }]),
      ({ id }: { id: number }) => JSON.stringify({ id, result: true }),
    ];
    for (const answer of cases) {
      const error = await rejectionOf(
        createSvcClient('http://127.0.0.1:1', { fetch: fetchAnswering(answer) }).svc.isReady(),
      );
      expect(error).toBeInstanceOf(SvcHttpError);
      expect(error).toMatchObject({ reason: 'invalidResponse', status: 200 });
    }
  });
});

describe('batches', () => {
  test('one outcome per call, in order, successes and errors mixed', async () => {
    const before = servers.node.calls.length;
    const outcomes = await client.batch([
      { method: 'svc_getBlockNumber' },
      { method: 'svc_getBlock', params: [{ number: -1 }] },
      { method: 'svc_getBlock', params: [1] },
      { method: 'svc_getCheckpointNumber', params: ['finalized'] },
      { method: 'svc_getBlock', params: [99] },
      { method: 'svc_getL1Constants', params: [] },
    ]);
    expectTypeOf(outcomes[0]).toEqualTypeOf<SvcCallOutcome<'svc_getBlockNumber'>>();
    expectTypeOf(outcomes[2]).toEqualTypeOf<SvcCallOutcome<'svc_getBlock'>>();
    expect(outcomes.map((outcome) => [outcome.method, outcome.ok])).toEqual([
      ['svc_getBlockNumber', true],
      ['svc_getBlock', false],
      ['svc_getBlock', true],
      ['svc_getCheckpointNumber', true],
      ['svc_getBlock', true],
      ['svc_getL1Constants', true],
    ]);
    const [blockNumber, invalid, block, checkpoint, missing, constants] = outcomes;
    expect(blockNumber).toMatchObject({ ok: true, result: 3 });
    expect(invalid.ok ? undefined : invalid.error).toMatchObject({
      name: 'SvcRpcError',
      code: -32602,
      data: { position: 0, name: 'param' },
    });
    expect(block.ok && block.result?.header.totalFees).toBe(2n ** 70n);
    expect(checkpoint).toMatchObject({ ok: true, result: 0 });
    expect(missing).toMatchObject({ ok: true, result: null });
    expect(constants.ok && constants.result.l1GenesisTime).toBe(1_700_000_000n);
    expect(servers.node.calls.length - before).toBe(5);
  });

  test('responses are matched to calls by id, whatever their order in the answer', async () => {
    const reversing: typeof fetch = async (url, init) => {
      const response = await fetch(url, init);
      const body = (await response.json()) as unknown[];
      return new Response(JSON.stringify(body.reverse()), { status: response.status });
    };
    const outcomes = await createSvcClient(servers.publicUrl, { fetch: reversing }).batch([
      { method: 'svc_getBlockNumber', params: ['proposed'] },
      { method: 'svc_getBlockNumber', params: ['checkpointed'] },
      { method: 'svc_getChainId' },
    ]);
    expect(outcomes.map((outcome) => outcome.ok && outcome.result)).toEqual([3, 2, 31337]);
  });

  test('a batch refused as a whole rejects with SvcRpcError; an empty batch sends nothing', async () => {
    const small = await startTestServers({}, { publicLimits: { batchCallsMax: 2 } });
    try {
      const calls = [{ method: 'svc_isReady' }, { method: 'svc_isReady' }, { method: 'svc_isReady' }] as const;
      const error = await rejectionOf(createSvcClient(small.publicUrl).batch(calls));
      expect(error).toBeInstanceOf(SvcRpcError);
      expect(error).toMatchObject({ code: -32005, method: undefined, data: { limit: 'batchCallsMax', value: 2 } });
    } finally {
      await small.close();
    }
    const offline = createSvcClient('http://127.0.0.1:1', {
      fetch: () => Promise.reject(new Error('no request expected')),
    });
    expect(await offline.batch([])).toEqual([]);
  });

  test('a malformed result fails its own call only', async () => {
    const fetchBatch: typeof fetch = async (_url, init) => {
      const calls = JSON.parse(String(init?.body)) as { id: number; method: string }[];
      const answers = calls.map(({ id, method }) =>
        method === 'svc_getVersion' ? { jsonrpc: '2.0', id, result: -1 } : { jsonrpc: '2.0', id, result: true },
      );
      return new Response(JSON.stringify(answers), { status: 200 });
    };
    const [version, ready] = await createSvcClient('http://127.0.0.1:1', { fetch: fetchBatch }).batch([
      { method: 'svc_getVersion' },
      { method: 'svc_isReady' },
    ]);
    expect(version.ok ? undefined : version.error).toBeInstanceOf(SvcDecodeError);
    expect(ready).toMatchObject({ ok: true, result: true });
  });
});

describe('the admin listener', () => {
  test('admin.<name> calls svcAdmin_<name> with the key in x-api-key', async () => {
    const operator = createSvcClient(servers.adminUrl, { apiKey: TEST_ADMIN_KEY });
    expectTypeOf(operator.admin.pauseSync).returns.resolves.toEqualTypeOf<RpcResult<'svcAdmin_pauseSync'>>();
    expect(await operator.admin.pauseSync()).toBeNull();
    expect(servers.node.adminState.syncPaused).toBe(true);
    const [resumed, config] = await operator.batch([
      { method: 'svcAdmin_resumeSync' },
      { method: 'svcAdmin_getConfig' },
    ]);
    expect(resumed).toMatchObject({ ok: true, result: null });
    expect(config.ok && config.result).toEqual(servers.node.adminState.config);
    expect(servers.node.adminState.syncPaused).toBe(false);
  });
});

describe('HTTP and transport failures', () => {
  test('401 on the admin listener with a wrong or missing key; the right key is let through', async () => {
    for (const apiKey of [`${TEST_ADMIN_KEY}x`, undefined]) {
      const admin = createSvcClient(servers.adminUrl, apiKey === undefined ? {} : { apiKey });
      const error = await rejectionOf(admin.requestWire('svcAdmin_getConfig'));
      expect(error).toBeInstanceOf(SvcHttpError);
      expect(error).toMatchObject({ reason: 'unauthorized', status: 401, rpcError: { code: -32001 } });
      expect(await rejectionOf(admin.request('svc_getChainTips'))).toMatchObject({
        reason: 'unauthorized',
        status: 401,
      });
    }
    const admin = createSvcClient(servers.adminUrl, { apiKey: TEST_ADMIN_KEY });
    const answer = await admin.requestWire('svcAdmin_getConfig').catch((error: unknown) => error);
    expect(answer).not.toBeInstanceOf(SvcHttpError);
    expect(await rejectionOf(admin.request('svc_getChainTips'))).toMatchObject({ name: 'SvcRpcError', code: -32601 });
  });

  test('413 when the body exceeds the listener limit', async () => {
    const strict = await startTestServers({}, { publicLimits: { bodyBytesMax: 64 } });
    try {
      const error = await rejectionOf(createSvcClient(strict.publicUrl).svc.getBlock(1, { includeTransactions: true }));
      expect(error).toBeInstanceOf(SvcHttpError);
      expect(error).toMatchObject({ reason: 'bodyTooLarge', status: 413, rpcError: { code: -32005 } });
    } finally {
      await strict.close();
    }
  });

  test('415 when the content type is not JSON', async () => {
    const relabelling: typeof fetch = (url, init) => fetch(url, { ...init, headers: { 'content-type': 'text/plain' } });
    const error = await rejectionOf(createSvcClient(servers.publicUrl, { fetch: relabelling }).svc.isReady());
    expect(error).toBeInstanceOf(SvcHttpError);
    expect(error).toMatchObject({ reason: 'unsupportedMediaType', status: 415 });
  });

  test('no listener: transport; no answer in time: timeout', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const refused = await rejectionOf(createSvcClient(`http://127.0.0.1:${port}`).svc.isReady());
    expect(refused).toBeInstanceOf(SvcHttpError);
    expect(refused).toMatchObject({ reason: 'transport', status: undefined });

    const slow = await startTestServers(
      { chain: { getChainTips: () => new Promise(() => undefined) } },
      { publicLimits: { requestTimeoutMs: 1_000 } },
    );
    try {
      const timedOut = await rejectionOf(createSvcClient(slow.publicUrl, { timeoutMs: 100 }).svc.getChainTips());
      expect(timedOut).toBeInstanceOf(SvcHttpError);
      expect(timedOut).toMatchObject({ reason: 'timeout', status: undefined });
    } finally {
      await slow.close();
    }
  });
});
