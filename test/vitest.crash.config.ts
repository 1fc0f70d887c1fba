import { defineConfig } from 'vitest/config';

// Crash tests: each file starts its own local platform (wrangler dev on a throwaway state dir) and kills it with
// SIGKILL mid-work, then starts it again on the same state. Kept apart from the e2e files, which share one platform.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/crash/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 30 * 60_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
  },
});
