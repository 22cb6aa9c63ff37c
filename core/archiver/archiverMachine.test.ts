import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ManualClock, settle } from '../../test/helpers/manualClock.js';
import { TransitionCoverage } from '../../test/helpers/transitionCoverage.js';
import { createArchiverMachine, retryDelayMs } from './archiverMachine.js';
import type { SyncStepResult } from './syncStep.js';

const head = { number: 10n, hash: '0x01', parentHash: '0x00', timestamp: 120n } as const;
const step = (caughtUp: boolean): SyncStepResult => ({
  l1Head: head, syncedTo: { blockNumber: 10n, blockHash: '0x01', timestamp: 120n }, checkpointsAdded: 0, caughtUp,
});

const coverage = new TransitionCoverage();
const POLL_MS = 1_000;

/** An archiver whose steps answer from a script: true = caught up, false = more to do, Error = failure. */
function startArchiver(script: (boolean | Error)[]) {
  const clock = new ManualClock();
  let calls = 0;
  const machine = createArchiverMachine({
    pollIntervalMs: POLL_MS,
    runSyncStep: async () => {
      const next = script[Math.min(calls, script.length - 1)]!;
      calls++;
      if (next instanceof Error) throw next;
      return step(next);
    },
  });
  const actor = createActor(machine, { clock, inspect: coverage.inspect }).start();
  return { actor, clock, calls: () => calls };
}

describe('archiver machine', () => {
  it('syncs until caught up, then polls at the interval', async () => {
    const { actor, clock, calls } = startArchiver([false, false, true]);
    await settle();
    expect(actor.getSnapshot().value).toBe('Idle');
    expect(calls()).toBe(3);
    expect(actor.getSnapshot().context.everCaughtUp).toBe(true);
    await clock.advance(POLL_MS - 1);
    expect(calls()).toBe(3);
    await clock.advance(1);
    expect(calls()).toBe(4);
  });

  it('backs off after failures, doubling the delay, and resets after a success', async () => {
    const { actor, clock, calls } = startArchiver([new Error('L1 down'), new Error('L1 down'), true]);
    await settle();
    expect(actor.getSnapshot().value).toBe('Backoff');
    expect(actor.getSnapshot().context.lastError).toBe('L1 down');
    await clock.advance(retryDelayMs(POLL_MS, 1));
    expect(calls()).toBe(2);
    expect(actor.getSnapshot().context.consecutiveFailures).toBe(2);
    await clock.advance(retryDelayMs(POLL_MS, 2) - 1);
    expect(calls()).toBe(2);
    await clock.advance(1);
    expect(actor.getSnapshot().value).toBe('Idle');
    expect(actor.getSnapshot().context.consecutiveFailures).toBe(0);
  });

  it('pauses from any running state and resumes into Syncing; stop is final', async () => {
    const { actor, clock, calls } = startArchiver([true]);
    await settle();
    actor.send({ type: 'admin.pauseSync' });
    expect(actor.getSnapshot().value).toBe('Paused');
    actor.send({ type: 'admin.pauseSync' });
    await clock.advance(10 * POLL_MS);
    expect(calls()).toBe(1);
    actor.send({ type: 'admin.resumeSync' });
    await settle();
    expect(calls()).toBe(2);
    actor.send({ type: 'archiver.stop' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('caps the retry delay', () => {
    expect(retryDelayMs(1_000, 1)).toBe(1_000);
    expect(retryDelayMs(1_000, 3)).toBe(4_000);
    expect(retryDelayMs(1_000, 50)).toBe(30_000);
  });

  afterAll(() => {
    expect(coverage.missing(createArchiverMachine({ pollIntervalMs: 1, runSyncStep: async () => step(true) }))).toEqual([]);
  });
});
