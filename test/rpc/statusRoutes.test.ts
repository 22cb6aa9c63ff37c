/** `GET /status` and `GET /live` (adapters/rpc/statusRoutes.ts) over a fake node whose health the test sets. */
import { afterEach, describe, expect, test } from 'vitest';
import type { NodeHealthReport } from '../../core/node/nodeHealthService.js';
import { rawRequest, startTestServers, type TestServers } from './harness.js';

const unhealthy: NodeHealthReport = {
  healthy: false,
  reasons: [
    { kind: 'l1Unreachable', consecutiveFailures: 3, error: 'no L1 endpoint answered' },
    { kind: 'syncBehind', lagSlots: 9, lagSlotsMax: 4 },
  ],
  tips: { proposed: 12, checkpointed: 10, proven: 8, finalized: 4 },
  l1: { syncedBlock: 100n, syncedBlockHash: '0x01', syncedSlot: 20, headBlock: 140n, headSlot: 29, lagSlots: 9 },
  peers: 0,
  subsystems: { archiver: 'Backoff', sequencer: 'Idle', chainTips: 'Settled' },
};

let servers: TestServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

describe('the probe routes', () => {
  test('an unhealthy node answers 503 with every reason on both ports, and stays live', async () => {
    servers = await startTestServers({ health: { check: () => unhealthy } });
    for (const url of [servers.publicUrl, servers.adminUrl]) {
      const status = await rawRequest(url, { method: 'GET', path: '/status' });
      expect(status.status).toBe(503);
      expect(status.json).toEqual({
        status: 'unhealthy',
        reasons: [
          { kind: 'l1Unreachable', message: expect.stringContaining('no L1 endpoint answered') },
          { kind: 'syncBehind', message: 'sync is 9 slots behind the L1 head (at most 4 allowed)' },
        ],
        tips: unhealthy.tips,
        l1: { headBlock: 140, headSlot: 29, syncedBlock: 100, syncedSlot: 20, lagSlots: 9 },
        peers: 0,
        subsystems: { archiver: 'Backoff', sequencer: 'Idle', chainTips: 'Settled' },
      });
      const live = await rawRequest(url, { method: 'GET', path: '/live' });
      expect(live.status).toBe(200);
    }
  });

  test('a healthy node answers 200 with its figures', async () => {
    servers = await startTestServers();
    const status = await rawRequest(servers.publicUrl, { method: 'GET', path: '/status' });
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ status: 'ok', reasons: [], tips: { proposed: 0 }, l1: { lagSlots: 0 } });
  });
});
