/**
 * The public listener's fast path answers plain JSON-RPC posts without Express. Whatever it serves must be exactly
 * what the Express app alone would send: the same status, the same headers that matter and the same body.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcApp, createRpcRequestListener, type RpcAppOptions } from '../../adapters/rpc/jsonRpcServer.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import { createFakeNode } from './fakeNode.js';
import { rawRequest, type RawReply, type RawRequest } from './harness.js';

const listen = (listener: RequestListener): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer(listener);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

const options: RpcAppOptions = { node: createFakeNode(), namespace: 'public', limits: PUBLIC_RPC_LIMITS_DEFAULT };
let expressOnly: Server;
let withFastPath: Server;
beforeAll(async () => {
  expressOnly = await listen(createRpcApp(options));
  withFastPath = await listen(createRpcRequestListener(options));
});
afterAll(async () => {
  await Promise.all([close(expressOnly), close(withFastPath)]);
});

/** What a client can observe of an answer, minus the Date header. */
const observable = (reply: RawReply) => ({
  status: reply.status,
  contentType: reply.headers['content-type'],
  contentEncoding: reply.headers['content-encoding'],
  vary: reply.headers['vary'],
  contentLength: reply.headers['content-length'],
  text: reply.text,
});

async function expectSameAnswer(request: RawRequest): Promise<void> {
  const [viaExpress, viaFastPath] = await Promise.all([
    rawRequest(urlOf(expressOnly), request),
    rawRequest(urlOf(withFastPath), request),
  ]);
  expect(observable(viaFastPath)).toEqual(observable(viaExpress));
}

const json = { 'content-type': 'application/json' };
const call = (method: string, params: unknown[] = [], id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('the fast path sends what Express sends', () => {
  test.each<[string, RawRequest]>([
    ['a call', { headers: json, body: call('svc_getBlockNumber') }],
    ['a batch', { headers: json, body: `[${call('svc_getChainId')},${call('svc_nope', [], 2)}]` }],
    ['notifications only (204)', { headers: json, body: JSON.stringify({ jsonrpc: '2.0', method: 'svc_getChainId' }) }],
    ['a parse error', { headers: json, body: '{"jsonrpc":' }],
    ['an empty body', { headers: json, body: '' }],
    ['not UTF-8', { headers: json, body: Buffer.from([0x7b, 0xff, 0x7d]) }],
    ['an invalid request', { headers: json, body: '{"jsonrpc":"1.0","id":1,"method":"svc_getChainId"}' }],
    ['bad params', { headers: json, body: call('svc_getBlockNumber', ['sideways']) }],
    [
      'a large answer, gzip accepted',
      { headers: { ...json, 'accept-encoding': 'gzip, deflate' }, body: call('rpc.discover') },
    ],
    [
      'a large answer, gzip refused by q=0',
      { headers: { ...json, 'accept-encoding': 'gzip;q=0, identity' }, body: call('rpc.discover') },
    ],
    [
      'a large answer, identity preferred',
      { headers: { ...json, 'accept-encoding': 'identity;q=1, gzip;q=0.5' }, body: call('rpc.discover') },
    ],
    [
      'a charset parameter',
      { headers: { 'content-type': 'application/json; charset=UTF-8' }, body: call('svc_getChainId') },
    ],
  ])('%s', async (_name, request) => {
    await expectSameAnswer(request);
  });

  test('property: any JSON body gets the same answer both ways', async () => {
    const methods = fc.constantFrom(
      'svc_getBlockNumber',
      'svc_getChainId',
      'svc_getBlock',
      'svc_getChainTips',
      'svc_x',
      'svcAdmin_getConfig',
    );
    const request = fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0'),
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        method: methods,
        params: fc.array(fc.jsonValue(), { maxLength: 3 }),
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    );
    const body = fc.oneof(request, fc.array(request, { maxLength: 4 }), fc.jsonValue());
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        await expectSameAnswer({ headers: json, body: JSON.stringify(value) });
      }),
      { numRuns: 60 },
    );
  });
});
