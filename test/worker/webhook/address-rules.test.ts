// Where a webhook may go (src/modules/webhook/address-rules.ts): https on 443, never an address off the public
// internet nor the platform's own hosts, checked at registration and, names resolved, on every attempt; and what an
// attempt does with a refused address or a redirect (request.ts).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../../src/env';
import { checkEndpointUrl } from '../../../src/modules/webhook/address-rules';
import { postEvents } from '../../../src/modules/webhook/request';
import { newEndpointSecret, sealEndpointSecret } from '../../../src/modules/webhook/secrets';
import { received, script, setDns, uniquePath } from './webhook-helpers';

const E = env as unknown as Env;
/** Production's rules: no local allowance, the platform on relay.example.com. */
const PROD = { PUBLIC_URL: 'https://relay.example.com', WEBHOOKS_ALLOW_LOCAL: undefined, DNS_RESOLVER_URL: `${E.WEBHOOK_RECEIVER_URL}/dns-query` };
const LOCAL = { ...PROD, PUBLIC_URL: 'http://localhost:8787', WEBHOOKS_ALLOW_LOCAL: 'true' };
const check = (url: string, on = PROD) => checkEndpointUrl(on, url, { resolve: false });

describe('checkEndpointUrl', () => {
  it('takes a public https URL on port 443', async () => {
    expect(await check('https://hooks.customer.test/relay')).toEqual({ ok: true });
    expect(await check('https://hooks.customer.test:443/relay')).toEqual({ ok: true });
    expect(await check('https://93.184.216.34/x')).toEqual({ ok: true });
    expect(await check('https://[2606:4700::1111]/x')).toEqual({ ok: true });
  });

  it('refuses http, other ports, credentials and what is not a URL', async () => {
    expect(await check('http://hooks.customer.test/')).toMatchObject({ ok: false, code: 'scheme' });
    expect(await check('https://hooks.customer.test:8443/')).toMatchObject({ ok: false, code: 'port' });
    expect(await check('https://u:p@hooks.customer.test/')).toMatchObject({ ok: false, code: 'credentials' });
    expect(await check('not a url')).toMatchObject({ ok: false, code: 'invalid_url' });
  });

  it.each([
    ['loopback', 'https://127.0.0.1/'],
    ['loopback', 'https://127.8.9.10/'],
    ['loopback (IPv6)', 'https://[::1]/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['unspecified (IPv6)', 'https://[::]/'],
    ['private 10/8', 'https://10.1.2.3/'],
    ['private 172.16/12', 'https://172.31.255.255/'],
    ['private 192.168/16', 'https://192.168.0.1/'],
    ['link-local', 'https://169.254.169.254/'],
    ['link-local (IPv6)', 'https://[fe80::1]/'],
    ['CGNAT', 'https://100.64.0.1/'],
    ['unique-local', 'https://[fd00::1]/'],
    ['multicast', 'https://224.0.0.1/'],
    ['multicast (IPv6)', 'https://[ff02::1]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/'],
    ['loopback in another notation', 'https://0x7f000001/'],
  ])('refuses a %s address (%s)', async (_what, url) => {
    expect(await check(url)).toMatchObject({ ok: false, code: 'refused_address' });
  });

  it('keeps 172.15 and 172.32 (outside 172.16/12) and 100.128 (outside CGNAT)', async () => {
    expect(await check('https://172.15.0.1/')).toEqual({ ok: true });
    expect(await check('https://172.32.0.1/')).toEqual({ ok: true });
    expect(await check('https://100.128.0.1/')).toEqual({ ok: true });
  });

  it("refuses the platform's own host and its organisations' subdomains", async () => {
    expect(await check('https://relay.example.com/api')).toMatchObject({ ok: false, code: 'platform_host' });
    expect(await check('https://acme.relay.example.com/hook')).toMatchObject({ ok: false, code: 'platform_host' });
    expect(await check('https://RELAY.example.com./x')).toMatchObject({ ok: false, code: 'platform_host' });
    expect(await check('https://notrelay.example.com/x')).toEqual({ ok: true });
  });

  it('allows http, any port and loopback under WEBHOOKS_ALLOW_LOCAL, but not the other private ranges', async () => {
    expect(await check('http://127.0.0.1:8030/hook', LOCAL)).toEqual({ ok: true });
    expect(await check('http://[::1]:8030/hook', LOCAL)).toEqual({ ok: true });
    expect(await check('http://10.0.0.1:8030/hook', LOCAL)).toMatchObject({ ok: false, code: 'refused_address' });
    expect(await check('http://192.168.1.1/hook', LOCAL)).toMatchObject({ ok: false, code: 'refused_address' });
    expect(await check('http://acme.localhost:8787/hook', LOCAL)).toMatchObject({ ok: false, code: 'platform_host' });
  });

  it('resolves the name (A and AAAA) and refuses it when any address is refused or there is none', async () => {
    const name = `hooks-${Math.floor(Math.random() * 1e9)}.customer.test`;
    await setDns(name, 'A', ['93.184.216.34']);
    expect(await checkEndpointUrl(PROD, `https://${name}/x`, { resolve: true })).toEqual({ ok: true });
    await setDns(name, 'AAAA', ['fd12::5']);
    expect(await checkEndpointUrl(PROD, `https://${name}/x`, { resolve: true })).toMatchObject({ ok: false, code: 'refused_address' });
    expect(await checkEndpointUrl(PROD, `https://missing-${name}/x`, { resolve: true })).toMatchObject({ ok: false, code: 'unresolvable' });
  });
});

describe('an attempt', () => {
  const target = async (url: string) => ({
    id: 1,
    url,
    secret: await sealEndpointSecret(E, newEndpointSecret()),
    previousSecret: null,
    previousSecretUntil: null,
    headers: null,
  });
  const event = { id: 'evt_addr', type: 'message.sent', timestamp: new Date().toISOString(), data: '{}' };

  it('is refused, and nothing sent, when the name resolves to a private address on a later attempt', async () => {
    // The name is `localhost` (the runtime reaches the receiver by it) on a platform elsewhere; the DoH stand-in answers for it.
    const on = { ...E, PUBLIC_URL: 'https://relay.example.com', DNS_RESOLVER_URL: `${E.WEBHOOK_RECEIVER_URL}/dns-query` };
    const path = uniquePath('rebind');
    const url = `http://localhost:${new URL(E.WEBHOOK_RECEIVER_URL).port}${path}`;
    await setDns('localhost', 'A', ['127.0.0.1']);
    try {
      // Loopback is allowed locally: the first attempt goes out and is delivered.
      expect(await postEvents(on, await target(url), [event], false)).toMatchObject({ ok: true, status: 200 });
      await setDns('localhost', 'A', ['10.20.30.40']);
      const second = await postEvents(on, await target(url), [event], false);
      expect(second).toMatchObject({ ok: false, status: null });
      expect(second.error).toMatch(/^address_refused: the name resolves to a private address \(10\.20\.30\.40\)/);
      expect(await received(path)).toHaveLength(1);
    } finally {
      await setDns('localhost', 'A', []);
    }
  });

  it('does not follow a redirect', async () => {
    const path = uniquePath('moved');
    const elsewhere = uniquePath('elsewhere');
    await script(path, [{ status: 301, location: `${E.WEBHOOK_RECEIVER_URL}${elsewhere}` }]);
    const outcome = await postEvents(E, await target(`${E.WEBHOOK_RECEIVER_URL}${path}`), [event], false);
    expect(outcome).toMatchObject({ ok: false, status: 301, error: 'redirect_not_followed: HTTP 301' });
    expect(await received(elsewhere)).toEqual([]);
  });

  it('refuses a platform host at the attempt too', async () => {
    const outcome = await postEvents(E, await target('http://acme.localhost:8787/hook'), [event], false);
    expect(outcome.error).toMatch(/^address_refused: /);
  });
});
