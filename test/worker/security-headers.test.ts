import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, callHost, createOrg } from './helpers';

/** The headers every response carries, whatever answered it. */
function expectBaseHeaders(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(res.headers.get('permissions-policy')).toContain('camera=()');
  const csp = res.headers.get('content-security-policy') ?? '';
  for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"]) {
    expect(csp).toContain(directive);
  }
  expect(csp).not.toContain('unsafe-eval');
  expect(csp.match(/script-src [^;]*/)?.[0]).not.toContain('unsafe-inline');
  // Plain http (local): no HSTS, which would pin localhost to https.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

describe('security headers', () => {
  beforeAll(async () => {
    await createOrg('hdr');
  });

  it('are on the console index, a deep link and a static file', async () => {
    for (const path of ['/', '/contact', '/broadcast/view/12', '/assets/index.js', '/favicon.ico']) {
      const res = await call('hdr', path);
      expectBaseHeaders(res);
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('name the live channel socket of this host in connect-src, and nothing else', async () => {
    const csp = (await call('hdr', '/')).headers.get('content-security-policy')!;
    expect(csp.match(/connect-src [^;]*/)?.[0]).toBe("connect-src 'self' ws://hdr.localhost:8787");
  });

  it('are on API answers, errors and the unknown-organisation page', async () => {
    const ok = await call('hdr', '/api/v1/init/app');
    expectBaseHeaders(ok);
    const unauthorised = await call('hdr', '/api/v1/tag');
    expect(unauthorised.status).toBe(401);
    expectBaseHeaders(unauthorised);
    const malformed = await call('hdr', '/api/v1/internal-auth/token-create', {
      method: 'POST',
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    expectBaseHeaders(malformed);
    const unknown = await call('nobody-here', '/');
    expect(unknown.status).toBe(404);
    expectBaseHeaders(unknown);
  });

  it('keep secrets in URLs from leaking through the Referer', async () => {
    for (const path of ['/password-reset?code=abc', '/sign-complete?code=abc', '/social-login?access_token=x', '/unsubscribe?t=abc']) {
      const res = await call('hdr', path);
      expectBaseHeaders(res);
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    const callback = await callHost('localhost:8787', '/api/v1/social/callback/google?code=x&state=y');
    expect(callback.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('give the tracking answers, never pages, the policy that forbids everything, their 404s and unknown paths too', async () => {
    for (const path of ['/t/c/abc', '/t/o/abc', '/t/nothing-here']) {
      const res = await call('hdr', path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('let mail clients load the tracking pixel from another site, and nothing else', async () => {
    expect((await call('hdr', '/t/o/abc')).headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await call('hdr', '/')).headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('add HSTS over https only', async () => {
    const res = await exports.default.fetch(new Request('https://hdr.localhost/', { headers: { host: 'hdr.localhost' } }));
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' wss://hdr.localhost");
  });
});

describe('Server-Timing on API answers', () => {
  it("gives the worker's own time for an organisation's call, answered or refused", async () => {
    await createOrg('timing');
    for (const res of [await call('timing', '/api/v1/init/app'), await call('timing', '/api/v1/tag')]) {
      expect(res.headers.get('server-timing')).toMatch(/^total;dur=\d+(\.\d+)?;desc="app"$/);
    }
  });
});
