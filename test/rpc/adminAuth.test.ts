/** Admin API key over HTTP (spec: Authentication): both headers, 401 with -32001, /status open, disabled mode. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveAdminApiKey } from '../../adapters/rpc/adminApiKey.js';
import { initialAdminConfig } from './fakeNode.js';
import { postJson, rawRequest, startTestServers, TEST_ADMIN_KEY, type TestServers } from './harness.js';

const probe = { jsonrpc: '2.0', id: 1, method: 'svcAdmin_getConfig', params: [] };

/** With the key accepted, svcAdmin_getConfig answers the node's configuration with HTTP 200. */
const expectAuthorised = (reply: { status: number; json: unknown }) => {
  expect(reply.status).toBe(200);
  expect(reply.json).toEqual({ jsonrpc: '2.0', id: 1, result: initialAdminConfig });
};

const expectUnauthorised = (reply: { status: number; json: unknown; headers: Record<string, unknown> }) => {
  expect(reply.status).toBe(401);
  expect(reply.headers['www-authenticate']).toBe('Bearer');
  expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
};

describe('admin listener with a key', () => {
  let servers: TestServers;
  beforeAll(async () => {
    servers = await startTestServers();
  });
  afterAll(async () => {
    await servers.close();
  });

  test('accepts the key in x-api-key and in Authorization: Bearer', async () => {
    expectAuthorised(await postJson(servers.adminUrl, probe, { 'x-api-key': TEST_ADMIN_KEY }));
    expectAuthorised(await postJson(servers.adminUrl, probe, { authorization: `Bearer ${TEST_ADMIN_KEY}` }));
    expectAuthorised(await postJson(servers.adminUrl, probe, { authorization: `bearer ${TEST_ADMIN_KEY}` }));
  });

  test('a missing or wrong key is HTTP 401 with -32001, whatever the body', async () => {
    expectUnauthorised(await postJson(servers.adminUrl, probe));
    expectUnauthorised(await postJson(servers.adminUrl, probe, { 'x-api-key': `${TEST_ADMIN_KEY}x` }));
    expectUnauthorised(await postJson(servers.adminUrl, probe, { authorization: `Bearer ${TEST_ADMIN_KEY.slice(1)}` }));
    expectUnauthorised(await postJson(servers.adminUrl, probe, { authorization: TEST_ADMIN_KEY }));
    expectUnauthorised(await postJson(servers.adminUrl, probe, { 'x-api-key': '' }));
    expectUnauthorised(await postJson(servers.adminUrl, '{not json'));
    expectUnauthorised(await rawRequest(servers.adminUrl, { headers: { 'content-type': 'text/plain' }, body: 'x' }));
    const missing = await postJson(servers.adminUrl, probe);
    expect(missing.text).not.toContain(TEST_ADMIN_KEY);
  });

  test('GET /status and GET /live need no key', async () => {
    const status = await rawRequest(servers.adminUrl, { method: 'GET', path: '/status' });
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ status: 'ok' });
    const live = await rawRequest(servers.adminUrl, { method: 'GET', path: '/live' });
    expect(live.status).toBe(200);
  });

  test('the public listener never asks for the key', async () => {
    const reply = await postJson(servers.publicUrl, { jsonrpc: '2.0', id: 1, method: 'svc_getChainId' });
    expect(reply.json).toMatchObject({ result: 31337 });
  });
});

describe('admin listener wired from resolveAdminApiKey', () => {
  test('a generated key works, and keeps working after a restart on the same data directory', async () => {
    const dataDirectory = await mkdtemp(join(tmpdir(), 'svc-admin-http-'));
    try {
      const first = await resolveAdminApiKey({ dataDirectory, disabled: false, reset: false });
      const key = first.mode === 'enabled' ? first.newKey : undefined;
      expect(key).toBeDefined();
      const restarted = await resolveAdminApiKey({ dataDirectory, disabled: false, reset: false });
      const servers = await startTestServers({}, { adminAuth: restarted });
      try {
        expectAuthorised(await postJson(servers.adminUrl, probe, { 'x-api-key': key! }));
        expectUnauthorised(await postJson(servers.adminUrl, probe, { 'x-api-key': TEST_ADMIN_KEY }));
      } finally {
        await servers.close();
      }
    } finally {
      await rm(dataDirectory, { recursive: true, force: true });
    }
  });

  test('disabled: no key needed', async () => {
    const servers = await startTestServers(
      {},
      { adminAuth: await resolveAdminApiKey({ disabled: true, reset: false }) },
    );
    try {
      expectAuthorised(await postJson(servers.adminUrl, probe));
    } finally {
      await servers.close();
    }
  });
});
