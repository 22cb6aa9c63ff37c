import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ManualClock, settle } from '../../test/helpers/manualClock.js';
import { TransitionCoverage } from '../../test/helpers/transitionCoverage.js';
import { createArchiverMachine, retryDelayMs } from './archiverMachine.js';
import type { SyncStepResult } from './syncStep.js';

const head = { number: 10n, hash: '0x01', parentHash: '0x00', timestamp: 120n } as const;
const step = (caughtUp: boolean, checkpointsAdded = 0): SyncStepResult => ({
  l1Head: head,
  syncedTo: { blockNumber: 10n, blockHash: '0x01', timestamp: 120n },
  checkpointsAdded,
  caughtUp,
});

const coverage = new TransitionCoverage();
const POLL_MS = 1_000;

/**
 * An archiver whose steps answer from a script: true = caught up, false = more to do, a SyncStepResult as it is,
 * Error = failure.
 */
function startArchiver(script: (boolean | SyncStepResult | Error)[]) {
  const clock = new ManualClock();
  let calls = 0;
  const machine = createArchiverMachine({
    pollIntervalMs: POLL_MS,
    clock,
    runSyncStep: async () => {
      const next = script[Math.min(calls, script.length - 1)]!;
      calls++;
      if (next instanceof Error) throw next;
      return typeof next === 'boolean' ? step(next) : next;
    },
  });
  const actor = createActor(machine, { clock, inspect: coverage.inspect }).start();
  return { actor, clock, calls: () => calls };
}

describe('archiver machine', () => {
  it('syncs until caught up, then polls at the interval', async () => {
    const { actor, clock, calls } = startArchiver([false, false, true]);
    await settle();
    expect(actor.getSnapshot().value).toBe('Following');
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
    expect(actor.getSnapshot().value).toBe('Following');
    expect(actor.getSnapshot().context.consecutiveFailures).toBe(0);
    expect(actor.getSnapshot().context.lastError).toBeUndefined();
  });

  it('reports a step to the machine only when its outcome differs from the last one reported', async () => {
    const added = step(true, 1);
    const { actor, clock, calls } = startArchiver([true, true, added, true, true]);
    await settle();
    const first = actor.getSnapshot().context.lastStep;
    expect(first?.caughtUp).toBe(true);
    await clock.advance(POLL_MS);
    expect(calls()).toBe(2);
    // The same head and position again: nothing to tell.
    expect(actor.getSnapshot().context.lastStep).toBe(first);
    await clock.advance(POLL_MS);
    expect(actor.getSnapshot().context.lastStep).toBe(added);
    await clock.advance(POLL_MS);
    expect(calls()).toBe(4);
    expect(actor.getSnapshot().context.lastStep).not.toBe(added);
    expect(actor.getSnapshot().context.lastStep?.checkpointsAdded).toBe(0);
  });

  it('a step still running when sync pauses finishes unreported, and no poll follows it', async () => {
    const clock = new ManualClock();
    let calls = 0;
    let release: (() => void) | undefined;
    const actor = createActor(
      createArchiverMachine({
        pollIntervalMs: POLL_MS,
        clock,
        runSyncStep: () => {
          calls++;
          return new Promise<SyncStepResult>((resolve) => (release = () => resolve(step(true))));
        },
      }),
      { clock, inspect: coverage.inspect },
    ).start();
    await settle();
    expect(calls).toBe(1);
    actor.send({ type: 'admin.pauseSync' });
    release!();
    await settle();
    await clock.advance(10 * POLL_MS);
    expect(calls).toBe(1);
    expect(actor.getSnapshot().context.lastStep).toBeUndefined();
    actor.send({ type: 'admin.resumeSync' });
    await settle();
    expect(calls).toBe(2);
  });

  it('pauses from any running state and resumes into Following; stop is final', async () => {
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
    expect(
      coverage.missing(
        createArchiverMachine({ pollIntervalMs: 1, clock: new ManualClock(), runSyncStep: async () => step(true) }),
      ),
    ).toEqual([]);
  });
});
