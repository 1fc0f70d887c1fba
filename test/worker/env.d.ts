import type { Env as WorkerEnv } from '../../src/env';

// Types for `cloudflare:workers` env and exports inside the worker tests.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** The loopback webhook receiver and DoH stand-in (test/support/webhook-receiver.mjs). */
      WEBHOOK_RECEIVER_URL: string;
    }
    interface GlobalProps {
      mainModule: typeof import('../../src/index');
    }
  }
}
