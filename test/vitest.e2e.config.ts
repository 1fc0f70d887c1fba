import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: the whole platform (wrangler dev on a throwaway state dir, plus the mail
// catcher) is started once by the global setup; each file drives Debian's headless Chromium against it.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    setupFiles: ['test/e2e/csp-guard.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    // A poll waits on the browser and the platform, which share a busy machine with the test: vitest's one
    // second default fails on a slow round trip (CI), not on a wrong value.
    expect: { poll: { timeout: 10_000 } },
  },
});
