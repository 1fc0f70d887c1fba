import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { startTurnstileForTests } from './support/turnstile.mjs';
import { startWebhookReceiver } from './support/webhook-receiver.mjs';
import { startMockProvider } from './worker/social/mock-provider.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The assets binding needs its folder to exist even when the console has not been built.
mkdirSync(path.join(root, 'dist/web'), { recursive: true });

export default defineConfig(async () => ({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: path.join(root, 'wrangler.toml') },
      miniflare: {
        // The tests deliver single messages themselves, with a recording transport (deliverMessage): the real consumer
        // of the transactional queue, which takes them at once (max_batch_timeout 0), would race them for the claim.
        // A minute's batch timeout keeps it from ever running within a test.
        queueConsumers: { 'relay-transactional': { maxBatchTimeout: 60, maxBatchSize: 100 } },
        bindings: {
          JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
          SECRETS_KEY: 'test1:test-secrets-key-test-secrets-key-0123456789',
          OPERATOR_TOKEN: 'test-operator-token',
          // Request counts are written 5 s after a window opens; tests that wait for a request's background work
          // (appFetch with settle) would wait that long.
          REQUEST_COUNT_FLUSH_MS: '20',
          STRIPE_WEBHOOK_SECRET: 'whsec_test_secret_for_relay_tests',
          // A real OpenID Connect provider on loopback for the social tests (its global setup stops it).
          ...(await startMockProvider()),
          // Webhooks go to a real receiver on loopback (http, any port: allowed for local development and tests only),
          // with their schedule and failing day run 1000 times faster (src/modules/webhook/clock.ts).
          ...(await startWebhookReceiver()),
          WEBHOOKS_ALLOW_LOCAL: 'true',
          WEBHOOK_CLOCK_SCALE: '1000',
          // The hosted forms' bot check: the Turnstile stand-in on loopback with Cloudflare's test keys (its global setup
          // stops it). Tests get tokens from its POST /turnstile/v0/token (test/support/turnstile.mjs).
          ...(await startTurnstileForTests()),
          TEST_MIGRATIONS: await readD1Migrations(path.join(root, 'migrations')),
        },
      },
    }),
  ],
  test: {
    include: ['test/worker/**/*.test.ts'],
    // The tests of src/lib's mime, smtp, sms and transport need real servers on loopback: their own config starts
    // them (npm run test:transport).
    exclude: ['test/worker/lib/{mime,smtp,sms,transport}/**/*.test.ts'],
    setupFiles: ['test/worker/setup.ts'],
    globalSetup: ['test/worker/social/mock-provider.mjs', 'test/support/webhook-receiver.mjs', 'test/support/turnstile.mjs'],
    testTimeout: 20_000,
    // Each file runs in its own runtime (its own storage), and starting one is most of a small file's time: two at
    // once keep both cores busy (a third only makes them wait). The suite must stay under CI's 20 minutes.
    maxWorkers: 2,
  },
}));
