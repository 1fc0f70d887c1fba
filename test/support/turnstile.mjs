// The Turnstile stand-in (scripts/turnstile-stand-in.mjs) for the worker tests, in the vitest main process:
// test/vitest.worker.config.ts starts it on a free port and hands the worker its vars (Cloudflare's test site key and
// passing secret, the stand-in's script and siteverify URLs); this file is also a global setup whose teardown stops it.
// A test gets tokens the way a visitor's widget would: POST <origin of TURNSTILE_VERIFY_URL>/turnstile/v0/token
// ({ count }) answers { tokens }; each passes siteverify once, a made-up one never.
import { startTurnstileStandIn } from '../../scripts/turnstile-stand-in.mjs';

const HANDLE = Symbol.for('relay.test.turnstile-stand-in');

/** Starts the stand-in on 127.0.0.1 (a free port: several worktrees may run tests at once); answers the worker vars. */
export async function startTurnstileForTests() {
  const standIn = await startTurnstileStandIn({ port: 0 });
  globalThis[HANDLE] = standIn;
  return standIn.vars;
}

/** Global setup: nothing to start (the config did); the teardown stops the stand-in. */
export default function setup() {
  return async () => {
    const standIn = globalThis[HANDLE];
    delete globalThis[HANDLE];
    await standIn?.close();
  };
}
