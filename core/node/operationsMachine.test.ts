import { afterAll, describe, expect, test } from 'vitest';
import { createActor } from 'xstate';
import { TransitionCoverage } from '../../test/helpers/transitionCoverage.js';
import {
  BUSY_REASON,
  createOperationsMachine,
  OPERATION_IN_PROGRESS_STATES,
  type OperationsDeps,
  type RollbackRequest,
} from './operationsMachine.js';

const coverage = new TransitionCoverage();

/** Deps whose work waits until the test releases it, recording what ran. */
function controlledDeps() {
  const log: string[] = [];
  const gates: { name: string; release: (error?: unknown) => void }[] = [];
  const gated = (name: string) => () =>
    new Promise<void>((resolve, reject) => {
      log.push(name);
      gates.push({ name, release: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  const uploads: { location: string; error: unknown }[] = [];
  const deps: OperationsDeps = {
    pauseSync: gated('pause'),
    resumeSync: gated('resume'),
    rollback: (request: RollbackRequest) => gated(`rollback ${request.targetBlockNumber}`)(),
    uploadSnapshot: (location) => gated(`upload ${location}`)(),
    onUploadFinished: (location, error) => uploads.push({ location, error }),
  };
  const release = async (name: string, error?: unknown) => {
    const gate = gates.find((g) => g.name === name);
    if (gate === undefined)
      throw new Error(`nothing waits on ${name}; waiting: ${gates.map((g) => g.name).join(', ')}`);
    gates.splice(gates.indexOf(gate), 1);
    gate.release(error);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { deps, log, release, uploads };
}

function start(deps: OperationsDeps) {
  const actor = createActor(createOperationsMachine(deps), { inspect: coverage.inspect }).start();
  const send = (make: (settle: (error?: unknown) => void) => Parameters<typeof actor.send>[0]) =>
    new Promise<string>((resolve) =>
      actor.send(make((error) => resolve(error === undefined ? 'ok' : (error as Error).message))),
    );
  return { actor, send, state: () => String(actor.getSnapshot().value) };
}

const rollbackTo = (targetBlockNumber: number, resumeSync: boolean) => ({
  targetBlockNumber,
  force: false,
  resumeSync,
});

describe('operations machine', () => {
  afterAll(() => {
    expect(coverage.missing(createOperationsMachine(controlledDeps().deps))).toEqual([]);
  });

  test('pause and resume; repeated ones are harmless; other operations are refused while one runs', async () => {
    const { deps, release } = controlledDeps();
    const { send, state } = start(deps);
    expect(await send((settle) => ({ type: 'admin.resumeSync', settle }))).toBe('ok');
    expect(await send((settle) => ({ type: 'admin.pauseSync', settle }))).toBe('ok');
    expect(state()).toBe('Pausing');
    expect(await send((settle) => ({ type: 'admin.resumeSync', settle }))).toBe(BUSY_REASON);
    await release('pause');
    expect(state()).toBe('SyncPaused');
    expect(await send((settle) => ({ type: 'admin.pauseSync', settle }))).toBe('ok');
    expect(await send((settle) => ({ type: 'admin.resumeSync', settle }))).toBe('ok');
    expect(await send((settle) => ({ type: 'admin.pauseSync', settle }))).toBe(BUSY_REASON);
    await release('resume');
    expect(state()).toBe('Syncing');
  });

  test('a rollback answers when done and resumes sync, or leaves it paused when asked', async () => {
    const { deps, release } = controlledDeps();
    const { send, state } = start(deps);
    const first = send((settle) => ({ type: 'admin.rollbackTo', request: rollbackTo(5, true), settle }));
    expect(state()).toBe('RollingBack');
    for (const type of ['admin.pauseSync', 'admin.resumeSync'] as const)
      expect(await send((settle) => ({ type, settle }))).toBe(BUSY_REASON);
    expect(await send((settle) => ({ type: 'admin.rollbackTo', request: rollbackTo(4, true), settle }))).toBe(
      BUSY_REASON,
    );
    expect(await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/x', settle }))).toBe(BUSY_REASON);
    await release('rollback 5');
    expect(await first).toBe('ok');
    expect(state()).toBe('Resuming');
    await release('resume');
    const second = send((settle) => ({ type: 'admin.rollbackTo', request: rollbackTo(3, false), settle }));
    await release('rollback 3');
    expect(await second).toBe('ok');
    expect(state()).toBe('SyncPaused');
    const third = send((settle) => ({ type: 'admin.rollbackTo', request: rollbackTo(2, true), settle }));
    await release('rollback 2', new Error('disk full'));
    expect(await third).toBe('disk full');
    expect(state()).toBe('SyncPaused');
  });

  test('a snapshot upload answers at once, pauses sync while it runs, and returns to where it left', async () => {
    const { deps, release, uploads } = controlledDeps();
    const { send, state } = start(deps);
    expect(await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/a', settle }))).toBe('ok');
    expect(state()).toBe('UploadingSnapshot');
    await release('upload /a');
    expect(state()).toBe('Resuming');
    await release('resume');
    expect(await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/b', settle }))).toBe('ok');
    await release('upload /b', new Error('no space'));
    await release('resume');
    expect(uploads).toEqual([
      { location: '/a', error: undefined },
      { location: '/b', error: expect.objectContaining({ message: 'no space' }) },
    ]);
    expect(await send((settle) => ({ type: 'admin.pauseSync', settle }))).toBe('ok');
    await release('pause');
    expect(await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/c', settle }))).toBe('ok');
    await release('upload /c');
    expect(state()).toBe('SyncPaused');
    expect(await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/d', settle }))).toBe('ok');
    await release('upload /d', new Error('gone'));
    expect(state()).toBe('SyncPaused');
  });

  test('every operation is refused in every busy state; a failed pause or resume still settles the state', async () => {
    const { deps, release } = controlledDeps();
    const { send, state } = start(deps);
    const everyOperation = async () => {
      for (const type of ['admin.pauseSync', 'admin.resumeSync'] as const)
        expect(await send((settle) => ({ type, settle }))).toBe(BUSY_REASON);
      expect(await send((settle) => ({ type: 'admin.rollbackTo', request: rollbackTo(1, true), settle }))).toBe(
        BUSY_REASON,
      );
      expect(await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/z', settle }))).toBe(BUSY_REASON);
    };
    await send((settle) => ({ type: 'admin.pauseSync', settle }));
    await everyOperation();
    await release('pause', new Error('archiver gone'));
    expect(state()).toBe('SyncPaused');
    await send((settle) => ({ type: 'admin.resumeSync', settle }));
    await everyOperation();
    await release('resume', new Error('archiver gone'));
    expect(state()).toBe('Syncing');
    await send((settle) => ({ type: 'admin.startSnapshotUpload', location: '/y', settle }));
    await everyOperation();
    await release('upload /y');
    await release('resume');
    expect(state()).toBe('Syncing');
  });
});

describe('operations in progress', () => {
  test('OPERATION_IN_PROGRESS_STATES names exactly the states that refuse every admin operation', () => {
    const machine = createOperationsMachine(controlledDeps().deps);
    const refusing = Object.entries(machine.root.states)
      .filter(([, state]) =>
        ['admin.pauseSync', 'admin.resumeSync', 'admin.rollbackTo', 'admin.startSnapshotUpload'].every((type) => {
          const transitions = state.transitions.get(type) ?? [];
          return (
            transitions.length === 1 &&
            transitions[0]!.target === undefined &&
            transitions[0]!.actions.some(
              (action) =>
                typeof action === 'object' && action !== null && 'type' in action && action.type === 'refuseBusy',
            )
          );
        }),
      )
      .map(([name]) => name);
    expect(refusing.sort()).toEqual([...OPERATION_IN_PROGRESS_STATES].sort());
  });
});
