import { describe, expect, it } from 'vitest';
import type { Archiver } from '../archiver/archiverActor.js';
import type { Chain } from '../chain/chain.js';
import { createTimetable } from '../chain/timetable.js';
import type { ClockPort, NetworkPeer, NetworkPort, StoragePort } from '../ports.js';
import { createNodeHealthService } from './nodeHealthService.js';

const SLOT_SECONDS = 36;
const timetable = createTimetable({ l1GenesisTime: 1_000n, slotDuration: SLOT_SECONDS, epochDuration: 32 });
const at = (slot: number) => 1_000n + BigInt(slot * SLOT_SECONDS);
const blockRef = (number: number) => ({ number, hash: '0x00' as const });
const tip = (number: number) => ({ block: blockRef(number), checkpoint: { number, hash: '0x00' as const } });

/** A node's parts as the health service reads them, each settable by the test. */
function world() {
  const state = {
    nowMs: 0,
    archiverState: 'Following',
    consecutiveFailures: 0,
    lastErrorCode: undefined as string | undefined,
    headSlot: 10,
    syncedSlot: 10,
    commitFailure: undefined as string | undefined,
    storageStatus: 'open',
    connected: 1,
  };
  const chain = {
    get l1Sync() {
      return { blockNumber: 50n, blockHash: '0x01', timestamp: at(state.syncedSlot) };
    },
    get tips() {
      return { proposed: blockRef(7), checkpointed: tip(6), proven: tip(4), finalized: tip(2) };
    },
    get commitFailure() {
      return state.commitFailure;
    },
  } as unknown as Chain;
  const archiver = {
    actor: {
      getSnapshot: () => ({
        value: state.archiverState,
        context: {
          consecutiveFailures: state.consecutiveFailures,
          lastErrorCode: state.lastErrorCode,
          lastError: state.lastErrorCode === undefined ? undefined : 'it failed',
          everCaughtUp: true,
          lastStep: { l1Head: { number: 60n, timestamp: at(state.headSlot) } },
        },
      }),
    },
  } as unknown as Archiver;
  const clock = { now: () => state.nowMs } as ClockPort;
  const storage = {
    get status() {
      return state.storageStatus;
    },
  } as unknown as StoragePort;
  const network = {
    peers: () =>
      Array.from({ length: state.connected }, (_, i) => ({ id: `p${i}`, status: 'connected' }) as NetworkPeer),
  } as unknown as NetworkPort;
  const lifecycle = {
    started: true,
    machineStates: () => ({ archiver: state.archiverState, sequencer: undefined, chainTips: 'Settled' }),
  };
  const health = createNodeHealthService(
    { clock, storage, network },
    { chain, timetable, archiver, lifecycle },
    () => ({
      syncLagSlotsMax: 4,
      peerlessMsMax: 60_000,
    }),
  );
  return { state, health };
}

const kinds = (health: ReturnType<typeof world>['health']) => health.check().reasons.map((reason) => reason.kind);

describe('the health service', () => {
  it('reports a synced node with peers healthy, with its tips, L1 position and machine states', () => {
    const { health } = world();
    expect(health.check()).toMatchObject({
      healthy: true,
      reasons: [],
      tips: { proposed: 7, checkpointed: 6, proven: 4, finalized: 2 },
      l1: { syncedBlock: 50n, syncedSlot: 10, headBlock: 60n, headSlot: 10, lagSlots: 0 },
      peers: 1,
      subsystems: { archiver: 'Following' },
    });
    expect(health.ready()).toBe(true);
  });

  it('finds each fact the node knows: L1 failures, lag, a failed commit, a closed database, a long peerless spell', () => {
    const { state, health } = world();
    state.consecutiveFailures = 2;
    state.lastErrorCode = 'L1_UNREACHABLE';
    state.syncedSlot = 5;
    expect(kinds(health)).toEqual(['l1Unreachable', 'syncBehind']);
    Object.assign(state, { consecutiveFailures: 0, syncedSlot: 10, commitFailure: 'disk full' });
    expect(kinds(health)).toEqual(['databaseFailed']);
    Object.assign(state, { commitFailure: undefined, storageStatus: 'closed' });
    expect(health.check().reasons).toEqual([{ kind: 'databaseFailed', error: 'the database is closed' }]);
    state.storageStatus = 'open';
    state.nowMs = 10_000;
    expect(kinds(health)).toEqual([]); // sees the peer at 10 s
    state.connected = 0;
    state.nowMs = 70_000;
    expect(kinds(health)).toEqual([]);
    state.nowMs = 70_001;
    expect(kinds(health)).toEqual(['noPeers']);
    state.connected = 2;
    expect(health.check()).toMatchObject({ healthy: true, peers: 2 });
  });
});
