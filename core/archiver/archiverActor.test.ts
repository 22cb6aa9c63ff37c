import { describe, expect, it } from 'vitest';
import { createBlobSourceChain } from '../blobs/blobSourceChain.js';
import { L1Error } from '../l1/l1Error.js';
import type { L1ReaderPort } from '../ports.js';
import { settle } from '../../test/helpers/manualClock.js';
import { MEMORY_CHAIN_CONSTANTS, openMemoryChain } from '../../test/helpers/memoryChain.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { retryDelayMs } from './archiverMachine.js';
import { createArchiver } from './archiverActor.js';

const POLL_MS = 1_000;

/** An L1 whose every read fails with `error`, for an archiver on a memory chain; its log lines are kept. */
async function archiverOnFailingL1(error: Error) {
  const node = await openMemoryChain();
  const lines: LogLine[] = [];
  const logger = capturingLogger((line) => lines.push(line));
  const l1 = new Proxy({} as L1ReaderPort, {
    get: () => () => Promise.reject(error),
  });
  const archiver = createArchiver({
    ports: { l1, clock: node.clock },
    blobs: createBlobSourceChain({
      blobs: { sources: [], checker: { versionedHashOf: () => Promise.resolve(undefined) } },
      clock: node.clock,
      logger,
    }),
    chain: node.chain,
    inbox: node.inbox,
    constants: MEMORY_CHAIN_CONSTANTS,
    logger,
    quorum: undefined,
    pollIntervalMs: () => POLL_MS,
  });
  const failures = () => lines.filter((l) => l.message === 'sync step failed; retrying after a backoff');
  return { archiver, clock: node.clock, failures };
}

describe('archiver', () => {
  it('logs why each sync step failed, with the code and the count of failures in a row', async () => {
    const { archiver, clock, failures } = await archiverOnFailingL1(
      new L1Error('L1_BLOBS_UNAVAILABLE', 'no blob source has blob(s) 0x01'),
    );
    archiver.actor.start();
    await settle();
    expect(failures()).toEqual([
      expect.objectContaining({
        level: 'warn',
        fields: { code: 'L1_BLOBS_UNAVAILABLE', error: 'no blob source has blob(s) 0x01', consecutiveFailures: 1 },
      }),
    ]);
    await clock.advance(retryDelayMs(POLL_MS, 1));
    expect(failures().map((l) => l.fields?.consecutiveFailures)).toEqual([1, 2]);
    archiver.actor.stop();
  });

  it('says nothing of a step that fails after sync was paused', async () => {
    const { archiver, failures } = await archiverOnFailingL1(new Error('storage closed'));
    archiver.actor.start();
    const pausing = archiver.pause();
    await pausing;
    await settle();
    expect(failures()).toEqual([]);
    archiver.actor.stop();
  });
});
