/**
 * How `svc start` ends on SIGTERM or SIGINT. The first signal stops the node in order (runNode's stop: the JSON-RPC
 * listeners stop accepting and give requests in flight RPC_SHUTDOWN_GRACE_MS, the machines stop, so the sequencer
 * abandons the slot it is in after the commit in flight, then P2P, the database and the HA signing pool close) and
 * exits 0; if that takes longer than NODE_SHUTDOWN_TIMEOUT_MS, or fails, it exits 1 with one line on stderr. A
 * second signal exits at once, with the shell's code for that signal (130 for SIGINT, 143 for SIGTERM).
 */
import { NODE_SHUTDOWN_TIMEOUT_MS } from '../../spec/constants.js';
import type { LoggerPort } from '../../core/ports.js';

export const EXIT_CODE_STOPPED = 0;
export const EXIT_CODE_STOP_FAILED = 1;
/** 128 + the signal's number, as shells report a process a signal ended. */
export const EXIT_CODE_BY_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

export type StopSignal = keyof typeof EXIT_CODE_BY_SIGNAL;

export interface ShutdownIo {
  readonly logger: LoggerPort;
  readonly stderr: (line: string) => void;
  readonly exit: (code: number) => void;
  readonly setTimeout: (callback: () => void, delayMs: number) => { unref(): void };
}

/** Something `svc start` runs: a node, or a local network. */
export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * What one signal does, for a node that may still be starting (a signal during startup stops it once started);
 * exported for tests, which call it without real signals.
 */
export function createShutdown(running: Promise<Stoppable>, io: ShutdownIo): (signal: StopSignal) => void {
  let stopping = false;
  return (signal) => {
    if (stopping) {
      io.stderr(`svc: ${signal} again: exiting without waiting for the node to stop`);
      io.exit(EXIT_CODE_BY_SIGNAL[signal]);
      return;
    }
    stopping = true;
    io.logger.info('shutting down: a second signal exits at once', {
      signal,
      timeoutMs: NODE_SHUTDOWN_TIMEOUT_MS,
    });
    io.setTimeout(() => {
      io.stderr(`svc: the node did not stop within ${NODE_SHUTDOWN_TIMEOUT_MS} ms; exiting`);
      io.exit(EXIT_CODE_STOP_FAILED);
    }, NODE_SHUTDOWN_TIMEOUT_MS).unref();
    running
      .then((started) => started.stop())
      .then(
        () => {
          io.logger.info('stopped');
          io.exit(EXIT_CODE_STOPPED);
        },
        (error: unknown) => {
          io.stderr(`svc: error while stopping: ${error instanceof Error ? error.message : String(error)}`);
          io.exit(EXIT_CODE_STOP_FAILED);
        },
      );
  };
}

/** Installs the handlers on this process; call it before starting, so that no signal finds the process without them. */
export function stopOnSignals(running: Promise<Stoppable>, logger: LoggerPort): void {
  const shutdown = createShutdown(running, {
    logger,
    stderr: (line) => process.stderr.write(`${line}\n`),
    exit: (code) => process.exit(code),
    setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  });
  for (const signal of Object.keys(EXIT_CODE_BY_SIGNAL) as StopSignal[]) process.on(signal, () => shutdown(signal));
}
