import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ManualClock, settle } from '../../test/helpers/manualClock.js';
import { createArchiverMachine } from './archiverMachine.js';
import type { SyncStepResult } from './syncStep.js';

const POLL_MS = 1_000;
const caughtUp: SyncStepResult = {
  l1Head: { number: 10n, hash: '0x01', parentHash: '0x00', timestamp: 120n },
  syncedTo: { blockNumber: 10n, blockHash: '0x01', timestamp: 120n },
  checkpointsAdded: 0,
  caughtUp: true,
};

/** An archiver whose steps answer `steps` in turn, then never answer again. */
function startArchiver(steps: readonly SyncStepResult[]) {
  const clock = new ManualClock();
  let calls = 0;
  const machine = createArchiverMachine({
    pollIntervalMs: POLL_MS,
    clock,
    runSyncStep: () => {
      const next = steps[calls++];
      return next === undefined ? new Promise<SyncStepResult>(() => undefined) : Promise.resolve(next);
    },
  });
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, machine };
}

describe('archiver machine: which steps it reports', () => {
  const differing: [string, SyncStepResult, SyncStepResult][] = [
    ['an unwind in the earlier step', { ...caughtUp, reorgUnwoundTo: 5 }, caughtUp],
    ['an unwind in the later step', caughtUp, { ...caughtUp, reorgUnwoundTo: 5 }],
    ['another L1 head', caughtUp, { ...caughtUp, l1Head: { ...caughtUp.l1Head, hash: '0x02' } }],
    ['another synced block number', caughtUp, { ...caughtUp, syncedTo: { ...caughtUp.syncedTo, blockNumber: 11n } }],
    ['another synced block hash', caughtUp, { ...caughtUp, syncedTo: { ...caughtUp.syncedTo, blockHash: '0x03' } }],
  ];
  it.each(differing)('reports a caught-up step that differs from the last by %s', async (_, first, second) => {
    const { actor, clock } = startArchiver([first, second]);
    await settle();
    expect(actor.getSnapshot().context.lastStep).toBe(first);
    await clock.advance(POLL_MS);
    expect(actor.getSnapshot().context.lastStep).toBe(second);
  });

  it('does not count a step that has not reached the L1 head as caught up', async () => {
    const { actor } = startArchiver([{ ...caughtUp, caughtUp: false, checkpointsAdded: 1 }]);
    expect(actor.getSnapshot().context.everCaughtUp).toBe(false);
    await settle();
    expect(actor.getSnapshot().context.lastStep?.checkpointsAdded).toBe(1);
    expect(actor.getSnapshot().context.everCaughtUp).toBe(false);
  });

  it("is known to inspectors as 'archiver'", () => {
    expect(startArchiver([]).machine.id).toBe('archiver');
  });
});
