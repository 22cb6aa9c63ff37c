/** The admin namespace over HTTP: configuration, sync and sequencer controls, and what is refused or missing. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NodeError } from '../../core/errors.js';
import { initialAdminConfig } from './fakeNode.js';
import { rpc, startTestServers, TEST_ADMIN_KEY, type TestServers } from './harness.js';

const headers = { 'x-api-key': TEST_ADMIN_KEY };

let servers: TestServers;
beforeAll(async () => {
  servers = await startTestServers();
});
afterAll(async () => {
  await servers.close();
});

const admin = (method: string, params?: unknown) => rpc(servers.adminUrl, method, params, headers);
const voidReply = { jsonrpc: '2.0', id: 1, result: null };

describe('configuration', () => {
  test('svcAdmin_getConfig answers the JSON object the node reports', async () => {
    expect(await admin('svcAdmin_getConfig')).toEqual({ jsonrpc: '2.0', id: 1, result: initialAdminConfig });
  });

  test('svcAdmin_setConfig merges a patch and answers null; the next getConfig shows it', async () => {
    expect(await admin('svcAdmin_setConfig', [{ archiverPollIntervalMs: 250 }])).toEqual(voidReply);
    expect(servers.node.calls.at(-1)).toEqual({ method: 'admin.setConfig', args: [{ archiverPollIntervalMs: 250 }] });
    expect((await admin('svcAdmin_getConfig')).result).toEqual({ ...initialAdminConfig, archiverPollIntervalMs: 250 });
  });

  test("a patch the node refuses is -32602 naming params[0] (config), with the node's details", async () => {
    const reply = await admin('svcAdmin_setConfig', [{ noSuchKey: 1 }]);
    expect(reply.error).toEqual({
      code: -32602,
      message: 'Invalid params: params[0] (config): unknown configuration keys: noSuchKey',
      data: { code: 'INVALID_PARAMS', keys: ['noSuchKey'], position: 0, name: 'config' },
    });
  });

  test('a patch that is not a JSON object is -32602 before the node sees it', async () => {
    const before = servers.node.calls.length;
    for (const bad of [[1, 2], 'x', null, 5]) {
      const reply = await admin('svcAdmin_setConfig', [bad]);
      expect(reply.error?.code).toBe(-32602);
      expect(reply.error?.message).toMatch(/params\[0\] \(config\)/);
    }
    expect(servers.node.calls.length).toBe(before);
  });

  test('a node configuration that is not plain JSON is a fault of the node: -32603, nothing leaked', async () => {
    const broken = await startTestServers({ admin: { getConfig: () => ({ fee: 1n }) } });
    try {
      const reply = await rpc(broken.adminUrl, 'svcAdmin_getConfig', [], headers);
      expect(reply.error).toEqual({ code: -32603, message: 'Internal error' });
    } finally {
      await broken.close();
    }
  });
});

describe('sync and sequencer controls', () => {
  test('pauseSync and resumeSync answer null and reach the node', async () => {
    expect(await admin('svcAdmin_pauseSync')).toEqual(voidReply);
    expect(servers.node.adminState.syncPaused).toBe(true);
    expect(await admin('svcAdmin_resumeSync', [])).toEqual(voidReply);
    expect(servers.node.adminState.syncPaused).toBe(false);
  });

  test('pauseSequencer and resumeSequencer answer null and reach the node', async () => {
    expect(await admin('svcAdmin_pauseSequencer')).toEqual(voidReply);
    expect(servers.node.adminState.sequencerPaused).toBe(true);
    expect(await admin('svcAdmin_resumeSequencer')).toEqual(voidReply);
    expect(servers.node.adminState.sequencerPaused).toBe(false);
  });

  test('on a node without a sequencer, pauseSequencer and resumeSequencer are -32007', async () => {
    const refuse = async () => {
      throw new NodeError('OPERATION_REFUSED', 'this node runs no sequencer', { subsystem: 'sequencer' });
    };
    const follower = await startTestServers({ admin: { pauseSequencer: refuse, resumeSequencer: refuse } });
    try {
      for (const method of ['svcAdmin_pauseSequencer', 'svcAdmin_resumeSequencer']) {
        const reply = await rpc(follower.adminUrl, method, [], headers);
        expect(reply.error).toEqual({
          code: -32007,
          message: 'this node runs no sequencer',
          data: { code: 'OPERATION_REFUSED', subsystem: 'sequencer' },
        });
      }
    } finally {
      await follower.close();
    }
  });

  test('controls take no params', async () => {
    for (const method of [
      'svcAdmin_pauseSync',
      'svcAdmin_resumeSync',
      'svcAdmin_pauseSequencer',
      'svcAdmin_resumeSequencer',
      'svcAdmin_getConfig',
      'svcAdmin_reloadKeystore',
    ]) {
      expect((await admin(method, [true])).error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/at most 0 params/),
      });
    }
  });
});

describe('rollback and snapshots', () => {
  test('rollbackTo validates its params; a refused rollback is -32007; one within the chain answers null', async () => {
    expect(await admin('svcAdmin_rollbackTo', [1])).toMatchObject({ result: null });
    expect((await admin('svcAdmin_rollbackTo', [99])).error).toMatchObject({
      code: -32007,
      message: expect.stringMatching(/above the proposed tip/),
    });
    const bad = await admin('svcAdmin_rollbackTo', [5, 'yes']);
    expect(bad.error).toMatchObject({ code: -32602, data: { position: 1, name: 'force' } });
    expect((await admin('svcAdmin_rollbackTo', [5, null, 1])).error).toMatchObject({
      code: -32602,
      data: { position: 2, name: 'resumeSync' },
    });
  });

  test('startSnapshotUpload refuses a location it cannot write, naming it', async () => {
    expect((await admin('svcAdmin_startSnapshotUpload', ['https://example.com/snapshots'])).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/location: https:\/\/ stores are read-only/),
    });
    const withSecret = await admin('svcAdmin_startSnapshotUpload', ['s3://AKIA:hunter2@bucket/path']);
    expect(withSecret.error).toMatchObject({ code: -32602, message: expect.stringMatching(/credentials do not go/) });
    expect(JSON.stringify(withSecret)).not.toContain('hunter2');
    expect(await admin('svcAdmin_startSnapshotUpload', ['/tmp/snapshot'])).toMatchObject({ result: null });
    expect(await admin('svcAdmin_startSnapshotUpload', ['s3://bucket/path'])).toMatchObject({ result: null });
  });
});

describe('validator operations on a node that runs no validators', () => {
  test('getSlashOffenses and reloadKeystore name their subsystems', async () => {
    expect((await admin('svcAdmin_getSlashOffenses', ['all'])).error?.message).toMatch(/slashing detector/);
    expect((await admin('svcAdmin_getSlashOffenses', ['12'])).error?.code).toBe(-32004);
    expect((await admin('svcAdmin_reloadKeystore')).error?.message).toMatch(/keystore/);
  });
});

describe('namespaces', () => {
  test('admin methods are not found on the public listener, public ones not on the admin listener', async () => {
    for (const method of ['svcAdmin_getConfig', 'svcAdmin_pauseSequencer', 'svcAdmin_rollbackTo']) {
      expect((await rpc(servers.publicUrl, method, [])).error?.code).toBe(-32601);
    }
    for (const method of ['svc_getChainId', 'svc_getBlocks', 'svc_sendTx']) {
      expect((await admin(method, [])).error?.code).toBe(-32601);
    }
    expect(servers.node.adminState.sequencerPaused).toBe(false);
  });

  test('admin methods still need the key', async () => {
    const reply = await rpc(servers.adminUrl, 'svcAdmin_pauseSync', []);
    expect(reply.error?.code).toBe(-32001);
    expect(servers.node.adminState.syncPaused).toBe(false);
  });
});
