import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,core,adapters,sim,test,contracts}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
