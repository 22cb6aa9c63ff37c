import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run in as many processes as the machine has cores. Vitest's default is one fewer, which on the 2-core
 * machines here runs every file in turn; most end-to-end files spend their time waiting for L1 slots, so two at once
 * nearly halve the suite's wall time.
 */
const TEST_FILE_PROCESSES = Math.max(2, os.availableParallelism());

export default defineConfig({
  test: {
    include: ['{spec,core,adapters,sim,test,contracts}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: TEST_FILE_PROCESSES,
  },
});
