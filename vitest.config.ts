import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files run in as many processes as the machine has cores. Vitest's default is one fewer, which on the 2-core
 * machines here runs every file in turn; most end-to-end files spend their time waiting for L1 slots, so two at once
 * nearly halve the suite's wall time.
 */
const TEST_FILE_PROCESSES = Math.max(2, os.availableParallelism());

/**
 * The campaign-queue tests run simulator campaigns in several processes and keep every core busy for minutes; beside
 * an end-to-end file they starve its local network (anvil, a sequencer publishing on L1 slots) into timeouts. They
 * run as a second group, after every other file has finished.
 */
const CPU_BOUND_FILES = ['test/campaign/**/*.test.ts'];

/**
 * Folders of pure, in-process tests (no servers, child processes or real stores). Their files share a process and
 * its loaded modules (vitest's `isolate: false`): loading the same modules afresh for each of about two hundred files
 * cost more than running their tests.
 */
const SHARED_PROCESS_FOLDERS = [
  'spec',
  'core',
  'sim',
  'test/simulator',
  'test/scenarios',
  'test/worldState',
  'test/txPool',
  'test/validators',
  'test/publicVm',
  'test/l2Contracts',
  'test/logs',
];

/**
 * What a test file does to its module graph or globals that would leak into the files after it in a shared process:
 * such a file keeps a fresh process of its own.
 */
const LEAKS_INTO_NEXT_FILES = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers)\(/;

/** The repository root, where this file sits; test paths are relative to it. */
const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** The test files of the shared-process folders that may share a process, as paths from the repository root. */
function sharedProcessFiles(): string[] {
  return SHARED_PROCESS_FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => path.posix.join(folder, file.split(path.sep).join('/'))),
  ).filter((file) => !LEAKS_INTO_NEXT_FILES.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
}

const SHARED_PROCESS_FILES = sharedProcessFiles();

/**
 * Every JSON-RPC result the suites produce is encoded twice, by its compiled encoder and by zod, and a call whose
 * encodings differ fails (adapters/rpc/dispatcher.ts): the suites hold the compiled encoders to the wire schemas.
 * Child processes the tests start (nodes of the end-to-end suites) inherit it.
 */
const TEST_ENV = { SVC_RPC_CHECK_RESULT_ENCODING: '1' };

export default defineConfig({
  test: {
    env: TEST_ENV,
    globalSetup: ['test/globalSetup/prebuiltCli.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: TEST_FILE_PROCESSES,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: SHARED_PROCESS_FILES,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'main',
          include: ['{spec,core,adapters,sim,test,contracts}/**/*.test.ts'],
          exclude: [...CPU_BOUND_FILES, ...SHARED_PROCESS_FILES],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'campaigns', include: CPU_BOUND_FILES, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
