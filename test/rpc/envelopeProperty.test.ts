/**
 * Property: whatever JSON a client sends, the server answers with a well-formed JSON-RPC reply (HTTP 200 with a
 * response or a non-empty array of them; 204 only when every call was a notification), never faults (no -32603,
 * nothing logged as an error) and stays up.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rpcMethodList } from '../../spec/rpc/methods.js';
import { capturingLogger } from '../helpers/testLogger.js';
import { postJson, rawRequest, startTestServers, type RawReply, type TestServers } from './harness.js';

const loggedErrors: string[] = [];
const logger = capturingLogger(({ level, message, fields }) => {
  if (level === 'error') loggedErrors.push(`${message} ${JSON.stringify(fields)}`);
});

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers({}, { publicLimits: { requestTimeoutMs: 2_000 }, logger });
});
afterAll(async () => {
  await servers.close();
});

const isId = (id: unknown): boolean => id === null || typeof id === 'string' || typeof id === 'number';

function checkResponse(response: unknown): void {
  expect(typeof response === 'object' && response !== null && !Array.isArray(response)).toBe(true);
  const record = response as Record<string, unknown>;
  expect(record['jsonrpc']).toBe('2.0');
  expect(Object.hasOwn(record, 'id') && isId(record['id'])).toBe(true);
  expect(Object.hasOwn(record, 'result') !== Object.hasOwn(record, 'error')).toBe(true);
  if (Object.hasOwn(record, 'error')) {
    const error = record['error'] as Record<string, unknown>;
    expect(Number.isInteger(error['code'])).toBe(true);
    expect(typeof error['message']).toBe('string');
    expect(String(error['message'])).not.toMatch(/\n\s+at /);
    // The fake node never fails, so an internal error could only be a fault of the RPC layer itself.
    expect(error['code']).not.toBe(-32603);
  }
}

function checkReply(reply: RawReply): void {
  if (reply.status === 204) {
    expect(reply.text).toBe('');
    return;
  }
  expect(reply.status).toBe(200);
  expect(reply.json).toBeDefined();
  if (Array.isArray(reply.json)) {
    expect(reply.json.length).toBeGreaterThan(0);
    reply.json.forEach(checkResponse);
  } else {
    checkResponse(reply.json);
  }
}

const methodNames = [...rpcMethodList.map((method) => method.name), 'svc_nope', 'constructor', '__proto__', 'toString'];

/** Values shaped like requests, so the fuzzing reaches param decoding and the handlers. */
const requestLike = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue()),
    method: fc.oneof(fc.constantFrom(...methodNames), fc.jsonValue()),
    params: fc.oneof(
      fc.array(
        fc.oneof(fc.jsonValue(), fc.constantFrom('latest', 'proposed', 'proven', `0x${'ab'.repeat(32)}`), fc.nat()),
      ),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);

const body = fc.oneof(fc.jsonValue(), requestLike, fc.array(fc.oneof(requestLike, fc.jsonValue()), { maxLength: 8 }));

test('any JSON body yields a well-formed JSON-RPC reply and never brings the server down', async () => {
  await fc.assert(
    fc.asyncProperty(body, async (value) => {
      checkReply(await postJson(servers.publicUrl, JSON.stringify(value)));
    }),
    { numRuns: 300 },
  );
  const status = await rawRequest(servers.publicUrl, { method: 'GET', path: '/status' });
  expect(status.status).toBe(200);
  expect(loggedErrors).toEqual([]);
});

test('any text body yields a well-formed reply (mostly -32700)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
      checkReply(await postJson(servers.publicUrl, text));
    }),
    { numRuns: 200 },
  );
});
