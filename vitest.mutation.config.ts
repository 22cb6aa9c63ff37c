import { defineConfig } from 'vitest/config';

/**
 * The tests a mutation run reruns for every mutant (`npm run mutate`, bench/mutation/mutate.ts). The script puts the
 * scope's test files, comma-separated, in MUTATION_TEST_FILES; Stryker's vitest runner runs them in one worker
 * thread. End-to-end files (anvil, child processes, real servers) and the simulator suites are left out whatever the
 * list says: each takes seconds to minutes, and a run repeats them once per mutant.
 */
const MUTATION_TEST_FILES = (process.env['MUTATION_TEST_FILES'] ?? '').split(',').filter((file) => file !== '');

/** Per test: a property suite on a slow mutant (a loop made endless) is cut off by Stryker's own timeout first. */
const MUTATION_TEST_TIMEOUT_MS = 30_000;

export default defineConfig({
  test: {
    include: MUTATION_TEST_FILES.length > 0 ? MUTATION_TEST_FILES : ['{spec,core}/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/simulator/**', 'test/packaging/**', 'test/bench/**', 'node_modules/**'],
    testTimeout: MUTATION_TEST_TIMEOUT_MS,
    hookTimeout: MUTATION_TEST_TIMEOUT_MS,
  },
});
