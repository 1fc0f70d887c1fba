import { defineConfig } from 'vitest/config';

// Deploy tests: `npm run deploy` (wrangler itself) against a local stand-in for the Cloudflare API, in Node. One
// file, its tests in order: each run builds on the account state the one before left.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/deploy/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
