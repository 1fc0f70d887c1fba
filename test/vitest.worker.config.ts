import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const root = path.resolve(import.meta.dirname, '..');
// The assets binding needs its folder to exist even when the console has not been built.
mkdirSync(path.join(root, 'dist/web'), { recursive: true });

export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: path.join(root, 'wrangler.toml') },
      miniflare: {
        bindings: {
          JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
          SECRETS_KEY: 'test1:test-secrets-key-test-secrets-key-0123456789',
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, 'migrations')),
        },
      },
    }),
  ],
  test: {
    include: ['test/worker/**/*.test.ts'],
    // The transport tests need real servers on loopback: their own config starts them (npm run test:transport).
    exclude: ['test/worker/transport/**'],
    setupFiles: ['test/worker/setup.ts'],
    testTimeout: 20_000,
  },
}));
