import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { turnstileToken, turnstileTokens } from './tokens';

// The worker tests' Turnstile: the stand-in on loopback (test/support/turnstile.mjs), reached from inside the runtime
// with the worker's own vars, as the hosted forms reach it.
const siteverify = async (response: string) => {
  const res = await fetch(env.TURNSTILE_VERIFY_URL ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret: env.TURNSTILE_SECRET_KEY, response, remoteip: '203.0.113.5' }),
  });
  return (await res.json()) as { success: boolean; 'error-codes': string[] };
};

describe('Turnstile in the worker tests', () => {
  it("has Cloudflare's test keys and the stand-in's script and siteverify", () => {
    expect(env.TURNSTILE_SITE_KEY).toBe('1x00000000000000000000AA');
    expect(env.TURNSTILE_SECRET_KEY).toBe('1x0000000000000000000000000000000AA');
    expect(env.TURNSTILE_SCRIPT_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/turnstile\/v0\/api\.js$/);
    expect(env.TURNSTILE_VERIFY_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/turnstile\/v0\/siteverify$/);
  });

  it('passes a token it issued once, then refuses it as reused, and refuses a made-up one', async () => {
    const token = await turnstileToken();
    expect(await siteverify(token)).toMatchObject({ success: true, 'error-codes': [] });
    expect(await siteverify(token)).toEqual({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    expect(await siteverify('standin.made-up')).toEqual({ success: false, 'error-codes': ['invalid-input-response'] });
    expect(new Set(await turnstileTokens(5)).size).toBe(5);
  });
});
