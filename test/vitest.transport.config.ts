// The transport tests: the SMTP and SMS clients run in workerd (the vitest Workers plugin, as in
// vitest.worker.config.ts) against real servers that a global setup starts in Node on loopback.
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { createTestTls, trustTestCa } from './support/tls-cert.mjs';

const root = path.resolve(import.meta.dirname, '..');
// The assets binding needs its folder to exist even when the console has not been built.
mkdirSync(path.join(root, 'dist/web'), { recursive: true });

export default defineConfig(async () => {
  // workerd must trust the test CA for the TLS tests. Miniflare reads NODE_EXTRA_CA_CERTS when its module loads,
  // so the CA is written and the variable set first, and the plugin (which loads miniflare) imported after.
  const tlsDir = mkdtempSync(path.join(os.tmpdir(), 'relay-transport-tls-'));
  trustTestCa(tlsDir, await createTestTls(tlsDir));
  process.env.RELAY_TRANSPORT_TLS_DIR = tlsDir;
  const { cloudflareTest, readD1Migrations } = await import('@cloudflare/vitest-plugin');
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: path.join(root, 'wrangler.toml') },
        miniflare: {
          bindings: {
            JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
            // Integration secrets (the broadcast fault tests store an smtp integration).
            SECRETS_KEY: 'test1:test-secrets-key-test-secrets-key-0123456789',
            // The system-mail transport test reads and writes D1 (test/transport/system-mail.test.ts applies them).
            TEST_MIGRATIONS: await readD1Migrations(path.join(root, 'migrations')),
          },
        },
      }),
    ],
    test: {
      // The src/lib tests that need the real servers (test/worker/lib/<folder>); the worker config leaves them out.
      include: ['test/worker/lib/{mime,smtp,sms,transport}/**/*.test.ts', 'test/transport/**/*.test.ts'],
      globalSetup: ['test/support/transport-servers.ts'],
      testTimeout: 30_000,
    },
  };
});
