import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Each test file gets isolated storage; bring its D1 up to the current schema first.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
