import os from 'node:os';
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
          name: 'main',
          include: ['{spec,core,adapters,sim,test,contracts}/**/*.test.ts'],
          exclude: CPU_BOUND_FILES,
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
