import { describe, expect, it } from 'vitest';
import { silentLogger } from '../rpc/jsonRpcServer.js';
import { createShutdown, EXIT_CODE_BY_SIGNAL, type ShutdownIo, type Stoppable } from './shutdown.js';

/** A shutdown whose exits, stderr lines and timer the test sees; the timer fires only when the test says. */
function harness(running: Promise<Stoppable>) {
  const exits: number[] = [];
  const lines: string[] = [];
  let fireTimeout: (() => void) | undefined;
  const io: ShutdownIo = {
    logger: silentLogger,
    stderr: (line) => lines.push(line),
    exit: (code) => exits.push(code),
    setTimeout: (callback) => {
      fireTimeout = callback;
      return { unref: () => undefined };
    },
  };
  return { shutdown: createShutdown(running, io), exits, lines, fireTimeout: () => fireTimeout?.() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('stopping svc start on a signal', () => {
  it('stops the node once and exits 0', async () => {
    let stops = 0;
    const { shutdown, exits } = harness(Promise.resolve({ stop: async () => void stops++ }));
    shutdown('SIGTERM');
    await flush();
    expect(stops).toBe(1);
    expect(exits).toEqual([0]);
  });

  it('a node still starting is stopped once it has started', async () => {
    let started!: (running: Stoppable) => void;
    let stopped = false;
    const { shutdown, exits } = harness(new Promise((resolve) => (started = resolve)));
    shutdown('SIGINT');
    await flush();
    expect(exits).toEqual([]);
    started({ stop: async () => void (stopped = true) });
    await flush();
    expect(stopped).toBe(true);
    expect(exits).toEqual([0]);
  });

  it('a second signal exits at once with its code; a stop past the timeout exits 1; a failed one exits 1', async () => {
    const hanging = harness(Promise.resolve({ stop: () => new Promise<void>(() => undefined) }));
    hanging.shutdown('SIGTERM');
    hanging.shutdown('SIGINT');
    expect(hanging.exits).toEqual([EXIT_CODE_BY_SIGNAL.SIGINT]);
    hanging.fireTimeout();
    expect(hanging.exits).toEqual([EXIT_CODE_BY_SIGNAL.SIGINT, 1]);
    expect(hanging.lines.at(-1)).toMatch(/did not stop within \d+ ms/);

    const failing = harness(Promise.resolve({ stop: () => Promise.reject(new Error('disk gone')) }));
    failing.shutdown('SIGTERM');
    await flush();
    expect(failing.exits).toEqual([1]);
    expect(failing.lines).toEqual(['svc: error while stopping: disk gone']);
  });
});
