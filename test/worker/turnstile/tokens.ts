import { env } from 'cloudflare:workers';

// Tokens from the Turnstile stand-in the worker tests run beside (test/support/turnstile.mjs), as a visitor's widget
// would hold them: each passes the worker's siteverify (TURNSTILE_VERIFY_URL with TURNSTILE_SECRET_KEY) once.

/** `count` fresh tokens (1 to 1000). */
export async function turnstileTokens(count = 1): Promise<string[]> {
  const verifyUrl = env.TURNSTILE_VERIFY_URL;
  if (!verifyUrl) throw new Error('TURNSTILE_VERIFY_URL is not set: is the stand-in in test/vitest.worker.config.ts?');
  const res = await fetch(new URL('/turnstile/v0/token', verifyUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count }),
  });
  if (!res.ok) throw new Error(`the Turnstile stand-in answered ${res.status}`);
  return ((await res.json()) as { tokens: string[] }).tokens;
}

/** One fresh token. */
export async function turnstileToken(): Promise<string> {
  return (await turnstileTokens(1))[0];
}
