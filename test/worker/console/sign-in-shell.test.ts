import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SHELL_SCRIPT, SHELL_SCRIPT_HASH } from '../../../src/modules/console/sign-in-shell';
import { appFetch } from '../helpers';
import { newSession } from '../api-helpers';
import { forgetOrganizations } from '../../../src/middleware/org-cache';

// The sign-in card painted by the html at an organisation's `/` (issue 23: the sign-in page's first paint waited for the
// console's script). The worker writes the shell into the console's page in the browser's language and holds the
// console's script until the shell is painted; every other page is the console's html as built.

/** The console's html as Vite builds it: a module entry and its preloads in the head, a stylesheet, an empty root. */
const BUILT = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Relay</title>
<script type="module" crossorigin src="/assets/index-AbCdEf12.js"></script>
<link rel="modulepreload" crossorigin href="/assets/react-AbCdEf12.js">
<link rel="stylesheet" crossorigin href="/assets/index-AbCdEf12.css">
</head><body><div id="root"></div></body></html>`;

const assets = {
  fetch: async () => new Response(BUILT, { headers: { 'content-type': 'text/html; charset=utf-8', etag: '"built-1"' } }),
} as unknown as Fetcher;

const page = (org: string, path: string, language?: string) =>
  appFetch(new Request(`http://${org}.localhost${path}`, { headers: { host: `${org}.localhost`, ...(language ? { 'accept-language': language } : {}) } }), {
    env: { ASSETS: assets },
  });

describe('the sign-in shell', () => {
  it("paints the card in the browser's language at /, holds the console's script for after the paint, and lets its script run", async () => {
    const s = await newSession('shell');
    await env.DB.prepare('UPDATE organizations SET name = ? WHERE id = ?').bind('Acme <b>&</b> Co', s.orgId).run();
    // Renamed behind the organisation route's back: this isolate forgets it as that route makes it do.
    forgetOrganizations();
    const res = await page(s.org, '/', 'de-DE,de;q=0.9,en;q=0.5');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toMatch(/<div id="boot-shell" data-lang="de" inert>/);
    // The console's own German strings, and the organisation's name escaped.
    for (const text of ['>Anmelden</h2>', '>Passwort vergessen?</a>', '>E-Mail oder Benutzername</label>', 'Acme &#60;b&#62;&#38;&#60;/b&#62; Co'])
      expect(html).toContain(text);
    expect(html).not.toContain('<b>&</b>');
    // The shell comes before the console's root, with its script; the console's script and preloads wait for it.
    expect(html.indexOf('id="boot-shell"')).toBeLessThan(html.indexOf('<div id="root">'));
    expect(html).toContain(`<script>${SHELL_SCRIPT}</script>`);
    expect(html).toContain('<script type="text/plain" crossorigin src="/assets/index-AbCdEf12.js" data-after-paint="">');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<link crossorigin href="/assets/react-AbCdEf12.js" data-after-paint="">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-AbCdEf12.css">');
    // The page's policy allows that one inline script and no other.
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[^']+'(;| )/);
    expect(res.headers.get('content-security-policy')).toContain(SHELL_SCRIPT_HASH);
    // Not the built file any more, and one per language: no validator of the file, and caches told so.
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('vary')).toContain('Accept-Language');
  });

  it('speaks English when the browser asks for none of the eight languages', async () => {
    const s = await newSession('shell');
    const html = await (await page(s.org, '/', 'ja, ko;q=0.8')).text();
    expect(html).toContain('<div id="boot-shell" data-lang="en" inert>');
    expect(html).toContain('>Sign in</h2>');
  });

  it('leaves every other page, and the platform without an organisation, as built', async () => {
    const s = await newSession('shell');
    for (const path of ['/contact', '/forgot-password']) {
      const res = await page(s.org, path, 'de');
      expect(await res.text()).toBe(BUILT);
      expect(res.headers.get('etag')).toBe('"built-1"');
    }
    const platform = await appFetch(new Request('http://localhost/', { headers: { host: 'localhost' } }), { env: { ASSETS: assets } });
    expect(await platform.text()).toBe(BUILT);
  });

  it('is allowed by a hash that is the hash of its script', async () => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(SHELL_SCRIPT));
    expect(SHELL_SCRIPT_HASH).toBe(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  });
});
