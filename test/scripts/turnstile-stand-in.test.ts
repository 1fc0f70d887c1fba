// @vitest-environment node
// The local Turnstile stand-in (scripts/turnstile-stand-in.mjs), a real server on loopback: its widget script, run in a
// happy-dom page, puts a token it issued into the form; its siteverify answers Cloudflare's shape and error codes.
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteverifyAnswer, startTurnstileStandIn, TEST_SECRETS, TEST_SITE_KEY, type TurnstileStandIn } from '../../scripts/turnstile-stand-in.mjs';

describe('Turnstile stand-in', () => {
  let standIn: TurnstileStandIn;
  beforeAll(async () => {
    standIn = await startTurnstileStandIn({ port: 0 });
  });
  afterAll(() => standIn.close());

  const verifyForm = async (fields: Record<string, string>) => {
    const res = await fetch(standIn.vars.TURNSTILE_VERIFY_URL, { method: 'POST', body: new URLSearchParams(fields) });
    expect(res.status).toBe(200);
    return (await res.json()) as SiteverifyAnswer;
  };
  const verifyJson = async (fields: Record<string, unknown>) => {
    const res = await fetch(standIn.vars.TURNSTILE_VERIFY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });
    return (await res.json()) as SiteverifyAnswer;
  };

  /** A page at the organisation's host with `body`, the widget script loaded into it; answers the window once it ran. */
  const pageWithWidget = async (body: string, query = '') => {
    const window = new Window({
      url: 'http://acme.localhost:8787/f/abc',
      settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true },
    });
    const calls: string[] = [];
    Object.assign(window, { done: (t: string) => calls.push(`done ${t}`), failed: (c: string) => calls.push(`failed ${c}`), ready: () => calls.push('ready') });
    window.document.body.innerHTML = body;
    const script = window.document.createElement('script');
    script.async = true; // as Cloudflare's snippet loads it (and a synchronous load would block this process's server)
    script.src = `${standIn.vars.TURNSTILE_SCRIPT_URL}${query}`;
    window.document.head.appendChild(script);
    await window.happyDOM.waitUntilComplete();
    return { window, calls };
  };

  it("puts a fresh token into each widget's form, which siteverify passes once", async () => {
    const { window, calls } = await pageWithWidget(
      `<form method="post"><input name="email"><div class="cf-turnstile" data-sitekey="${TEST_SITE_KEY}" data-callback="done"></div></form>
       <form method="post"><div class="cf-turnstile" data-sitekey="${TEST_SITE_KEY}"></div></form>`,
    );
    const [first, second] = [...window.document.querySelectorAll('form')].map((f) => new window.FormData(f).get('cf-turnstile-response') as string);
    expect(first).toMatch(/^standin\.[\w-]{32}$/);
    expect(second).toMatch(/^standin\./);
    expect(second).not.toBe(first);
    expect(calls).toEqual([`done ${first}`]);
    expect((window as unknown as { turnstile: { getResponse(): string } }).turnstile.getResponse()).toBe(first);
    await window.happyDOM.close();

    const passed = await verifyForm({ secret: TEST_SECRETS.passes, response: first, remoteip: '203.0.113.7' });
    expect(passed).toMatchObject({ success: true, 'error-codes': [], action: '', cdata: '' });
    expect(Date.parse(passed.challenge_ts ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(await verifyForm({ secret: TEST_SECRETS.passes, response: first })).toEqual({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    expect(await verifyJson({ secret: TEST_SECRETS.passes, response: second })).toMatchObject({ success: true });
  });

  it("blocks with Cloudflare's 2x test site key, and renders explicitly with ?render=explicit&onload=", async () => {
    const blocked = await pageWithWidget(
      `<form><div class="cf-turnstile" data-sitekey="2x00000000000000000000AB" data-callback="done" data-error-callback="failed"></div></form>`,
    );
    expect(new blocked.window.FormData(blocked.window.document.querySelector('form')!).get('cf-turnstile-response')).toBe('');
    expect(blocked.calls).toEqual(['failed standin-blocked']);
    await blocked.window.happyDOM.close();

    const explicit = await pageWithWidget(
      `<form><div id="w" class="cf-turnstile" data-sitekey="${TEST_SITE_KEY}"></div></form>`,
      '?render=explicit&onload=ready',
    );
    const doc = explicit.window.document;
    expect(explicit.calls).toEqual(['ready']);
    expect(doc.querySelector('input[name="cf-turnstile-response"]')).toBeNull();
    const turnstile = (explicit.window as unknown as { turnstile: { render(t: string, o: object): string; reset(id: string): void } }).turnstile;
    const id = turnstile.render('#w', { sitekey: TEST_SITE_KEY, callback: (t: string) => explicit.calls.push(`cb ${t}`) });
    const input = doc.querySelector('input[name="cf-turnstile-response"]') as unknown as { value: string };
    const token = input.value;
    turnstile.reset(id);
    expect(input.value).not.toBe(token);
    expect(explicit.calls).toEqual(['ready', `cb ${token}`, `cb ${input.value}`]);
    await explicit.window.happyDOM.close();
  });

  it("answers Cloudflare's error codes: missing input, unknown token or secret, the test secrets that fail", async () => {
    const [token] = standIn.issueTokens(1);
    expect(await verifyForm({})).toEqual({ success: false, 'error-codes': ['missing-input-secret', 'missing-input-response'] });
    expect(await verifyForm({ secret: TEST_SECRETS.passes })).toEqual({ success: false, 'error-codes': ['missing-input-response'] });
    expect(await verifyForm({ response: token })).toEqual({ success: false, 'error-codes': ['missing-input-secret'] });
    expect(await verifyForm({ secret: TEST_SECRETS.passes, response: 'standin.made-up' })).toEqual({
      success: false,
      'error-codes': ['invalid-input-response'],
    });
    expect(await verifyForm({ secret: 'not-a-secret', response: token })).toEqual({ success: false, 'error-codes': ['invalid-input-secret'] });
    expect(await verifyForm({ secret: TEST_SECRETS.fails, response: token })).toEqual({ success: false, 'error-codes': ['invalid-input-response'] });
    expect(await verifyForm({ secret: TEST_SECRETS.spent, response: token })).toEqual({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    // None of those spent the token.
    expect(await verifyForm({ secret: TEST_SECRETS.passes, response: token })).toMatchObject({ success: true });
    const badJson = await fetch(standIn.vars.TURNSTILE_VERIFY_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(await badJson.json()).toEqual({ success: false, 'error-codes': ['bad-request'] });
    expect((await fetch(standIn.vars.TURNSTILE_VERIFY_URL)).status).toBe(405);
  });

  it('repeats the first answer for the same idempotency key, and expires tokens', async () => {
    const [token] = standIn.issueTokens(1, 'acme.localhost');
    const key = '4d3c2b1a-0000-4000-8000-000000000001';
    const first = await verifyJson({ secret: TEST_SECRETS.passes, response: token, idempotency_key: key });
    expect(first).toMatchObject({ success: true, hostname: 'acme.localhost' });
    expect(await verifyJson({ secret: TEST_SECRETS.passes, response: token, idempotency_key: key })).toEqual(first);
    expect(await verifyJson({ secret: TEST_SECRETS.passes, response: token, idempotency_key: `${key.slice(0, -1)}2` })).toMatchObject({
      success: false,
      'error-codes': ['timeout-or-duplicate'],
    });

    const quick = await startTurnstileStandIn({ port: 0, tokenTtlMs: 30 });
    try {
      const [old] = quick.issueTokens(1);
      await new Promise((r) => setTimeout(r, 60));
      const res = await fetch(quick.vars.TURNSTILE_VERIFY_URL, { method: 'POST', body: new URLSearchParams({ secret: TEST_SECRETS.passes, response: old }) });
      expect(await res.json()).toEqual({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    } finally {
      await quick.close();
    }
  });

  it('issues tokens over HTTP for benchmarks, and lists what siteverify was asked', async () => {
    const res = await fetch(`${standIn.url}/turnstile/v0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 3 }),
    });
    const { tokens } = (await res.json()) as { tokens: string[] };
    expect(new Set(tokens).size).toBe(3);
    const refused = await fetch(`${standIn.url}/turnstile/v0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"count":5000}',
    });
    expect(refused.status).toBe(422);
    await verifyForm({ secret: TEST_SECRETS.passes, response: tokens[0], remoteip: '198.51.100.9' });
    const log = (await (await fetch(`${standIn.url}/api/verifications`)).json()) as {
      items: { response: string; remoteip: string; success: boolean }[];
      counts: Record<string, number>;
    };
    expect(log.items[0]).toMatchObject({ response: tokens[0], remoteip: '198.51.100.9', success: true });
    expect(log.counts.verifications).toBe(log.counts.passed + log.counts.refused);
    expect(log.counts.issued).toBeGreaterThanOrEqual(3);
    expect(standIn.vars).toEqual({
      TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA',
      TURNSTILE_SCRIPT_URL: `${standIn.url}/turnstile/v0/api.js`,
      TURNSTILE_VERIFY_URL: `${standIn.url}/turnstile/v0/siteverify`,
    });
  });
});
